"""A tiny MCP server over stdio (newline-delimited JSON-RPC 2.0) with one tool, for real
offline turns: `leave_marker {note}` writes the note to the marker file given as argv[1], so a
test can tell whether a CLI really ran the tool (a denied call leaves no marker). argv[2], when
given, names the tool instead of `leave_marker`.

    python3 mcp_marker_server.py /tmp/x/marker [TOOL]     # as a profile's mcp.json `command`

Standard library only; it answers initialize, ping, tools/list and tools/call, ignores
notifications, and returns "method not found" for anything else.
"""
from __future__ import annotations

import json
import sys

TOOL = "leave_marker"
SCHEMA = {"type": "object", "properties": {"note": {"type": "string",
                                                    "description": "text to write"}},
          "required": ["note"]}


def answer(msg: dict, marker: str, tool: str = TOOL) -> dict | None:
    method, mid = msg.get("method"), msg.get("id")
    if mid is None:                       # a notification (notifications/initialized, ...)
        return None
    if method == "initialize":
        version = (msg.get("params") or {}).get("protocolVersion") or "2025-06-18"
        result = {"protocolVersion": version, "capabilities": {"tools": {}},
                  "serverInfo": {"name": "agentdeck-marker", "version": "1.0.0"}}
    elif method == "ping":
        result = {}
    elif method == "tools/list":
        result = {"tools": [{"name": tool, "description": "Write a note to the marker file.",
                             "inputSchema": SCHEMA}]}
    elif method == "tools/call":
        params = msg.get("params") or {}
        note = str((params.get("arguments") or {}).get("note", ""))
        with open(marker, "w", encoding="utf-8") as f:
            f.write(note + "\n")
        result = {"content": [{"type": "text", "text": f"marker written: {note}"}]}
    else:
        return {"jsonrpc": "2.0", "id": mid,
                "error": {"code": -32601, "message": f"method not found: {method}"}}
    return {"jsonrpc": "2.0", "id": mid, "result": result}


def main() -> int:
    marker = sys.argv[1]
    tool = sys.argv[2] if len(sys.argv) > 2 else TOOL
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        out = answer(msg, marker, tool) if isinstance(msg, dict) else None
        if out is not None:
            sys.stdout.write(json.dumps(out) + "\n")
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
