"""The OpenAI Codex CLI's organisation layer: a managed block of agentdeck's in
/etc/codex/requirements.toml (docs/org.md).

Observed with the CLI version in FACTS.verified, in a real offline turn (scripted model server)
run as an unprivileged user (uid 65534, setpriv) inside a private mount namespace whose /etc was
an overlay of the test's own (tests/clients/private_etc.py): the machine's /etc was never
touched. "holds" below means the tool call was refused (the marker file the call would create
stayed absent) while the org hook's receipt was written.
"""
from __future__ import annotations

import json
import re
import tomllib

from ...desired import Desired
from ...errors import UserError
from ...facts.versions import frozen_map
from ..parts.org import LayerRequest, OrgAttempts, OrgFacts, OrgProblem, OrgRow
from . import SPEC

TOML_MARKERS = ("# >>> agentdeck org layer (agentdeck org uninstall removes it) >>>",
                "# <<< agentdeck org layer <<<")

FACTS = OrgFacts(
    target=SPEC.name, verified="0.171.0",
    path="/etc/codex/requirements.toml", kind="block", marks=(TOML_MARKERS[0],),
    pre_tool_event="PreToolUse", cli_checks_ownership=False,
    attempts=frozen_map({
        "features_hooks_off": "user config.toml [features] hooks = false, -c features.hooks="
                              "false or --disable hooks: holds ONLY with [features] hooks = true "
                              "in requirements.toml (without it the managed hook did not run "
                              "and the call went through)",
        "hook_state_disabled": "user [hooks.state.\"/etc/codex/requirements.toml:pre_tool_use:"
                               "0:0\"] enabled = false: holds",
        "untrusted": "no trusted_hash anywhere: holds (hooks/list: trustStatus managed, "
                     "isManaged true, source system)",
        "bypass": "--dangerously-bypass-approvals-and-sandbox, --dangerously-bypass-hook-trust, "
                  "-c hooks={}: holds",
        "user_allow_hook": "a trusted user PreToolUse hook answering permissionDecision allow: "
                           "holds (both ran; the deny won)",
    }),
    keys=frozen_map({
        "hooks_on": ("features", "hooks"),
        "managed_hooks_only": ("allow_managed_hooks_only",),
        # an allowlist: [mcp_servers.<name>.identity] command = "..." (a stdio server) or
        # url = "..." (streamable HTTP). Observed with a stdio server that writes a marker when
        # started (docs/facts/codex.md, "The org layer's MCP allowlist"): a server not listed
        # was never started, nor one listed under its name with another command, nor any with
        # mcp_servers = {}; the user's -c mcp_servers.<name>.enabled=true did not start one
        "mcp_allowed": ("mcp_servers", "<name>", "identity"),
    }),
    limits=(
        "requirements.toml is one file for every tool an administrator uses: agentdeck keeps "
        "its part in a managed block of dotted root-level keys (no table headers, so text "
        "after the block stays at the root)",
        "a key agentdeck's block sets may not be set elsewhere in the file (TOML forbids it): "
        "the plan refuses such a file, naming it",
        "Codex reads requirements.toml whatever its owner and mode",
        "no MCP denylist: requirements.toml's mcp_servers is an allowlist only, so a denied "
        "server is held only when an allowlist is given too (it is left out of it)",
        "an allowed MCP server is named with its command (a stdio server) or URL, taken from "
        "the profile's mcp.json: a name the profile does not define cannot be allowed; the "
        "command is the program alone, its arguments are not compared (the allowed program "
        "with other arguments started)",
    ),
)

#: the line without which the user's [features] hooks = false switches the managed hook off
HOOKS_ON = "features.hooks = true"
#: a user hook that answers "allow" in Codex's channel
ALLOW = """echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}'"""


def _toml_str(s: str) -> str:
    return json.dumps(s)       # a TOML basic string is a JSON string for these values


def layer_item(req: LayerRequest, view) -> Desired:
    lines = [HOOKS_ON]
    if req.managed_hooks_only:
        lines.append("allow_managed_hooks_only = true")
    lines.append(f"hooks.{FACTS.pre_tool_event} = [{{ hooks = [{{ type = \"command\", "
                 f"command = {_toml_str(req.command)}, timeout = {req.timeout} }}] }}]")
    allowed = _mcp_identities(req)
    if allowed is not None:
        lines += ([f"mcp_servers.{_toml_key(n)}.identity.{k} = {_toml_str(v)}"
                   for n, (k, v) in allowed.items()] or ["mcp_servers = {}"])
    body = "\n".join(lines) + "\n"
    _check_toml(view, req.path, body)
    return Desired(SPEC.name, req.path, "block", body, markers=TOML_MARKERS, placement="top",
                   label="requirements block", group="hooks",
                   reason="Codex's requirements: managed hooks (no trust step), and hooks "
                          "pinned on so the user's [features] hooks = false cannot stop them")


