"""A new, empty document of a format: what a key item starts from when its file does not exist
yet (JSON or JSONC: an empty object; TOML: an empty table)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Union

from .jsonc import JsonDoc

if TYPE_CHECKING:  # pragma: no cover
    from .tomldoc import TomlDoc

#: a document agentdeck edits in place: JSON/JSONC or TOML
Doc = Union["JsonDoc", "TomlDoc"]


def new_doc(fmt: str) -> Doc:
    if fmt == "toml":
        from .tomldoc import TomlDoc   # local: tomlkit loads only for a TOML file
        return TomlDoc.new()
    return JsonDoc.new({})
