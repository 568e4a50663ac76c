"""A scripted model server on 127.0.0.1 for real offline turns of the three CLIs (docs/facts/,
"Running a real turn offline"): the first request that offers a shell tool is answered with
one call of it running `command`; a request that carries the tool's result is answered with a
final text. Wire formats: OpenAI Chat Completions (Copilot), OpenAI Responses (Codex), Anthropic
Messages (Claude Code), all streamed as server-sent events, and the Gemini API (Gemini CLI:
`/v1beta/models/<m>:streamGenerateContent?alt=sse`, and `:generateContent` for its side calls,
which are answered with JSON shaped by the request's response schema and kept in
`m.side_requests`, not `m.requests`).

    with ScriptedModel(command="touch /tmp/x") as m:
        env["ANTHROPIC_BASE_URL"] = m.url ...

    ScriptedModel(command="", call=("Read", {"file_path": "/x"}))   # that tool instead, when offered
    ScriptedModel(command="", calls=["ls", ("view", {"path": "/x"})])  # a sequence in one turn:
        # the request carrying N tool results gets calls[N] (a str: the shell tool running it);
        # a freeform tool (Copilot's apply_patch) takes {"input": text}, a Codex MCP tool of a
        # namespace is named mcp__<server>__<tool>; a name starting with "!" is called as it is
        # (without the "!") even when no request offered it (a name a model makes up); a
        # callable step is called with the request and returns the step (an id from a result)
        # or None (the final text)

Test-only (the drill has its own server in core/drill); every request is kept in `m.requests`.
"""
from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

SHELL_NAMES = ("bash", "Bash", "exec_command", "shell", "run_in_terminal", "powershell",
               "run_shell_command")   # Qwen Code, Gemini CLI


def gemini_tools(tools) -> list[dict]:
    """A Gemini request's tools ([{functionDeclarations: [...]}]) as a flat list of
    {name, parameters} (its JSON schema; an OpenAPI-style schema's types lower-cased)."""
    out = []
    for t in tools if isinstance(tools, list) else []:
        for fd in (t.get("functionDeclarations") or []) if isinstance(t, dict) else []:
            if isinstance(fd, dict) and fd.get("name"):
                schema = fd.get("parametersJsonSchema") or fd.get("parameters") or {}
                out.append({"name": fd["name"], "parameters": _lower_types(schema)})
    return out


def _lower_types(schema):
    if isinstance(schema, dict):
        return {k: (v.lower() if k == "type" and isinstance(v, str) else _lower_types(v))
                for k, v in schema.items()}
    if isinstance(schema, list):
        return [_lower_types(v) for v in schema]
    return schema


def schema_value(schema: dict, depth: int = 0):
    """A value of a JSON schema (a Gemini side call's responseJsonSchema): every property
    filled, the first enum value, a number's minimum."""
    schema = _lower_types(schema or {})
    t = schema.get("type")
    if schema.get("enum"):
        return schema["enum"][0]
    if t == "object" or "properties" in schema:
        return {k: schema_value(v, depth + 1)
                for k, v in (schema.get("properties") or {}).items()} if depth < 8 else {}
    if t == "array":
        return []
    if t in ("integer", "number"):
        return schema.get("minimum", 0)
    if t == "boolean":
        return False
    return "scripted"


def _sse_data(payloads: list[dict]) -> bytes:
    return "".join(f"data: {json.dumps(p)}\r\n\r\n" for p in payloads).encode()


def _sse(events: list[tuple[str | None, dict | str]]) -> bytes:
    out = []
    for name, data in events:
        if name:
            out.append(f"event: {name}\n")
        out.append(f"data: {data if isinstance(data, str) else json.dumps(data)}\n\n")
    return "".join(out).encode()


def _fill(schema: dict, command: str) -> dict:
    """Arguments for a shell tool from its JSON schema: the command, and a plain value for each
    other required property."""
    props = (schema or {}).get("properties") or {}
    args: dict = {}
    for key in props:
        if key in ("command", "cmd"):
            args[key] = command if props[key].get("type") != "array" else ["bash", "-lc", command]
    for key in (schema or {}).get("required") or []:
        if key in args:
            continue
        p = props.get(key) or {}
        if p.get("enum"):
            args[key] = "sync" if "sync" in p["enum"] else p["enum"][0]
        elif p.get("type") in ("integer", "number"):
            args[key] = 30
        elif p.get("type") == "boolean":
            args[key] = False
        elif p.get("type") == "array":
            args[key] = []
        else:
            args[key] = "run the scripted command"
    if not args:
        args = {"command": command}
    return args


