"""Why agentdeck's hooks cannot run in Qwen Code, beyond the shared reasons (core/hooks_health.py):
`disableAllHooks` set in ~/.qwen/settings.json stops every hook, the system file's too, and a
truthy `disableAllHooks` in the working folder's `.qwen/settings.json` stops the user's hooks in
a session started there, while folder trust is off (the default) (docs/facts/qwen.md section 2,
"Switches"; agentdeck reports the folder it was started in)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from ..output import HooksInfo
    from ...host import Host

from ..parts.health import Inert
from . import SPEC
from .facts import QWEN

DISABLE_ALL_STOPS = True


def disable_all(host: "Host") -> tuple[str, str]:
    f = host.display(SPEC.home(host) / "settings.json")
    return f, f"set disableAllHooks to false in {f}"


def _truthy(value: Any) -> bool:
    """JavaScript's truthiness, as Qwen reads the key (a string "no" turned the hooks off)."""
    return not (value is None or value is False or value == 0 or value == "")


def _get(data: Any, path: tuple[str, ...]) -> Any:
    for k in path:
        data = data.get(k) if isinstance(data, dict) else None
    return data


def project_switch(host: "Host") -> tuple[Path, Any, bool] | None:
    """(the working folder's .qwen/settings.json, its disableAllHooks, whether the user's folder
    trust is on) when that file turns the user's hooks off in a session started there: Qwen
    reads it in any folder but the home itself; one that does not parse it replaces with
    `{"$version": 4}` (no switch)."""
    # local: the parser is needed only when the working folder has a .qwen/settings.json
    from ...formats.errors import FormatError  # local: as the line below
    from ...formats.jsonc import JsonDoc  # local: only when the folder has the file

    cwd = host.working_dir()
    if cwd == host.home.absolute():
        return None
    path = cwd / SPEC.home_dirname / QWEN.settings_file
    text = host.read_text(path) if host.is_file(path) else None
    if text is None:
        return None
    try:
        data = JsonDoc.parse(text, path=str(path)).data
    except FormatError:
        return None
    value = data.get(QWEN.disable_all_key) if isinstance(data, dict) else None
    if not _truthy(value):
        return None
    trust = False
    user = SPEC.home(host) / QWEN.settings_file
    utext = host.read_text(user) if host.is_file(user) else None
    if utext:
        try:
            trust = _get(JsonDoc.parse(utext, path=str(user)).data, QWEN.folder_trust_key) is True
        except FormatError:
            pass
    return path, value, trust


def project_reason(host: "Host") -> str | None:
    """The words for project_switch's finding, or None."""
    found = project_switch(host)
    if found is None:
        return None
    path, value, trust = found
    what = "true" if value is True else f"{value!r} (any value but false counts)"
    return (f"{host.display(path)} (the folder agentdeck was started in) has "
            f"{QWEN.disable_all_key}: {what}: a Qwen session started there runs none of the "
            "user's hooks, agentdeck's among them, unless a system settings file pins "
            f"{QWEN.disable_all_key}: false"
            + (" or Qwen does not trust the folder (security.folderTrust is on)"
               if trust else ""))


def reasons(host: "Host", hooks: "HooksInfo", events: list[str]) -> list[Inert]:
    why = project_reason(host)
    if why is None:
        return []
    return [Inert("qwen-project-disable-all", why,
                  f"remove {QWEN.disable_all_key} from that file, or set "
                  "security.folderTrust.enabled: true in ~/.qwen/settings.json (Qwen then "
                  "ignores an untrusted folder's settings), or pin it false in the system file "
                  "(`agentdeck org`)", events)]
