"""The operator's layer: choices made in the app (an MCP server switched off, onboarding's
options), kept on disk so every later plan -- the app's, `agentdeck plan`, the doctor's -- plans
the same.

Where: `<config dir>/profiles/<profile>.local/`, next to the operator's own profiles:

    profile.toml    [profile] extends = ["<profile>"]: a profile of its own, so the folder says
                    what it is (`agentdeck profiles` lists it) and `--profile <profile>.local`
                    uses the same choices (only the persona block, which names the profile,
                    differs)
    choices.json    the choices, in the shape engine.with_overrides reads:
                    {"directives": {"mcpDefaultDisabled": false, "browserCommand": "auto", ...},
                     "mcp_enabled": {"copilot": {"memory": false}, "codex": {"github": true}},
                     "trust_hooks": {"codex": false}}
                    trust_hooks: whether agentdeck trusts its own hooks where the CLI gates
                    hooks on trust (the TRUST_HOOKS capability, Codex). Every plan trusts them
                    by default; false is the operator's lasting no (onboarding's option, the
                    Hooks tab's button), which `--trust-hooks` overrides for one run

How it is selected: automatically. Whenever the engine plans with profile P (or P.local), it
reads P.local/choices.json and applies it to the resolved profile (engine.with_overrides, per
target), before any per-run overrides. There is no flag to turn it off: the layer is the
operator's own configuration; to drop a choice, switch it back in the app (the plan then
removes it) or edit or delete choices.json (the next plan follows).

How it is written: like every other write, through the plan. `items()` gives the layer's files
as plan items (profile.toml as a file, one key item per choice in choices.json) that every
selected target wants, so the plan shows them, apply writes them atomically with backups and
records them, and uninstall removes them. The app passes the layer as it should be after the
apply (engine.build_plan(..., choices=...)); everyone else plans with the saved layer, whose
items are then in sync.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .desired import Desired, DesiredState
from .errors import UserError
from .host import Host, HostError
from .formats.errors import FormatError
from .formats.jsonc import JsonDoc
from .model import TARGETS, check_name
from .targets import get
from .targets.registry import TARGETS as SPECS, TRUST_HOOKS

SECTIONS = ("directives", "mcp_enabled", "trust_hooks")

SUFFIX = ".local"
CHOICES = "choices.json"
PROFILE_TOML = "profile.toml"
#: the onboarding options and other directives the app can choose (model.Directives' fields)
DIRECTIVES = ("mcpDefaultDisabled", "mcpAlwaysEnabled", "browserCommand", "suppressBrowserLaunch")


def base_of(profile: str) -> str:
    """The profile an overlay extends ("default.local" -> "default")."""
    return profile[: -len(SUFFIX)] if profile.endswith(SUFFIX) and len(profile) > len(SUFFIX) \
        else profile


def is_overlay(profile: str) -> bool:
    return base_of(profile) != profile


def overlay_name(profile: str) -> str:
    return base_of(profile) + SUFFIX


def overlay_dir(host: Host, profile: str) -> Path:
    return host.config_dir / "profiles" / overlay_name(profile)


def choices_path(host: Host, profile: str) -> Path:
    return overlay_dir(host, profile) / CHOICES


# ---- reading --------------------------------------------------------------------------------------

def load(host: Host, profile: str) -> dict[str, Any]:
    """The saved choices for `profile` ({} when there are none). A file that is not valid JSON
    or not in the expected shape is a UserError naming it (and the line where there is one)."""
    path = choices_path(host, profile)
    try:
        text = host.read_text(path)
    except HostError as e:
        raise UserError(str(e), path=str(path)) from None
    if text is None:
        return {}

    try:
        doc = JsonDoc.parse(text, path=str(path))
    except FormatError as e:
        raise UserError(e.msg, path=str(path), line=e.line, col=e.col) from None
    return validate(doc.data, path=str(path), line_of=doc.line_of)


def validate(data: Any, *, path: str | None = None, line_of=None) -> dict[str, Any]:
    """`data` checked against the layer's shape; returns a normalised copy (empty parts left
    out). Errors name the key path (and its line when `line_of` can find it)."""
    def fail(keys: tuple[str, ...], msg: str) -> UserError:
        line = None
        if line_of is not None:
            for i in range(len(keys), 0, -1):
                line = line_of(keys[:i])
                if line:
                    break
        where = ".".join(keys)
        return UserError(f"{where}: {msg}" if where else msg, path=path, line=line)

    if not isinstance(data, dict):
        raise fail((), "expected an object at the top level")
    out: dict[str, Any] = {}
    for k in data:
        if k not in SECTIONS:
            raise fail((k,), "unknown field (expected directives, mcp_enabled or trust_hooks)")
    d = data.get("directives", {})
    if not isinstance(d, dict):
        raise fail(("directives",), "expected an object")
    for k, v in d.items():
        if k not in DIRECTIVES:
            raise fail(("directives", k), f"unknown directive (known: {', '.join(DIRECTIVES)})")
        if k in ("mcpDefaultDisabled", "suppressBrowserLaunch") and not isinstance(v, bool):
            raise fail(("directives", k), "expected true or false")
        if k == "mcpAlwaysEnabled" and not (isinstance(v, list)
                                            and all(isinstance(n, str) for n in v)):
            raise fail(("directives", k), "expected a list of server names")
        if k == "browserCommand" and v is not None and not isinstance(v, (str, list)):
            raise fail(("directives", k), "expected a command, \"auto\" or null")
    if d:
        out["directives"] = dict(d)
    m = data.get("mcp_enabled", {})
    if not isinstance(m, dict):
        raise fail(("mcp_enabled",), "expected an object")
    mcp: dict[str, dict[str, bool]] = {}
    for t, servers in m.items():
        if t not in TARGETS:
            raise fail(("mcp_enabled", t), f"unknown target (known: {', '.join(TARGETS)})")
        if not isinstance(servers, dict):
            raise fail(("mcp_enabled", t), "expected an object of server name -> true/false")
        for name, on in servers.items():
            try:
                check_name(name, "MCP server name")
            except ValueError as e:
                raise fail(("mcp_enabled", t, name), str(e)) from None
            if not isinstance(on, bool):
                raise fail(("mcp_enabled", t, name), "expected true or false")
        if servers:
            mcp[t] = dict(servers)
    if mcp:
        out["mcp_enabled"] = mcp
    tr = data.get("trust_hooks", {})
    if not isinstance(tr, dict):
        raise fail(("trust_hooks",), "expected an object of target -> true or false")
    trusting = trust_targets()
    for t, on in tr.items():
        if t not in trusting:
            raise fail(("trust_hooks", t), "only a CLI that gates hooks on trust has this "
                                           f"choice (known: {', '.join(trusting)})")
        if not isinstance(on, bool):
            raise fail(("trust_hooks", t), "expected true or false (false: leave agentdeck's "
                                           "hooks untrusted; delete the key for the default)")
    if tr:
        out["trust_hooks"] = dict(tr)
    return out


def trust_targets() -> tuple[str, ...]:
    """The targets whose CLI gates hooks on trust (registry capability TRUST_HOOKS)."""

    return tuple(s.name for s in SPECS if s.can(TRUST_HOOKS))


def directives_of(layer: dict | None) -> dict[str, Any]:
    """The layer's directive choices (a copy; {} when none)."""
    d = (layer or {}).get("directives")
    return dict(d) if isinstance(d, dict) else {}


