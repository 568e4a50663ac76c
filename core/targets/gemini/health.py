"""Why agentdeck's hooks cannot run in Gemini CLI, beyond the shared reasons (core/hooks_health.py)
(docs/facts/gemini.md section 2, "Switches"; Gemini CLI 0.61.0):

- `hooksConfig.enabled: false` in ~/.gemini/settings.json, or in the working folder's
  `.gemini/settings.json`, runs no hook at all (a system settings file pinning it true wins);
- agentdeck's hook name in any layer's `hooksConfig.disabled` (the lists are UNION-merged, so
  no other layer can take a name out again) runs none of agentdeck's hooks.
Gemini has no `disableAllHooks` (DISABLE_ALL_STOPS is absent)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from ..output import HooksInfo
    from ...host import Host

from ..parts.health import Inert
from . import SPEC
from .facts import GEMINI


def _get(data: Any, path: tuple[str, ...]) -> Any:
    for k in path:
        data = data.get(k) if isinstance(data, dict) else None
    return data


def _load(host: "Host", path: Path) -> dict | None:
    # local: the parser is needed only when the file is there
    from ...formats.errors import FormatError  # local: as the line below
    from ...formats.jsonc import JsonDoc  # local: only when the file exists

    text = host.read_text(path) if host.is_file(path) else None
    if not text:
        return None
    try:
        data = JsonDoc.parse(text, path=str(path)).data
    except FormatError:
        return None
    return data if isinstance(data, dict) else None


def project_file(host: "Host") -> Path | None:
    """The working folder's .gemini/settings.json (Gemini reads it in a trusted folder that is
    not the home itself), when it exists."""
    cwd = host.working_dir()
    if cwd == host.home.absolute():
        return None
    path = cwd / SPEC.home_dirname / GEMINI.settings_file
    return path if host.is_file(path) else None


def _what(enabled: Any, disabled: Any) -> list[str]:
    out = []
    if enabled is False:
        out.append("hooksConfig.enabled: false")
    if isinstance(disabled, list) and GEMINI.hook_name in disabled:
        out.append(f"\"{GEMINI.hook_name}\" in hooksConfig.disabled")
    return out


def switches(host: "Host", hooks: "HooksInfo | None") -> list[tuple[Path, str]]:
    """(file, what) for every hooksConfig setting that keeps agentdeck's hooks from running: the
    user file's as the adapter read it (`hooks.hooks_config`, the plan's hooks report), the
    working folder's read here."""
    out: list[tuple[Path, str]] = []
    seen = hooks.hooks_config if hooks is not None else None
    if seen is not None:
        user = SPEC.home(host) / GEMINI.settings_file
        out += [(user, w) for w in _what(seen.enabled, list(seen.disabled))]
    project = project_file(host)
    data = _load(host, project) if project is not None else None
    if project is not None and data is not None:
        out += [(project, w) for w in _what(_get(data, GEMINI.hooks_enabled_key),
                                            _get(data, GEMINI.hooks_disabled_key))]
    return out


def reasons(host: "Host", hooks: "HooksInfo", events: list[str]) -> list[Inert]:
    out = []
    for path, what in switches(host, hooks):
        f = host.display(path)
        out.append(Inert("gemini-hooks-config", f"{f} has {what}: Gemini CLI runs none of "
                         "agentdeck's hooks" + (" in a session started in that folder (when "
                                                "Gemini trusts it)"
                                                if path != SPEC.home(host) / GEMINI.settings_file
                                                else ""),
                         f"remove it from {f}", events))
    return out
