"""OpenCode's organisation layer (docs/org.md): its managed folder, /etc/opencode, which OpenCode
merges after every other config layer. It reads only opencode.json and opencode.jsonc there (no
plugins/ folder is discovered), so agentdeck writes a whole opencode.json of its own that names
agentdeck's org plugin under `plugin` -- `file:///etc/opencode/agentdeck-org.js`, with the org
hook's command line as the plugin's options -- and the plugin file beside it. The plugin
implements `tool.execute.before`: it runs the org hook's command with the call on stdin (the
payload of agentdeck's own OpenCode plugin, core/targets/opencode/plugin.py) and throws unless
it exits 0, so OpenCode fails the call.

Observed with the CLI version in FACTS.verified (docs/facts/opencode.md section 7, reproduced by
tests/clients/test_org_real.py), in a real offline turn (scripted model server) run as an
unprivileged user (uid 65534, setpriv) inside a private mount namespace whose /etc was an overlay
of the test's own (tests/clients/private_etc.py): the machine's /etc was never touched. "holds"
below means the tool call was refused (the marker file the call would create stayed absent).

A plugin is not a floor in OpenCode: `--pure` and OPENCODE_PURE load no external plugin, the
managed file's among them, and OPENCODE_TEST_MANAGED_CONFIG_DIR (read by the release, though
named for tests) moves the managed folder to one of the user's. FACTS.undone_by says so, the
doctor's `opencode.org.layer` row checks the user's environment for both variables, and the
drill tries only what holds. agentdeck writes no `permission` rule in the managed file
(FACTS.limits says why).
"""
from __future__ import annotations

import json
from pathlib import Path

from ...desired import Desired
from ...facts.versions import frozen_map
from ..parts.org import LayerRequest, OrgAttempts, OrgFacts, OrgProblem, OrgRow
from . import SPEC
from .dialect import EVENT
from .drill import npm_stub
from .facts import OPENCODE, VERIFIED

#: agentdeck's org plugin, beside the managed file (a system path; the plan puts the root
#: prefix in front of it, the managed file names it as OpenCode will find it)
PLUGIN = OPENCODE.managed_dir + "/agentdeck-org.js"
PLUGIN_SPEC = "file://" + PLUGIN
#: the plugin's first line: how agentdeck knows the file for its own
PLUGIN_HEADER = ("// agentdeck org plugin for OpenCode: written by `agentdeck org apply` "
                 "(root-owned; do not edit: `agentdeck org plan` reports a hand-edit).")

FACTS = OrgFacts(
    target=SPEC.name, verified=VERIFIED,
    path=OPENCODE.managed_dir + "/" + OPENCODE.config_file, kind="file", shared_name=True,
    pre_tool_event=EVENT,
    # OpenCode reads the managed file as any config file: owner and mode are not looked at (the
    # release's reader; agentdeck's own check decides whether the layer is in effect)
    cli_checks_ownership=False,
    # observed with agentdeck in the user's home too: the user's plugin ran first (the managed
    # layer is merged last, its plugin runs last) and its audit line said allow; the org
    # plugin's deny failed the call
    user_pre_hook_runs_after_org_deny=True,
    attempts=frozen_map({
        "user_plugin_list": "the user's opencode.json \"plugin\": [] with \"permission\": "
                            "{\"*\": \"allow\"}: holds (plugin lists are joined, the managed "
                            "layer's last)",
        "same_name": "a plugin of the user's named agentdeck-org.js in the home's plugins/ "
                     "folder: holds (the managed entry wins a name clash)",
        "project": "a project opencode.json \"plugin\": [] in the turn's folder: holds",
        "permission_env": "OPENCODE_PERMISSION allowing every tool: holds (it is merged over "
                          "`permission`; the plugin judges before the permission check)",
        "default_plugins_env": "OPENCODE_DISABLE_DEFAULT_PLUGINS=1: holds (built-in plugins "
                               "only)",
        "rewriting_plugin": "a user plugin that rewrites the call's arguments: holds (user "
                            "plugins run before the managed one, which judges the arguments "
                            "as they will run)",
        "auto": "--auto: holds",
        "pure": "--pure, or OPENCODE_PURE=1: does NOT hold (no external plugin loads, the "
                "managed file's included; the call ran)",
        "managed_dir_env": f"{OPENCODE.managed_dir_env} at a folder of the user's: does NOT "
                           f"hold (that folder is the managed one then; the call ran)",
    }),
    limits=(
        f"{OPENCODE.pure_flag} and {OPENCODE.pure_env}=1, set by the user, load no external "
        "plugin, the managed file's org plugin among them",
        f"{OPENCODE.managed_dir_env}, set by the user, makes another folder the managed one: "
        f"the org plugin is then gone",
        "no permission rule is written in the managed file: a path rule has no spelling OpenCode "
        "matches wherever a session starts (read rules match the path relative to the "
        "session's worktree), and a bash deny would be undone as easily as the plugin "
        f"({OPENCODE.permission_env}, merged after the managed file, or the user's own key "
        "listed before a later \"*\": \"allow\") while matching command text, not what "
        "agentdeck's policy decides",
        "a plugin is awaited with no timeout: the org plugin's own (the profile's hook timeout) "
        "fails the call when it runs out, as does a handler that cannot start",
        "one managed file name: an administrator's own /etc/opencode/opencode.json is foreign "
        "to the plan and kept unless taken (--take: agentdeck writes the whole file; uninstall "
        "gives theirs back); kept, no org plugin runs and org status says the layer is not in "
        "effect; an opencode.jsonc there is read after it and is the administrator's",
        "no managed-hooks-only switch: the user's own plugins still run (before the org "
        "plugin, which judges the arguments they leave)",
        "[org] mcp_denied is each name's \"enabled\": false in the managed file (merged after "
        "the user's and a project's entry of that name); OpenCode has no allowlist, so "
        "mcp_allowed is not written; MCP servers are matched by the name the user gives them",
    ),
    keys=frozen_map({
        # [org] mcp_denied: {"enabled": false} under each name in the managed file, merged
        # after the user's and a project's entries of that name
        "mcp_denied": ("mcp", "<name>", "enabled"),
    }),
    undone_by=frozen_map({
        OPENCODE.pure_flag: "on the user's command line: no external plugin loads",
        OPENCODE.pure_env: "set by the user: no external plugin loads",
        OPENCODE.managed_dir_env: "set by the user: another folder is the managed one",
    }),
    marks=(PLUGIN_SPEC,),
    runs=(PLUGIN,),
)


