"""Agents (Copilot only, docs/facts/copilot.md section 10): a profile's Claude-style agent file
as a Copilot `agents/<name>.md`. The frontmatter is translated to Copilot's vocabulary -- Claude
tool names mapped (TOOL_MAP), scoped grants such as `Bash(git diff*)` reduced to the bare tool,
Claude model aliases dropped, a description synthesized when missing; bodies over 30,000
characters cut at a paragraph boundary with a marker.
"""
from __future__ import annotations

import re

from ..skills import (DESCRIPTION_MAX, Translated, clip, first_line, parse_frontmatter,
                      safe_name, split_list, yaml_str)

AGENT_BODY_MAX = 30_000
TRUNCATION_MARKER = "\n\n[... truncated by agentdeck: the agent body was over 30,000 characters ...]\n"

#: Claude tool name -> Copilot agent grant name (docs/facts/copilot.md section 10). `shell` is
#: the grant name; the hook boundary reports the same tool as `bash`.
TOOL_MAP = {
    "read": "view", "write": "create", "edit": "edit", "multiedit": "edit", "bash": "shell",
    "grep": "grep", "glob": "glob", "webfetch": "web_fetch", "websearch": "web_search",
    "agent": "task", "task": "task", "todowrite": "update_todo", "askuserquestion": "ask_user",
}
#: Claude model aliases: not Copilot model ids (Copilot warns on every invocation, then uses auto)
CLAUDE_MODEL_ALIASES = {"haiku", "sonnet", "opus", "opusplan", "inherit", "default", "sonnet[1m]"}


def map_tool(tool: str) -> str | None:
    """`Bash(git diff*)` -> `shell`; unknown names pass through (MCP tools, Copilot names)."""
    bare = re.sub(r"\(.*\)\s*$", "", tool.strip()).strip()
    if not bare:
        return None
    return TOOL_MAP.get(bare.lower(), bare)


def truncate_body(body: str, limit: int = AGENT_BODY_MAX) -> tuple[str, bool]:
    if len(body) <= limit:
        return body, False
    room = limit - len(TRUNCATION_MARKER)
    cut = body.rfind("\n\n", 0, room)
    if cut <= 0:
        cut = body.rfind("\n", 0, room)
    if cut <= 0:
        cut = room
    return body[:cut].rstrip() + TRUNCATION_MARKER, True


def translate(name: str, text: str) -> Translated:
    """A Claude-style agent file as a Copilot `agents/<name>.md`."""
    safe_name(name, "agent name")
    doc = parse_frontmatter(text)
    warnings: list[str] = []
    meta = doc.meta
    out_meta: list[tuple[str, str]] = [("name", yaml_str(str(meta.get("name") or name)))]
    desc = meta.get("description")
    if not isinstance(desc, str) or not desc.strip():
        desc = first_line(doc.body) or f"The {name} agent."
        warnings.append(f"agent {name} has no description (Copilot requires one); synthesized "
                        f"from its first line")
    out_meta.append(("description", yaml_str(clip(desc, DESCRIPTION_MAX))))
    tools = meta.get("tools")
    if tools is not None:
        raw = tools if isinstance(tools, list) else split_list(str(tools))
        mapped: list[str] = []
        for t in raw:
            m = map_tool(str(t))
            if m and m not in mapped:
                mapped.append(m)
            if "(" in str(t):
                warnings.append(f"agent {name}: scoped grant {str(t).strip()!r} reduced to "
                                f"{m!r} (Copilot grants have no scope)")
        out_meta.append(("tools", "[" + ", ".join(yaml_str(t) for t in mapped) + "]"))
    model = meta.get("model")
    if isinstance(model, str) and model.strip():
        if model.strip().lower() in CLAUDE_MODEL_ALIASES:
            warnings.append(f"agent {name}: Claude model alias {model.strip()!r} dropped (not a "
                            "Copilot model id; Copilot picks its model)")
        else:
            out_meta.append(("model", yaml_str(model.strip())))
    body, cut = truncate_body(doc.body.lstrip("\n"))
    if cut:
        warnings.append(f"agent {name}: body over {AGENT_BODY_MAX:,} characters, cut at a "
                        "paragraph boundary")
    if not body.endswith("\n"):
        body += "\n"
    head = "".join(f"{k}: {v}\n" for k, v in out_meta)
    return Translated(f"---\n{head}---\n{body}", warnings)
