"""agentdeck's scripted model server: a local stand-in for a model API, so a real CLI runs a
complete agent turn offline and really fires its hooks.

It listens on 127.0.0.1 (an ephemeral port) and speaks, streamed (server-sent events), the three
wire formats the CLIs send (docs/facts/<cli>.md "A real turn offline"):

    POST /v1/chat/completions   OpenAI Chat Completions   Copilot CLI (default)
    POST /v1/responses          OpenAI Responses          Codex CLI, Copilot with wire_api=responses
    POST /v1/messages           Anthropic Messages        Claude Code, Copilot with provider anthropic
    POST /v1beta/models/<m>:streamGenerateContent?alt=sse
                                the Gemini API (genai)    Gemini CLI; its side calls
                                (`:generateContent`, the model router) get JSON shaped by the
                                request's response schema

The script is a list of shell commands. Each request is answered by where the conversation is:
with N tool results in it so far, the model calls command N with the CLI's own shell tool (found
by name in the request's tool list); once every command has a result, it answers with a final
text. A request that carries no tools (a title or summary request) gets plain text. Standard
library only (http.server + a thread).
"""
from __future__ import annotations

import json
import re
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

#: the shell tool's name and argument per wire dialect, most likely first
SHELL_TOOLS = (("bash", "command"), ("Bash", "command"), ("exec_command", "cmd"),
               ("shell", "command"), ("powershell", "command"))
FINAL_TEXT = "agentdeck drill: done."


@dataclass
class Script:
    commands: list[str]
    final_text: str = FINAL_TEXT
    #: the CLI's own shell tool (name, argument), from its drill part; tried before SHELL_TOOLS
    shell_tools: tuple[tuple[str, str], ...] = ()
    #: what the server saw: one dict per request (path, wire, stage, tool it called)
    seen: list[dict] = field(default_factory=list)
    #: every tool name a request offered the model (offered_names, deferred_names)
    offered: set[str] = field(default_factory=set)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def step(self, results: int, has_tools: bool) -> int | None:
        """The index of the command to call now, or None for the final text."""
        if not has_tools or results >= len(self.commands):
            return None
        return results


# ---- reading a request --------------------------------------------------------------------------

def _tool_names(tools: Any) -> list[str]:
    out = []
    for t in tools if isinstance(tools, list) else []:
        if not isinstance(t, dict):
            continue
        if isinstance(t.get("functionDeclarations"), list):     # the Gemini API
            out += [f["name"] for f in t["functionDeclarations"]
                    if isinstance(f, dict) and isinstance(f.get("name"), str)]
            continue
        fn = t.get("function") if isinstance(t.get("function"), dict) else None
        name = (fn or {}).get("name") or t.get("name")
        if isinstance(name, str):
            out.append(name)
    return out


def offered_names(tools: Any) -> list[str]:
    """Every tool name a request offers: its tools' names, and the tools of a Responses
    namespace (Codex): an MCP server's as the hook spells them (mcp__<server>__<tool>),
    another namespace's (multi_agent_v1) by their own names."""
    out = _tool_names(tools)
    for t in tools if isinstance(tools, list) else []:
        if isinstance(t, dict) and t.get("type") == "namespace" and isinstance(t.get("name"), str):
            ns = t["name"]
            for x in t.get("tools") or []:
                if isinstance(x, dict) and isinstance(x.get("name"), str):
                    out.append(f"{ns}__{x['name']}" if ns.startswith("mcp__") else x["name"])
    return out


#: how a CLI lists the tools it defers (offered by name; their schemas come on request) in its
#: prompt: Claude Code 2.1.332 ("The following deferred tools are now available via ToolSearch.
#: ...:" then one name a line), Qwen Code 0.24.4 ("... reachable through `tool_search` and
#: `tool_call` ..." then `- "name": "description"` lines, to the end of the reminder)
_DEFERRED_LINES = r"deferred tools are now available via ToolSearch[^\n]*\n((?:[A-Za-z0-9_.-]+\n)+)"
_DEFERRED_BLOCK = r"reachable through `tool_search` and `tool_call`(.*?)(?:</system-reminder>|\Z)"
_DEFERRED_ITEM = r'^- "([A-Za-z0-9_.-]+)": '


def _texts(value: Any, depth: int = 0):
    """Every string of a request body but its tool list's (the prompt, the messages)."""
    if depth > 12:
        return
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for v in value:
            yield from _texts(v, depth + 1)
    elif isinstance(value, dict):
        for k, v in value.items():
            if k != "tools":
                yield from _texts(v, depth + 1)


