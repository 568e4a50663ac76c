"""agentdeck's OpenCode plugin: the file the adapter writes to <home>/plugins/agentdeck.js
(docs/facts/opencode.md section 2).

OpenCode loads every *.js in that folder at start and awaits each plugin's
`tool.execute.before(input, output)` before a tool runs (built-in, MCP and the sub-agent `task`
tool alike), before its own permission check. The plugin runs agentdeck's wrapper for the
pre-tool event with the call on stdin, in the snake_case fields the handler reads (the dialect
part: core/targets/opencode/dialect.py), and throws unless the wrapper exits 0: OpenCode fails
the call with the thrown message as its result. A wrapper that cannot be started throws too (the
guard fails closed). A wrapper that answered is judged by its exit status and message even when
the runtime reports a failed write of the call to it (Node's spawnSync sets `error` to EPIPE when
the child exits without reading all of its stdin, as the wrapper's own fail-closed path does). Plain JavaScript with Node's child_process only: nothing to install.
"""
from __future__ import annotations

import json
from pathlib import Path

from .dialect import EVENT

#: the plugin's file, under the home's plugins folder (facts: OPENCODE.plugins_dir)
PLUGIN_NAME = "agentdeck.js"
#: what the plugin runs the wrapper with: the pre-tool event in the spelling the wrapper's own
#: fail-closed answer knows (core/targets/wrapper.py PRE_TOOL_SPELLINGS)
WRAPPER_EVENT = "pre_tool_use"
#: the first line: how agentdeck (and the doctor) knows the file for its own
HEADER = "// agentdeck guard for OpenCode: written by `agentdeck apply`, removed by `agentdeck uninstall`."


def render(wrapper: Path) -> str:
    """The plugin's text for the wrapper at `wrapper` (identical for identical inputs)."""
    w = json.dumps(str(wrapper))
    return f"""{HEADER}
// Edit the profile, not this file. It runs agentdeck's hook wrapper before every tool call and
// fails the call (throws) unless the wrapper exits 0.
import {{ spawnSync }} from "node:child_process";

const WRAPPER = {w};

export const AgentdeckGuard = async (ctx) => ({{
  "tool.execute.before": async (input, output) => {{
    const payload = JSON.stringify({{
      hook_event_name: {json.dumps(EVENT)},
      session_id: input?.sessionID ?? null,
      call_id: input?.callID ?? null,
      tool_name: input?.tool ?? null,
      tool_input: output?.args ?? {{}},
      cwd: ctx?.directory ?? process.cwd(),
      worktree: ctx?.worktree ?? null,
    }});
    const r = spawnSync(WRAPPER, [{json.dumps(WRAPPER_EVENT)}], {{
      input: payload, encoding: "utf8", maxBuffer: 8 * 1024 * 1024,
    }});
    // the wrapper ran when it has an exit status: its answer counts even when writing the call
    // to it failed (EPIPE: it answered without reading all of it, as its fail-closed path does)
    if (typeof r.status !== "number") {{
      throw new Error(`agentdeck: the guard could not run (${{r.error ? r.error.message : r.signal}}): denied`);
    }}
    if (r.status === 0) return;
    const said = (r.stderr || "").trim() || (r.stdout || "").trim();
    throw new Error(said || `agentdeck: denied (the guard exited ${{r.status}})`);
  }},
}});
"""