def _toml_key(name: str) -> str:
    return name if re.fullmatch(r"[A-Za-z0-9_-]+", name) else _toml_str(name)


def _mcp_identities(req: LayerRequest) -> dict[str, tuple[str, str]] | None:
    """The allowlist as Codex names each server: (identity key, value) per allowed server the
    profile defines (its command, or its URL); None without an allowlist."""
    allowed = req.mcp_allowed_kept
    if allowed is None:
        return None
    out: dict[str, tuple[str, str]] = {}
    for n in allowed:
        srv = req.mcp_servers.get(n) or {}
        if srv.get("command"):
            out[n] = ("command", str(srv["command"]))
        elif srv.get("url"):
            out[n] = ("url", str(srv["url"]))
    return out


def layer_notes(req: LayerRequest) -> list[str]:
    notes: list[str] = []
    allowed = _mcp_identities(req)
    if req.mcp_denied and allowed is None:
        notes.append("no MCP denylist in requirements.toml (its mcp_servers is an allowlist "
                     f"only): {', '.join(req.mcp_denied)} not held by Codex's layer; give an "
                     "allowlist ([org] mcp_allowed) to keep them out")
    if allowed is not None:
        missing = [n for n in (req.mcp_allowed_kept or ()) if n not in allowed]
        if missing:
            notes.append("an allowed MCP server is named by its command or URL, and the "
                         f"profile's mcp.json does not define {', '.join(missing)}: left out "
                         "of the allowlist, so Codex starts no server by that name")
        if allowed:
            notes.append("MCP servers are allowed by name and command (or URL); a stdio "
                         "server's arguments are not compared")
    return notes


def _check_toml(view, path, body: str) -> None:
    """The requirements file with our block must still be TOML (a key our block sets that
    the administrator's text sets too is refused, naming the file)."""
    from ...formats.blocks import set_block

    text = view.text(path) if view.host.exists(path) else None
    if not text:
        return
    merged = set_block(text, *TOML_MARKERS, body, placement="top", path=str(path))
    try:
        tomllib.loads(merged)
    except tomllib.TOMLDecodeError as e:
        raise UserError(f"{path}: agentdeck's org block cannot go into this file: with it "
                        f"the file is not TOML ({e}); a key the block sets "
                        "(features.hooks, allow_managed_hooks_only, hooks.PreToolUse, mcp_servers) "
                        "is "
                        "probably set here too: remove it or let agentdeck's block set it",
                        path=str(path)) from None


def layer_problems(text: str) -> list[OrgProblem]:
    if HOOKS_ON not in text:
        return [OrgProblem("requirements.toml does not pin features.hooks = true: the user's "
                           "[features] hooks = false switches the managed hook off",
                           "as root: agentdeck org apply")]
    return []


def drill_attempts() -> OrgAttempts:
    return OrgAttempts(
        files={"config.toml": "[features]\nhooks = false\n\n[[hooks.PreToolUse]]\n"
                              "[[hooks.PreToolUse.hooks]]\ntype = \"command\"\n"
                              f"command = {json.dumps(ALLOW)}\n"},
        flags=("-c", "features.hooks=false", "--dangerously-bypass-hook-trust"), env={},
        words=("config.toml [features] hooks = false", "-c features.hooks=false",
               "a user PreToolUse hook answering allow", "--dangerously-bypass-hook-trust",
               "--dangerously-bypass-approvals-and-sandbox",
               "no trust entry for the managed hook (it is never trusted by the user)"))


#: the live probe that lists Codex's hooks (`codex app-server` hooks/list)
LIVE_PROBE = "hooks"


def live_check(data: dict) -> OrgRow:
    hooks = [h for d in (data.get("data") or []) for h in (d.get("hooks") or [])]
    ours = [h for h in hooks if h.get("sourcePath") == FACTS.path]
    if any(h.get("isManaged") and h.get("trustStatus") == "managed" for h in ours):
        return OrgRow("ok", f"Codex reports the org hook from {FACTS.path} as managed "
                            "(trustStatus managed: it runs with no trust entry, the user cannot "
                            "disable it)")
    return OrgRow("error", f"Codex does not report the org hook of {FACTS.path} as managed: it "
                           "may not run",
                  "check requirements.toml with `codex app-server` hooks/list")


TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover  (mypy checks this module against its part's interface)
    from ..parts.org import OrgPart
    from . import org as _this
    _conforms: OrgPart = _this