def deferred_names(body: Any) -> list[str]:
    """The tool names a request's prompt lists as deferred (reachable by name through the CLI's
    tool search: offered too, though not in `tools`)."""
    out: list[str] = []
    for text in _texts(body):
        if "deferred tools" not in text and "reachable through" not in text:
            continue
        for m in re.finditer(_DEFERRED_LINES, text):
            out += m.group(1).split()
        for m in re.finditer(_DEFERRED_BLOCK, text, re.S):
            out += re.findall(_DEFERRED_ITEM, m.group(1), re.M)
    return list(dict.fromkeys(out))


def shell_tool(names: list[str], own: tuple[tuple[str, str], ...] = ()) -> tuple[str, str] | None:
    for name, arg in (*own, *SHELL_TOOLS):
        if name in names:
            return name, arg
    return None


def tool_results(wire: str, body: dict) -> int:
    """How many tool results the conversation carries so far."""
    if wire == "chat":
        return sum(1 for m in body.get("messages") or [] if isinstance(m, dict)
                   and m.get("role") == "tool")
    if wire == "responses":
        return sum(1 for it in body.get("input") or [] if isinstance(it, dict)
                   and str(it.get("type", "")).endswith("call_output"))
    if wire == "genai":
        return sum(1 for c in body.get("contents") or [] if isinstance(c, dict)
                   for p in c.get("parts") or []
                   if isinstance(p, dict) and isinstance(p.get("functionResponse"), dict))
    n = 0
    for m in body.get("messages") or []:
        if isinstance(m, dict) and isinstance(m.get("content"), list):
            n += sum(1 for b in m["content"] if isinstance(b, dict) and b.get("type") == "tool_result")
    return n


# ---- writing a streamed answer ------------------------------------------------------------------

def _mapping(value: Any) -> dict:
    return value if isinstance(value, dict) else {}


def _sse(events: list[tuple[str | None, dict | str]]) -> bytes:
    out = []
    for name, data in events:
        payload = data if isinstance(data, str) else json.dumps(data, separators=(",", ":"))
        out.append((f"event: {name}\n" if name else "") + f"data: {payload}\n\n")
    return "".join(out).encode()


def chat_stream(model: str, call: tuple[str, str, str] | None, text: str, n: int) -> bytes:
    base = {"id": f"chatcmpl-drill{n}", "object": "chat.completion.chunk",
            "created": int(time.time()), "model": model}

    def chunk(delta: dict, finish: str | None = None) -> tuple[str | None, dict | str]:
        return None, {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}

    ev: list[tuple[str | None, dict | str]] = [chunk({"role": "assistant", "content": ""})]
    if call:
        name, arg, cmd = call
        ev.append(chunk({"tool_calls": [{"index": 0, "id": f"call_drill{n}", "type": "function",
                                          "function": {"name": name, "arguments": json.dumps(
                                              _args(name, arg, cmd))}}]}))
        ev.append(chunk({}, "tool_calls"))
    else:
        ev.append(chunk({"content": text}))
        ev.append(chunk({}, "stop"))
    ev.append((None, {**base, "choices": [], "usage": {"prompt_tokens": 10, "completion_tokens": 5,
                                                        "total_tokens": 15}}))
    ev.append((None, "[DONE]"))
    return _sse(ev)


def responses_stream(model: str, call: tuple[str, str, str] | None, text: str, n: int) -> bytes:
    rid = f"resp_drill{n}"
    if call:
        name, arg, cmd = call
        item: dict[str, Any] = {"type": "function_call", "id": f"fc_drill{n}", "call_id": f"call_drill{n}",
                "name": name, "arguments": json.dumps(_args(name, arg, cmd)), "status": "completed"}
    else:
        item = {"type": "message", "id": f"msg_drill{n}", "role": "assistant", "status": "completed",
                "content": [{"type": "output_text", "text": text, "annotations": []}]}
    resp: dict[str, Any] = {"id": rid, "object": "response", "created_at": int(time.time()),
                            "model": model, "status": "in_progress", "output": []}
    ev: list[tuple[str | None, dict | str]] = [
        ("response.created", {"type": "response.created", "response": resp}),
        ("response.output_item.added", {"type": "response.output_item.added", "output_index": 0,
                                        "item": {**item, "status": "in_progress"}})]
    if not call:
        ev.append(("response.output_text.delta", {"type": "response.output_text.delta",
                                                  "item_id": item["id"], "output_index": 0,
                                                  "content_index": 0, "delta": text}))
    ev.append(("response.output_item.done", {"type": "response.output_item.done",
                                             "output_index": 0, "item": item}))
    ev.append(("response.completed", {"type": "response.completed", "response": {
        **resp, "status": "completed", "output": [item],
        "usage": {"input_tokens": 10, "input_tokens_details": {"cached_tokens": 0},
                  "output_tokens": 5, "output_tokens_details": {"reasoning_tokens": 0},
                  "total_tokens": 15}}}))
    return _sse(ev)


