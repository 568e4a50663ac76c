"""Settings files a CLI reads from the working folder (and its parents) after the home's, that
can switch agentdeck's hooks off there: found for the doctor and `status` (each target's health
part and doctor say which files and which key, as facts of the version they were observed on).

    switched_off(host, rels, key) -> [(path, value)]   the files under the working folder or a
                                                        parent (up to, not including, the home)
                                                        whose `key` is true
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from ..host import Host

#: how many folders up from the working folder are looked at (a deep checkout stays cheap)
MAX_UP = 32


def folders(host: "Host") -> list[Path]:
    """The working folder and its parents, nearest first, stopping below the home and at /."""
    cwd = host.working_dir()
    home = host.home.absolute()
    out: list[Path] = []
    for d in [cwd, *cwd.parents][:MAX_UP]:
        if d == home:
            break
        out.append(d)
    return out


def switched_off(host: "Host", rels: tuple[str, ...], key: str) -> list[tuple[Path, Any]]:
    """(path, value) of each file `rel` (relative to a folder) in the working folder or a parent
    whose top-level `key` is true. A file that does not parse is left to the CLI's own check."""
    from ..formats.errors import FormatError   # local: only when a folder has such a file
    from ..formats.jsonc import JsonDoc   # local: as above

    found: list[tuple[Path, Any]] = []
    for d in folders(host):
        for rel in rels:
            path = d / rel
            text = host.read_text(path) if host.is_file(path) else None
            if not text:
                continue
            try:
                data = JsonDoc.parse(text, path=str(path)).data
            except FormatError:
                continue
            if isinstance(data, dict) and data.get(key) is True:
                found.append((path, True))
    return found
