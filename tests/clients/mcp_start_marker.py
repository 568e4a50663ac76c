#!/usr/bin/env python3
"""A stdio MCP server for the clients tests: it appends "started" to the marker file (argv[1])
the moment a CLI starts it, and "called" when its one tool, probe_tool, is called. So a test
can tell a server that was never started from one that was started, and from one whose tool ran.
Newline-delimited JSON-RPC on stdin/stdout (MCP's stdio transport)."""
import json
import sys

marker = sys.argv[1]
with open(marker, "a") as f:
    f.write("started\n")
for line in sys.stdin:
    try:
        msg = json.loads(line)
    except ValueError:
        continue
    method, mid = msg.get("method"), msg.get("id")
    if method == "initialize":
        result = {"protocolVersion": (msg.get("params") or {}).get("protocolVersion", "2024-11-05"),
                  "capabilities": {"tools": {}}, "serverInfo": {"name": "probe", "version": "1"}}
    elif method == "tools/list":
        result = {"tools": [{"name": "probe_tool", "description": "writes a marker",
                             "inputSchema": {"type": "object", "properties": {}}}]}
    elif method == "tools/call":
        with open(marker, "a") as f:
            f.write("called\n")
        result = {"content": [{"type": "text", "text": "probed"}]}
    elif mid is None:
        continue
    else:
        result = {}
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": mid, "result": result}) + "\n")
    sys.stdout.flush()