# ---- the managed file -------------------------------------------------------------------------

def layer_doc(req: LayerRequest) -> dict:
    """The managed file: the org plugin, its options the org hook's command line and timeout
    (the plugin reads them; the command is in the file the doctor checks). "$schema" so that an
    OpenCode run by root does not write it into the file. [org] mcp_denied: each name's
    "enabled": false."""
    doc: dict = {OPENCODE.schema_key: OPENCODE.schema_url,
                 OPENCODE.plugin_key: [[PLUGIN_SPEC, {"command": req.command,
                                                      "timeout_ms": int(req.timeout) * 1000}]]}
    if req.mcp_denied:
        doc["mcp"] = {n: {"enabled": False} for n in sorted(req.mcp_denied)}
    return doc


def layer_item(req: LayerRequest, view) -> Desired:
    return Desired(SPEC.name, req.path, "file", json.dumps(layer_doc(req), indent=2) + "\n",
                   mode=req.mode, label="managed config", group="hooks",
                   reason="OpenCode's managed config, merged after every other layer: names "
                          "agentdeck's org plugin, which the user's config cannot take out")


def plugin_text() -> str:
    """The org plugin: the same payload as agentdeck's own OpenCode plugin, sent to the org
    hook's command (its options) through /bin/sh; it throws unless that exits 0 -- and when the
    options lack the command, the command cannot start or runs past its timeout."""
    return f"""{PLUGIN_HEADER}
// It runs the org hook's command line (this plugin's options, in /etc/opencode/opencode.json)
// before every tool call and fails the call (throws) unless it exits 0.
import {{ spawnSync }} from "node:child_process";

export const AgentdeckOrg = async (ctx, options) => ({{
  "tool.execute.before": async (input, output) => {{
    const command = options?.command;
    if (typeof command !== "string" || !command) {{
      throw new Error("agentdeck org: the org hook's command is missing from the managed config: denied");
    }}
    const payload = JSON.stringify({{
      hook_event_name: {json.dumps(EVENT)},
      session_id: input?.sessionID ?? null,
      call_id: input?.callID ?? null,
      tool_name: input?.tool ?? null,
      tool_input: output?.args ?? {{}},
      cwd: ctx?.directory ?? process.cwd(),
      worktree: ctx?.worktree ?? null,
    }});
    const r = spawnSync("/bin/sh", ["-c", command], {{
      input: payload, encoding: "utf8", maxBuffer: 8 * 1024 * 1024,
      timeout: Number(options?.timeout_ms) > 0 ? Number(options.timeout_ms) : undefined,
    }});
    if (r.status === 0) return;
    const said = (r.stderr || "").trim() || (r.stdout || "").trim();
    if (r.status === null) {{
      throw new Error(`agentdeck org: the org hook could not decide (${{r.error ? r.error.message : r.signal}}): denied`);
    }}
    throw new Error(said || `agentdeck org: denied (the org hook exited ${{r.status}})`);
  }},
}});
"""


def _prefix(req: LayerRequest) -> Path:
    return Path(str(req.path)[: -len(FACTS.path)] or "/")


def extra_items(req: LayerRequest, view) -> list[Desired]:
    """The org plugin's file, beside the managed file."""
    return [Desired(SPEC.name, _prefix(req) / PLUGIN.lstrip("/"), "file", plugin_text(),
                    mode=req.mode, label="org plugin", group="hooks", own_source=True,
                    reason="agentdeck's org plugin: runs the org hook before each tool call "
                           "and fails the call unless it allows")]