class ScriptedModel:
    def __init__(self, command: str, final_text: str = "done",
                 call: tuple[str, dict] | None = None,
                 calls: list[str | tuple[str, dict]] | None = None):
        self.command, self.final_text, self.call = command, final_text, call
        self.calls = calls
        self.requests: list[tuple[str, dict]] = []
        #: Gemini CLI's side calls (generateContent: the model router), apart from the turn's
        self.side_requests: list[tuple[str, dict]] = []
        self._server: ThreadingHTTPServer | None = None

    # ---- decisions -------------------------------------------------------------------------
    def offered(self) -> set[str]:
        """Every tool name any request offered; a Codex namespace's tools too (an MCP server's
        as mcp__<server>__<tool>, the hook's spelling; another namespace's by their names)."""
        out = set()
        for _, body in self.requests:
            for t in self.tools_of(body):
                fn = t.get("function") if isinstance(t, dict) and isinstance(t.get("function"), dict) else t
                if isinstance(fn, dict) and fn.get("name"):
                    out.add(fn["name"])
                if isinstance(t, dict) and t.get("type") == "namespace" and isinstance(t.get("name"), str):
                    ns = t["name"]
                    for x in t.get("tools") or []:
                        if isinstance(x, dict) and isinstance(x.get("name"), str):
                            out.add(f"{ns}__{x['name']}" if ns.startswith("mcp__") else x["name"])
        return out

    @staticmethod
    def tools_of(body: dict) -> list:
        """A request's tool list; a Gemini request's function declarations flattened."""
        tools = body.get("tools") or []
        if any(isinstance(t, dict) and "functionDeclarations" in t for t in tools):
            return gemini_tools(tools)
        return tools

    def _shell_tool(self, tools: list) -> tuple[str, dict] | None:
        if self.call is not None and self.call[0].startswith("!"):
            return self.call[0][1:], self.call[1]
        if self.call is not None:
            offered = {(t.get("function") if isinstance(t.get("function"), dict)
                        else t.get("custom") if isinstance(t.get("custom"), dict) else t).get("name")
                       for t in tools or [] if isinstance(t, dict)}
            for t in tools or []:         # Codex 0.171 offers MCP tools as a namespace of them
                if isinstance(t, dict) and t.get("type") == "namespace":
                    offered |= {f"{t.get('name')}__{x.get('name')}" for x in t.get("tools") or []
                                if isinstance(x, dict)}
            return self.call if self.call[0] in offered else None
        for t in tools or []:
            if not isinstance(t, dict):
                continue
            fn = t.get("function") if isinstance(t.get("function"), dict) else t
            name = fn.get("name")
            if name in SHELL_NAMES:
                schema = fn.get("parameters") or fn.get("input_schema") or {}
                return name, _fill(schema, self.command)
        return None

    @staticmethod
    def _has_result(body: dict) -> bool:
        text = json.dumps(body.get("messages") or body.get("input") or body.get("contents") or [])
        return any(k in text for k in ('"tool_result"', '"role": "tool"', '"function_call_output"',
                                       '"functionResponse"'))

    @staticmethod
    def _gemini_results(body: dict) -> list[dict]:
        """A Gemini request's functionResponse parts, in order."""
        return [p["functionResponse"] for c in body.get("contents") or [] if isinstance(c, dict)
                for p in c.get("parts") or []
                if isinstance(p, dict) and isinstance(p.get("functionResponse"), dict)]

    @staticmethod
    def _results_in(body: dict) -> int:
        if "contents" in body:
            return len(ScriptedModel._gemini_results(body))
        n = 0
        for m in body.get("messages") or body.get("input") or []:
            if not isinstance(m, dict):
                continue
            if m.get("role") == "tool" or m.get("type") == "function_call_output":
                n += 1
            n += sum(1 for c in (m.get("content") if isinstance(m.get("content"), list) else [])
                     if isinstance(c, dict) and c.get("type") == "tool_result")
        return n

    def _pick(self, body: dict) -> tuple[str, dict] | None:
        """The tool call answering `body`, or None for the final text."""
        if self.calls is None:
            return None if self._has_result(body) else self._shell_tool(self.tools_of(body))
        n = self._results_in(body)
        if n >= len(self.calls):
            return None
        step = self.calls[n]
        if callable(step):                # made from the request (an earlier result's id)
            step = step(body)
            if step is None:              # the final text
                return None
        if isinstance(step, str):
            return ScriptedModel(command=step)._shell_tool(self.tools_of(body))
        return ScriptedModel(command="", call=step)._shell_tool(self.tools_of(body))

    def tool_results(self) -> list[str]:
        """The text of every tool result the CLI sent back (the last request's, in order)."""
        if not self.requests:
            return []
        return self.results_of(self.requests[-1][1])

    @staticmethod
    def results_of(body: dict) -> list[str]:
        """The text of every tool result one request carries, in order."""
        if "contents" in body:
            return [json.dumps(r.get("response")) for r in ScriptedModel._gemini_results(body)]
        out = []
        for m in body.get("messages") or body.get("input") or []:
            if not isinstance(m, dict):
                continue
            if m.get("role") == "tool" or m.get("type") == "function_call_output":
                out.append(json.dumps(m.get("content", m.get("output"))))
            for c in m.get("content") if isinstance(m.get("content"), list) else []:
                if isinstance(c, dict) and c.get("type") == "tool_result":
                    out.append(json.dumps(c.get("content")))
        return out

    # ---- wire formats -------------------------------------------------------------------------
    def chat(self, body: dict) -> bytes:
        base = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 0,
                "model": body.get("model", "gpt-5.4")}
        tool, k = self._pick(body), self._results_in(body) + 1
        usage = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
        if tool:
            name, args = tool
            call = {"index": 0, "id": f"call_{k}", "type": "function",
                    "function": {"name": name, "arguments": json.dumps(args)}}
            if any(isinstance(t, dict) and (t.get("custom") or {}).get("name") == name
                   for t in body.get("tools") or []):
                # a freeform tool (Copilot's apply_patch): its input is the text itself
                call = {"index": 0, "id": f"call_{k}", "type": "custom",
                        "custom": {"name": name, "input": args.get("input", "")}}
            chunks = [
                {**base, "choices": [{"index": 0, "delta": {"role": "assistant", "content": None,
                 "tool_calls": [call]},
                 "finish_reason": None}]},
                {**base, "choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}],
                 "usage": usage}]
        else:
            chunks = [
                {**base, "choices": [{"index": 0, "delta": {"role": "assistant",
                                                            "content": self.final_text},
                                      "finish_reason": None}]},
                {**base, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}],
                 "usage": usage}]
        return _sse([(None, c) for c in chunks] + [(None, "[DONE]")])

    def responses(self, body: dict) -> bytes:
        tool, k = self._pick(body), self._results_in(body) + 1
        if tool:
            name, args = tool
            item = {"type": "function_call", "id": f"fc_{k}", "call_id": f"call_{k}", "name": name,
                    "arguments": json.dumps(args), "status": "completed"}
            spaces = {t.get("name") for t in body.get("tools") or []
                      if isinstance(t, dict) and t.get("type") == "namespace"}
            ns, _, short = name.rpartition("__")
            if ns in spaces:              # a tool of a namespace is called by its short name
                item.update(name=short, namespace=ns)
        else:
            item = {"type": "message", "id": "msg_1", "role": "assistant", "status": "completed",
                    "content": [{"type": "output_text", "text": self.final_text,
                                 "annotations": []}]}
        resp = {"id": "resp_1", "object": "response", "created_at": 0, "status": "in_progress",
                "model": body.get("model", "gpt-5.4"), "output": []}
        usage = {"input_tokens": 10, "input_tokens_details": {"cached_tokens": 0},
                 "output_tokens": 5, "output_tokens_details": {"reasoning_tokens": 0},
                 "total_tokens": 15}
        return _sse([
            ("response.created", {"type": "response.created", "response": resp}),
            ("response.output_item.added", {"type": "response.output_item.added",
                                            "output_index": 0, "item": item}),
            ("response.output_item.done", {"type": "response.output_item.done",
                                           "output_index": 0, "item": item}),
            ("response.completed", {"type": "response.completed",
                                    "response": {**resp, "status": "completed", "output": [item],
                                                 "usage": usage}}),
        ])

    def messages(self, body: dict) -> bytes:
        tool, k = self._pick(body), self._results_in(body) + 1
        msg = {"id": "msg_1", "type": "message", "role": "assistant",
               "model": body.get("model", "claude"), "content": [], "stop_reason": None,
               "stop_sequence": None, "usage": {"input_tokens": 10, "output_tokens": 1}}
        ev = [("message_start", {"type": "message_start", "message": msg})]
        if tool:
            name, args = tool
            ev += [("content_block_start", {"type": "content_block_start", "index": 0,
                                            "content_block": {"type": "tool_use", "id": f"toolu_{k}",
                                                              "name": name, "input": {}}}),
                   ("content_block_delta", {"type": "content_block_delta", "index": 0,
                                            "delta": {"type": "input_json_delta",
                                                      "partial_json": json.dumps(args)}})]
            stop = "tool_use"
        else:
            ev += [("content_block_start", {"type": "content_block_start", "index": 0,
                                            "content_block": {"type": "text", "text": ""}}),
                   ("content_block_delta", {"type": "content_block_delta", "index": 0,
                                            "delta": {"type": "text_delta",
                                                      "text": self.final_text}})]
            stop = "end_turn"
        ev += [("content_block_stop", {"type": "content_block_stop", "index": 0}),
               ("message_delta", {"type": "message_delta",
                                  "delta": {"stop_reason": stop, "stop_sequence": None},
                                  "usage": {"output_tokens": 5}}),
               ("message_stop", {"type": "message_stop"})]
        return _sse(ev)

    def gemini(self, body: dict) -> bytes:
        """A streamGenerateContent answer: one chunk with the function call, or the final text."""
        tool = self._pick(body)
        part = ({"functionCall": {"name": tool[0], "args": tool[1]}} if tool
                else {"text": self.final_text})
        return _sse_data([{"candidates": [{"content": {"role": "model", "parts": [part]},
                                           "finishReason": "STOP", "index": 0}],
                           "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5,
                                             "totalTokenCount": 15},
                           "modelVersion": "scripted"}])

    @staticmethod
    def gemini_side(body: dict) -> bytes:
        """A generateContent answer (Gemini CLI's side calls: the model router asks for JSON
        {complexity_reasoning, complexity_score}): JSON shaped by the response schema, else a
        plain text."""
        cfg = body.get("generationConfig") or {}
        schema = cfg.get("responseJsonSchema") or cfg.get("responseSchema")
        text = json.dumps(schema_value(schema)) if schema else "scripted"
        return json.dumps({"candidates": [{"content": {"role": "model", "parts": [{"text": text}]},
                                           "finishReason": "STOP", "index": 0}],
                           "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5,
                                             "totalTokenCount": 15}}).encode()

    # ---- server -------------------------------------------------------------------------------
    def __enter__(self) -> "ScriptedModel":
        model = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *a):
                pass

            def _send(self, code: int, body: bytes, ctype: str) -> None:
                self.send_response(code)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self):
                if self.path.rstrip("/").endswith("/models"):
                    data = {"object": "list", "data": [{"id": "gpt-5.4", "object": "model"},
                                                       {"id": "claude-sonnet-5-5", "object": "model"}]}
                    return self._send(200, json.dumps(data).encode(), "application/json")
                self._send(404, b"{}", "application/json")

            def do_POST(self):
                n = int(self.headers.get("Content-Length") or 0)
                try:
                    body = json.loads(self.rfile.read(n) or b"{}")
                except ValueError:
                    body = {}
                path = self.path.split("?")[0]
                if path.endswith(":generateContent"):
                    model.side_requests.append((path, body))
                    return self._send(200, model.gemini_side(body), "application/json")
                if path.endswith(":countTokens"):
                    return self._send(200, b'{"totalTokens": 10}', "application/json")
                model.requests.append((path, body))
                if path.endswith(":streamGenerateContent"):
                    return self._send(200, model.gemini(body), "text/event-stream")
                if path.endswith("/chat/completions"):
                    return self._send(200, model.chat(body), "text/event-stream")
                if path.endswith("/responses"):
                    return self._send(200, model.responses(body), "text/event-stream")
                if path.endswith("/messages/count_tokens"):
                    return self._send(200, b'{"input_tokens": 10}', "application/json")
                if path.endswith("/messages"):
                    return self._send(200, model.messages(body), "text/event-stream")
                self._send(404, b"{}", "application/json")

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        # polled every 50 ms (the default 0.5 s is how long shutdown() may wait, at every turn)
        threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05},
                         daemon=True).start()
        return self

    @property
    def port(self) -> int:
        return self._server.server_address[1]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __exit__(self, *exc) -> None:
        if self._server:
            self._server.shutdown()
            self._server.server_close()