def trust_of(layer: dict | None) -> dict[str, bool | None]:
    """The layer's trust choices per target (False: a lasting no; None, in pending choices:
    drop the saved one)."""
    tr = (layer or {}).get("trust_hooks")
    return dict(tr) if isinstance(tr, dict) else {}


def mcp_of(layer: dict | None, target: str) -> dict[str, Any]:
    """The layer's MCP switches for `target` (server -> on; None in pending choices)."""
    m = (layer or {}).get("mcp_enabled")
    got = m.get(target) if isinstance(m, dict) else None
    return dict(got) if isinstance(got, dict) else {}


def layer(directives: dict | None = None, mcp_enabled: dict | None = None,
          trust_hooks: dict | None = None) -> dict[str, Any]:
    """A layer (or the pending choices) in this module's shape, with the empty sections left
    out."""
    out: dict[str, Any] = {}
    if directives:
        out["directives"] = dict(directives)
    mcp = {t: dict(v) for t, v in (mcp_enabled or {}).items() if v}
    if mcp:
        out["mcp_enabled"] = mcp
    if trust_hooks:
        out["trust_hooks"] = dict(trust_hooks)
    return out


def merge(base: dict | None, over: dict | None) -> dict[str, Any]:
    """`over`'s choices on top of `base`'s (per directive, per target and server). A server
    set to None in `over` drops `base`'s choice for it."""
    out: dict[str, Any] = {}
    d = {**((base or {}).get("directives") or {}), **((over or {}).get("directives") or {})}
    if d:
        out["directives"] = d
    mcp: dict[str, dict[str, bool]] = {}
    for src in (base or {}, over or {}):
        for t, servers in (src.get("mcp_enabled") or {}).items():
            mine = mcp.setdefault(t, {})
            for name, on in servers.items():
                if on is None:
                    mine.pop(name, None)
                else:
                    mine[name] = on
    mcp = {t: s for t, s in mcp.items() if s}
    if mcp:
        out["mcp_enabled"] = mcp
    trust: dict[str, bool] = {}
    for src in (base or {}, over or {}):
        for t, on in (src.get("trust_hooks") or {}).items():
            if on is None:
                trust.pop(t, None)
            else:
                trust[t] = on
    if trust:
        out["trust_hooks"] = trust
    # anything else (per-run overrides the engine knows) is passed through
    for src in (base or {}, over or {}):
        for k, v in src.items():
            if k not in SECTIONS:
                out[k] = v
    return out