def layer_notes(req: LayerRequest) -> list[str]:
    notes = [f"a user can still switch the org plugin off: {FACTS.limits[0]}; {FACTS.limits[1]}",
             FACTS.limits[2]]
    if req.managed_hooks_only:
        notes.append("managed_hooks_only: OpenCode has no such switch; the user's own plugins "
                     "still run (before the org plugin)")
    if req.no_bypass:
        notes.append("no_bypass: OpenCode has no bypass mode to refuse (--auto approves asks; "
                     "the org plugin runs under it)")
    if req.mcp_denied or req.mcp_allowed is not None:
        notes.append(FACTS.limits[-1])
    return notes


def _entry(doc: object) -> dict | None:
    """The managed file's entry for the org plugin ({} when it has no options), or None."""
    plugins = doc.get(OPENCODE.plugin_key) if isinstance(doc, dict) else None
    for p in plugins if isinstance(plugins, list) else []:
        if p == PLUGIN_SPEC:
            return {}
        if isinstance(p, list) and p and p[0] == PLUGIN_SPEC:
            return p[1] if len(p) > 1 and isinstance(p[1], dict) else {}
    return None


def layer_problems(text: str) -> list[OrgProblem]:
    from ...formats.errors import FormatError   # local: the doctor's row only, not the plan
    from ...formats.jsonc import JsonDoc        # local: as above

    try:
        doc = JsonDoc.parse(text, path=FACTS.path, jsonc=True).data
    except FormatError as e:
        return [OrgProblem(f"the managed config does not parse ({e}): OpenCode stops on it",
                           "as root: agentdeck org apply")]
    entry = _entry(doc)
    if entry is None:
        return [OrgProblem(f"the managed config does not name the org plugin ({PLUGIN_SPEC}) "
                           "under \"plugin\": it does not run", "as root: agentdeck org apply")]
    if not isinstance(entry.get("command"), str):
        return [OrgProblem("the org plugin's entry has no command: it denies every tool call",
                           "as root: agentdeck org apply")]
    return []


def undone(host, root: Path) -> list[OrgRow]:
    """What, for the user running the doctor, switches the org plugin off now: OPENCODE_PURE or
    OPENCODE_TEST_MANAGED_CONFIG_DIR in their environment (an error each; --pure, a flag of one
    run, is among the standing facts, FACTS.undone_by, in the doctor's ok line)."""
    from .health import pure                    # local: the doctor's row only, not the plan

    out: list[OrgRow] = []
    value = pure(host)
    if value is not None:
        out.append(OrgRow("error", f"{OPENCODE.pure_env}={value} is set: OpenCode {VERIFIED} "
                                   "loads no external plugin, the org plugin among them",
                          f"unset {OPENCODE.pure_env}"))
    moved = host.env.get(OPENCODE.managed_dir_env)
    if moved:
        out.append(OrgRow("error", f"{OPENCODE.managed_dir_env} is set ({moved}): OpenCode "
                                   f"{VERIFIED} reads its managed config from there instead of "
                                   f"{OPENCODE.managed_dir}, so the org plugin does not run",
                          f"unset {OPENCODE.managed_dir_env}"))
    return out


#: a user plugin that loads and does nothing, under the org plugin's file name
_SAME_NAME = "export const Mine = async () => ({});\n"
_OFF = json.dumps({OPENCODE.plugin_key: [], "permission": {"*": "allow"}})


def drill_attempts() -> OrgAttempts:
    """Only what holds (FACTS.attempts); --pure, OPENCODE_PURE and
    OPENCODE_TEST_MANAGED_CONFIG_DIR do not, and are limits instead. The npm stub keeps OpenCode
    from its start-up install in the scratch home (no attempt)."""
    stub = {rel: data.decode() for rel, data in npm_stub().items()}
    return OrgAttempts(
        files={**stub, OPENCODE.config_file: _OFF,
               f"{OPENCODE.plugins_dir}/{Path(PLUGIN).name}": _SAME_NAME},
        work_files={OPENCODE.config_file: _OFF},
        flags=(), env={OPENCODE.permission_env: json.dumps({"*": "allow"}),
                       "OPENCODE_DISABLE_DEFAULT_PLUGINS": "1"},
        words=("opencode.json \"plugin\": [] and \"permission\": {\"*\": \"allow\"}",
               "a user plugin named agentdeck-org.js",
               "a project opencode.json \"plugin\": []",
               f"{OPENCODE.permission_env} allowing every tool",
               "OPENCODE_DISABLE_DEFAULT_PLUGINS=1", "--auto"))

# No LIVE_PROBE: `opencode debug config` lists the merged plugin specs but says nothing of
# whether the plugin loaded.


TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover  (mypy checks this module against its part's interface)
    from ..parts.org import OrgPart
    from . import org as _this
    _conforms: OrgPart = _this