def messages_stream(model: str, call: tuple[str, str, str] | None, text: str, n: int) -> bytes:
    msg: dict[str, Any] = {"id": f"msg_drill{n}", "type": "message", "role": "assistant", "model": model,
           "content": [], "stop_reason": None, "stop_sequence": None,
           "usage": {"input_tokens": 10, "output_tokens": 1}}
    ev: list[tuple[str | None, dict | str]] = [("message_start", {"type": "message_start",
                                                                  "message": msg})]
    if call:
        name, arg, cmd = call
        ev += [("content_block_start", {"type": "content_block_start", "index": 0,
                                        "content_block": {"type": "tool_use", "id": f"toolu_drill{n}",
                                                          "name": name, "input": {}}}),
               ("content_block_delta", {"type": "content_block_delta", "index": 0,
                                        "delta": {"type": "input_json_delta",
                                                  "partial_json": json.dumps(_args(name, arg, cmd))}})]
        stop = "tool_use"
    else:
        ev += [("content_block_start", {"type": "content_block_start", "index": 0,
                                        "content_block": {"type": "text", "text": ""}}),
               ("content_block_delta", {"type": "content_block_delta", "index": 0,
                                        "delta": {"type": "text_delta", "text": text}})]
        stop = "end_turn"
    ev += [("content_block_stop", {"type": "content_block_stop", "index": 0}),
           ("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop,
                                                                 "stop_sequence": None},
                              "usage": {"output_tokens": 5}}),
           ("message_stop", {"type": "message_stop"})]
    return _sse(ev)


def genai_stream(model: str, call: tuple[str, str, str] | None, text: str, n: int) -> bytes:
    part = ({"functionCall": {"name": call[0], "args": _args(*call)}} if call
            else {"text": text})
    return _sse([(None, {"candidates": [{"content": {"role": "model", "parts": [part]},
                                         "finishReason": "STOP", "index": 0}],
                         "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5,
                                           "totalTokenCount": 15},
                         "modelVersion": model})])


#: a range a description states in words: "from 1-100", "between 0.0 and 1.0", "1 to 10"
_RANGE = re.compile(r"(-?\d+(?:\.\d+)?)\s*(?:-|\u2013|to|and)\s*(-?\d+(?:\.\d+)?)")


