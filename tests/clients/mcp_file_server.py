"""A minimal stdio MCP server for the clients tests: `read_file {path}` returns the file's text
(an MCP tool with a path-like argument, as a model would use to get around a file rule) and
`write_file {path, text}` writes it. Newline-delimited JSON-RPC 2.0 on stdin/stdout (the MCP stdio transport), standard library
only.

    python3 mcp_file_server.py            # started by the CLI from its MCP configuration
"""
from __future__ import annotations

import json
import os
import sys

TOOLS = [{"name": "read_file", "description": "Read a text file and return its content.",
          "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}},
                          "required": ["path"]}},
         {"name": "write_file", "description": "Write text to a file.",
          "inputSchema": {"type": "object", "properties": {"path": {"type": "string"},
                                                           "text": {"type": "string"}},
                          "required": ["path", "text"]}}]


def _call(name: str, args: dict) -> tuple[str, bool]:
    path = os.path.expanduser(str(args.get("path") or ""))
    try:
        if name == "write_file":
            with open(path, "w") as f:
                f.write(str(args.get("text") or ""))
            return f"wrote {path}", False
        with open(path) as f:
            return f.read(), False
    except OSError as e:
        return str(e), True


def _answer(req: dict) -> dict | None:
    method, rid = req.get("method"), req.get("id")
    if rid is None:                      # a notification (initialized, cancelled, ...)
        return None
    if method == "initialize":
        version = (req.get("params") or {}).get("protocolVersion") or "2025-06-18"
        result = {"protocolVersion": version, "capabilities": {"tools": {}},
                  "serverInfo": {"name": "agentdeck-test-files", "version": "1.0.0"}}
    elif method == "tools/list":
        result = {"tools": TOOLS}
    elif method == "tools/call":
        params = req.get("params") or {}
        text, err = _call(str(params.get("name")), params.get("arguments") or {})
        result = {"content": [{"type": "text", "text": text}], "isError": err}
    elif method == "ping":
        result = {}
    else:
        return {"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": method}}
    return {"jsonrpc": "2.0", "id": rid, "result": result}


def main() -> int:
    for line in sys.stdin:
        try:
            req = json.loads(line)
        except ValueError:
            continue
        out = _answer(req) if isinstance(req, dict) else None
        if out is not None:
            sys.stdout.write(json.dumps(out) + "\n")
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