# ---- words ----------------------------------------------------------------------------------------

def describe(choices: dict | None) -> list[str]:
    """Each choice in words ("MCP server memory off (copilot)", "mcpDefaultDisabled off")."""
    out: list[str] = []
    for k, v in ((choices or {}).get("directives") or {}).items():
        out.append(f"{k} {_word(v)}")
    for t, servers in ((choices or {}).get("mcp_enabled") or {}).items():
        for name, on in servers.items():
            if on is None:
                out.append(f"MCP server {name} as the profile has it ({_title(t)})")
            else:
                out.append(f"MCP server {name} {'on' if on else 'off'} ({_title(t)})")
    for t, on in ((choices or {}).get("trust_hooks") or {}).items():
        if on is None:
            out.append(f"agentdeck's hooks trusted as by default ({_title(t)})")
        elif on is False:
            out.append(f"agentdeck's hooks left untrusted ({_title(t)})")
        else:
            out.append(f"trust agentdeck's hooks ({_title(t)})")
    return out


def _title(target: str) -> str:
    try:
        return get(target).title
    except Exception:  # noqa: BLE001 - a name is enough
        return target


def _word(v: Any) -> str:
    if v is True:
        return "on"
    if v is False:
        return "off"
    if v is None:
        return "unset"
    return json.dumps(v, ensure_ascii=False)


# ---- plan items ---------------------------------------------------------------------------------

def profile_toml(profile: str) -> str:
    base = base_of(profile)
    return (f"# Your choices from the agentdeck app, on top of profile {base!r}.\n"
            f"# agentdeck applies {CHOICES} (next to this file) whenever it plans with profile "
            f"{base!r}.\n"
            "# Change them in the app (agentdeck tui); edit or delete "
            f"{CHOICES} to drop them.\n"
            "[profile]\n"
            f"description = \"your choices from the agentdeck app, on top of {base}\"\n"
            f"extends = [\"{base}\"]\n")


def items(host: Host, profile: str, choices: dict | None) -> list[Desired]:
    """The layer's files as plan items (target left blank: add_items puts a copy in every
    selected target's state, and the planner makes one item of each)."""
    choices = choices or {}
    folder = overlay_dir(host, profile)
    out: list[Desired] = []
    keys: list[tuple[tuple[str, ...], Any, str]] = []
    for k, v in (choices.get("directives") or {}).items():
        keys.append((("directives", k), v, f"{k} {_word(v)} (your choice)"))
    for t, servers in (choices.get("mcp_enabled") or {}).items():
        for name, on in servers.items():
            keys.append((("mcp_enabled", t, name), on,
                         f"MCP server {name} {'on' if on else 'off'} for {_title(t)} "
                         "(your choice)"))
    for t, on in (choices.get("trust_hooks") or {}).items():
        keys.append((("trust_hooks", t), on,
                     f"{'trust' if on else 'do not trust'} agentdeck's hooks for {_title(t)} "
                     "(your choice)"))
    if not keys:
        return out
    base = base_of(profile)
    out.append(Desired(target="", path=folder / PROFILE_TOML, kind="file",
                       value=profile_toml(profile), group="choices",
                       label=f"your layer on profile {base}",
                       reason=f"your choices made in the app, kept for profile {base}"))
    for key, value, label in keys:
        out.append(Desired(target="", path=folder / CHOICES, kind="key", key=key, value=value,
                           fmt="json", group="choices", label=label,
                           reason=f"your choice in the app, kept for profile {base} "
                                  "(every plan with this profile uses it)"))
    return out


def add_items(host: Host, profile: str, choices: dict | None,
              states: list[DesiredState]) -> None:
    """Add the layer's items (and a notice saying the layer is used) to each state."""
    words = describe(choices)
    for st in states:
        for d in items(host, profile, choices):
            d.target = st.target
            st.add(d)
        if words:
            st.note(f"profile {base_of(profile)} with your choices ({'; '.join(words)})",
                    path=str(choices_path(host, profile)))