def _num(v: Any) -> float | None:
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def number_value(schema: dict, integer: bool = False) -> int | float:
    """The lowest value inside a number schema's bounds, else 0 where 0 is inside them: the
    minimum; above an exclusiveMinimum (the next integer, or between it and the upper bound);
    0 under a maximum or exclusiveMaximum that allows it, else just under. A schema with no
    bounds but a range in its description ("Complexity score from 1-100": Gemini CLI's router
    states it only there and rejects a score under 1) answers that range's lower end. 0 is
    the default because Gemini CLI's loop check reads unproductive_state_confidence ("between
    0.0 and 1.0") and 0 lets the turn go on."""
    lo, hi = _num(schema.get("minimum")), _num(schema.get("maximum"))
    xlo, xhi = _num(schema.get("exclusiveMinimum")), _num(schema.get("exclusiveMaximum"))
    if schema.get("exclusiveMinimum") is True:      # draft 4: a flag on minimum
        lo, xlo = None, lo
    if schema.get("exclusiveMaximum") is True:
        hi, xhi = None, hi
    if lo is None and xlo is None and hi is None and xhi is None:
        m = _RANGE.search(str(schema.get("description") or ""))
        if m and float(m.group(1)) <= float(m.group(2)):
            lo, hi = float(m.group(1)), float(m.group(2))
    top = min((b for b in (hi, xhi) if b is not None), default=None)
    if lo is not None and (xlo is None or lo > xlo):
        v = lo
    elif xlo is not None:
        v = (xlo // 1 + 1 if integer else
             xlo + 1 if top is None or xlo + 1 < top else (xlo + top) / 2)
    else:
        v = 0.0
        if hi is not None and v > hi:
            v = hi
        if xhi is not None and v >= xhi:
            v = -(-xhi // 1) - 1 if integer else xhi - 1
    if integer:
        v = -(-v // 1)     # the least integer not below it (a bound of 0.5: 1)
    return int(v) if integer or v == int(v) else v


def schema_value(schema: Any, depth: int = 0) -> Any:
    """A value of a JSON schema (an OpenAPI-style one's upper-case types too): every property
    filled, an enum's first value, a number inside its bounds (number_value)."""
    if not isinstance(schema, dict):
        return "drill"
    t = str(schema.get("type") or "").lower()
    if schema.get("enum"):
        return schema["enum"][0]
    if t == "object" or "properties" in schema:
        props = _mapping(schema.get("properties"))
        return {k: schema_value(v, depth + 1) for k, v in props.items()} if depth < 8 else {}
    if t == "array":
        return []
    if t in ("integer", "number"):
        return number_value(schema, integer=t == "integer")
    if t == "boolean":
        return False
    return "drill"


def genai_side(body: dict) -> bytes:
    """A Gemini generateContent answer (Gemini CLI's side calls: its model router asks for JSON
    {complexity_reasoning, complexity_score} and retries for about 90 s on anything else):
    JSON shaped by the request's response schema, else a plain text."""
    cfg = _mapping(body.get("generationConfig"))
    schema = cfg.get("responseJsonSchema") or cfg.get("responseSchema")
    text = json.dumps(schema_value(schema)) if schema else FINAL_TEXT
    return json.dumps({"candidates": [{"content": {"role": "model", "parts": [{"text": text}]},
                                       "finishReason": "STOP", "index": 0}],
                       "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5,
                                         "totalTokenCount": 15}}).encode()


def _args(name: str, arg: str, cmd: str) -> dict:
    args: dict[str, Any] = {arg: cmd}
    if name in ("bash", "Bash"):
        args["description"] = "agentdeck drill"
    return args


STREAMS = {"chat": chat_stream, "responses": responses_stream, "messages": messages_stream,
           "genai": genai_stream}


def wire_of(path: str) -> str | None:
    p = path.split("?", 1)[0].rstrip("/")
    if p.endswith(":streamGenerateContent"):
        return "genai"
    if p.endswith("/chat/completions"):
        return "chat"
    if p.endswith("/responses"):
        return "responses"
    if p.endswith("/messages"):
        return "messages"
    return None


class _Handler(BaseHTTPRequestHandler):
    server_version = "agentdeck-drill/1"
    protocol_version = "HTTP/1.1"

    def log_message(self, *a) -> None:        # quiet: the drill reports what it needs
        pass

    def _send(self, code: int, body: bytes, ctype: str) -> None:
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:  # noqa: N802 - http.server's naming
        script: Script = self.server.script    # type: ignore[attr-defined]
        with script.lock:
            script.seen.append({"method": "GET", "path": self.path})
        if self.path.split("?")[0].rstrip("/").endswith("/models"):
            body = {"object": "list", "data": [{"id": m, "object": "model", "owned_by": "drill"}
                                               for m in ("gpt-5.4", "claude-sonnet-5-5")]}
            self._send(200, json.dumps(body).encode(), "application/json")
            return
        self._send(404, b'{"error": {"message": "not scripted"}}', "application/json")

    def do_POST(self) -> None:  # noqa: N802
        script: Script = self.server.script    # type: ignore[attr-defined]
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = {}
        wire = wire_of(self.path)
        if self.path.split("?", 1)[0].endswith(":generateContent") and isinstance(body, dict):
            with script.lock:
                script.seen.append({"method": "POST", "path": self.path, "wire": "genai-side"})
            self._send(200, genai_side(body), "application/json")
            return
        if wire is None or not isinstance(body, dict):
            with script.lock:
                script.seen.append({"method": "POST", "path": self.path, "wire": None})
            self._send(404, b'{"error": {"message": "not scripted"}}', "application/json")
            return
        names = _tool_names(body.get("tools"))
        tool = shell_tool(names, script.shell_tools)
        results = tool_results(wire, body)
        with script.lock:
            script.offered.update(offered_names(body.get("tools")))
            script.offered.update(deferred_names(body))
            n = len(script.seen)
            idx = script.step(results, tool is not None)
            call = (tool[0], tool[1], script.commands[idx]) if idx is not None and tool else None
            script.seen.append({"method": "POST", "path": self.path, "wire": wire,
                                "results": results, "tool": call[0] if call else None,
                                "command": idx, "tools_offered": len(names)})
        model = str(body.get("model") or "gpt-5.4")
        if wire == "genai":      # the model is in the path: /v1beta/models/<m>:stream...
            model = self.path.split("?", 1)[0].rsplit("/", 1)[-1].split(":", 1)[0]
        data = STREAMS[wire](model, call, script.final_text, n)
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


class ScriptedServer:
    """`with ScriptedServer(script) as srv: srv.port` -- serving in a thread until the block ends."""

    def __init__(self, script: Script, host: str = "127.0.0.1", port: int = 0) -> None:
        self.script = script
        self.httpd = ThreadingHTTPServer((host, port), _Handler)
        self.httpd.daemon_threads = True
        self.httpd.script = script          # type: ignore[attr-defined]
        # polled every 50 ms: the default 0.5 s is how long shutdown() may wait, once per turn
        self.thread = threading.Thread(target=self.httpd.serve_forever, name="drill-model",
                                       kwargs={"poll_interval": 0.05}, daemon=True)

    @property
    def port(self) -> int:
        return self.httpd.server_address[1]

    def __enter__(self) -> "ScriptedServer":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
