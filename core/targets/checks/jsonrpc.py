"""Just enough JSON-RPC to ask a CLI what it loaded: LSP framing (Copilot) and JSON lines (Codex).

A reader thread turns the child's stdout into messages on a queue, so every wait has a deadline
(a blocking read cannot time out on its own). Requests the server sends us are answered by a
`responder` the probe chooses (Copilot: null result; Codex: an error). The child is always ended:
stdin closed, a short grace, then killed with its descendants (the Host does both: it started
it, with Host.popen).
"""
from __future__ import annotations

import json
import queue
import threading
import time
from typing import IO, TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    from ...host import Host

Message = dict[str, Any]
Responder = Callable[[Message], Message]


class RpcError(Exception):
    """The conversation failed: the child exited, timed out, or sent something unparseable."""


class RpcTimeout(RpcError):
    pass


# ---- framing ---------------------------------------------------------------------------------
def encode_lsp(msg: Message) -> bytes:
    body = json.dumps(msg, separators=(",", ":")).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def read_lsp(stream: IO[bytes]) -> Message | None:
    """One `Content-Length: N\\r\\n\\r\\n<N bytes>` message, or None at end of stream."""
    length = None
    while True:
        line = stream.readline()
        if not line:
            return None
        line = line.strip()
        if not line:
            if length is None:
                continue            # stray blank line between messages
            break
        name, _, value = line.decode("ascii", "replace").partition(":")
        if name.strip().lower() == "content-length":
            length = int(value.strip())
    body = stream.read(length)
    if len(body) < length:
        return None
    return json.loads(body)


def encode_jsonl(msg: Message) -> bytes:
    return (json.dumps(msg, separators=(",", ":")) + "\n").encode("utf-8")


def read_jsonl(stream: IO[bytes]) -> Message | None:
    while True:
        line = stream.readline()
        if not line:
            return None
        if line.strip():
            return json.loads(line)


FRAMINGS: dict[str, tuple[Callable[[Message], bytes], Callable[[IO[bytes]], Message | None]]] = {
    "lsp": (encode_lsp, read_lsp),
    "jsonl": (encode_jsonl, read_jsonl),
}


# ---- a conversation with one child -----------------------------------------------------------
class RpcChild:
    """A child started with Host.popen, which also ends it (Host.end_process)."""

    def __init__(self, host: "Host", proc: Any, framing: str, responder: Responder,
                 jsonrpc_field: bool = True):
        self.host, self.proc = host, proc
        self._encode, self._decode = FRAMINGS[framing]
        self._responder = responder
        self._jsonrpc = jsonrpc_field
        self._next_id = 1
        self._inbox: "queue.Queue[Message | BaseException | None]" = queue.Queue()
        self._stderr: list[bytes] = []
        self.notifications: list[Message] = []
        self._readers = {
            "stdout": threading.Thread(target=self._pump_stdout, daemon=True),
            "stderr": threading.Thread(target=self._pump_stderr, daemon=True),
        }
        for t in self._readers.values():
            t.start()

    def _pump_stdout(self) -> None:
        try:
            while True:
                msg = self._decode(self.proc.stdout)
                self._inbox.put(msg)
                if msg is None:
                    return
        except BaseException as e:  # malformed frame or JSON: report it to the waiting caller
            self._inbox.put(e)

    def _pump_stderr(self) -> None:
        for chunk in iter(lambda: self.proc.stderr.read(4096), b""):
            self._stderr.append(chunk)

    @property
    def stderr_text(self) -> str:
        return b"".join(self._stderr).decode("utf-8", "replace")

    def _send(self, msg: Message) -> None:
        if self._jsonrpc:
            msg = {"jsonrpc": "2.0", **msg}
        try:
            self.proc.stdin.write(self._encode(msg))
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError) as e:
            raise RpcError(f"the CLI closed its input ({e.__class__.__name__})") from None

    def notify(self, method: str, params: Any = None) -> None:
        msg: Message = {"method": method}
        if params is not None:
            msg["params"] = params
        self._send(msg)

    def request(self, method: str, params: Any, deadline: float) -> Message:
        """Send a request and wait (until `deadline`, a time.monotonic() value) for the response
        with its id; answers server requests and keeps notifications on the way."""
        rid = self._next_id
        self._next_id += 1
        self._send({"id": rid, "method": method, "params": params})
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise RpcTimeout(f"no answer to {method} in time")
            try:
                msg = self._inbox.get(timeout=remaining)
            except queue.Empty:
                raise RpcTimeout(f"no answer to {method} in time") from None
            if isinstance(msg, BaseException):
                raise RpcError(f"unreadable message from the CLI: {msg}")
            if msg is None:
                raise RpcError(f"the CLI exited before answering {method}"
                               f" (exit {self.proc.poll()})")
            if "method" in msg:
                if "id" in msg:
                    self._send({"id": msg["id"], **self._responder(msg)})
                else:
                    self.notifications.append(msg)
                continue
            if msg.get("id") == rid:
                return msg

    def close(self, grace: float = 3.0) -> int | None:
        """Close stdin (the polite way to end both servers), wait a little, then kill the child
        and its descendants (Host.end_process), then let the readers finish."""
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        code = self.host.end_process(self.proc, grace)
        for name, reader in self._readers.items():
            reader.join(timeout=1.0)
            if not reader.is_alive():       # never close a pipe under a blocked reader
                try:
                    getattr(self.proc, name).close()
                except OSError:
                    pass
        return code


def null_result(msg: Message) -> Message:
    return {"result": None}


def decline(msg: Message) -> Message:
    return {"error": {"code": -32601, "message": "agentdeck probe: server requests are declined"}}
