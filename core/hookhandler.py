"""`agentdeck-hook <event>`: the default hook handler, one JSON line per event in the audit log.

A CLI runs it with the event's payload on stdin. It normalizes whichever dialect arrived into
one record, redacts credentials and appends the line to `<state dir>/audit.jsonl`. At a
pre-tool or prompt event it also decides (core.policy): the compiled policy the install wrote
(core.policy.compiled) and the drill canary (core.policy.canary) give allow, ask or deny, the
decision is part of the audit line, and a deny or ask is answered in the calling CLI's own
channel (core.policy.answer, facts in core.facts.hook_channels). An allow prints nothing and
exits 0; the handler never prints a traceback.

Import cost matters (it runs on every tool call): only the standard library, core.secrets and,
at a decision event, core.policy's small modules (the channel facts only on a deny or ask).
"""
from __future__ import annotations

import errno
import json
import os
import re
import stat
import sys
import time

from agentdeck.core.secrets import redact, redact_value

TYPE_CHECKING = False
if TYPE_CHECKING:               # types only: the rules are imported where a decision needs them
    from collections.abc import Callable

    from agentdeck.core.policy.rules import Verdict

MAX_STDIN = 8 * 1024 * 1024
MAX_STR = 2000          # every string in the record, the prompt included
#: each string is cut to this many characters BEFORE it is redacted (then to MAX_STR after), so
#: redaction is linear in a bounded input: a 1 MB tool call costs what a 6 kB one does. The
#: margin past MAX_STR lets a credential that starts before the cut be recognized whole.
REDACT_WINDOW = MAX_STR + 4096
MAX_DEPTH = 12          # nesting kept from tool args
MAX_ITEMS = 200         # entries kept per list / dict in tool args

#: canonical event -> the spellings the CLIs use for it (Copilot camelCase first, then the
#: PascalCase names of Claude Code, Codex, VS Code and Copilot's aliases, then Gemini CLI's own:
#: BeforeTool, AfterTool, BeforeAgent, AfterAgent, PreCompress). Lookup ignores case, "_" and
#: "-", so snake_case (and the canonical name itself) resolve too. A CLI's also_events
#: (core/facts/versions.py) are spellings of the canonical event they are decided as: Claude
#: Code's PreSkillShellCommand (a skill's own `!command`, a Bash call in PreToolUse's payload)
#: is a pre-tool call; the audit line keeps the spelling in raw_event.
EVENTS: dict[str, tuple[str, ...]] = {
    "session_start": ("sessionStart", "SessionStart"),
    "session_end": ("sessionEnd", "SessionEnd"),
    "user_prompt_submit": ("userPromptSubmitted", "UserPromptSubmit", "BeforeAgent"),
    "user_prompt_transformed": ("userPromptTransformed",),
    "pre_tool_use": ("preToolUse", "PreToolUse", "PreSkillShellCommand", "tool.execute.before",
                     "BeforeTool"),
    "post_tool_use": ("postToolUse", "PostToolUse", "AfterTool"),
    "post_tool_use_failure": ("postToolUseFailure", "PostToolUseFailure"),
    "pre_mcp_tool_call": ("preMcpToolCall", "PreMcpToolCall"),
    "permission_request": ("permissionRequest", "PermissionRequest"),
    "stop": ("agentStop", "Stop", "AfterAgent"),
    "subagent_start": ("subagentStart", "SubagentStart"),
    "subagent_stop": ("subagentStop", "SubagentStop"),
    "pre_compact": ("preCompact", "PreCompact", "PreCompress"),
    "notification": ("notification", "Notification"),
    "error": ("errorOccurred", "ErrorOccurred", "StopFailure"),
}


from agentdeck.core.policy import vocabulary as _V  # noqa: E402  (every event's record reads it)
from agentdeck.core.targets import dialects as _dialects  # noqa: E402  (every event reads it)
from agentdeck.core.targets.dialects import fold as _fold  # noqa: E402  (one folding, the vocabulary's too)


#: folded spelling -> canonical event (dialects.fold: OpenCode's "tool.execute.before" too)
_EVENT_INDEX = {_fold(n): canon for canon, names in EVENTS.items() for n in (canon, *names)}
_PROMPT_EVENTS = {"user_prompt_submit", "user_prompt_transformed"}


def _now() -> str:
    """UTC now as 2025-06-01T12:00:00.123Z (time, not datetime: one import less per hook call)."""
    sec, ns = divmod(time.time_ns(), 1_000_000_000)
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(sec)) + f".{ns // 1_000_000:03d}Z"


def canonical_event(raw: str | None) -> str:
    return _EVENT_INDEX.get(_fold(raw), "unknown") if raw else "unknown"


# ---- reading ---------------------------------------------------------------------------------
def _read_stdin() -> tuple[bytes, str | None]:
    """Up to MAX_STDIN bytes; the rest is drained (a writer that gets EPIPE may call the hook
    failed) and reported. A complete JSON document is enough: a sender that leaves stdin open
    after it does not keep the handler waiting for EOF (read1 returns what has arrived)."""
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None or sys.stdin.isatty():
        return b"", None
    read = getattr(stream, "read1", stream.read)
    chunks: list[bytes] = []
    size = 0
    while True:
        chunk = read(1 << 16)
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
        if size > MAX_STDIN:
            while read(1 << 20):
                pass
            return b"".join(chunks)[:MAX_STDIN], "stdin larger than 8 MB, not parsed"
        if chunk.rstrip().endswith(b"}") and _complete(b"".join(chunks)):
            break
    return b"".join(chunks), None


def _complete(data: bytes) -> bool:
    """Whether ``data`` is already one whole JSON document (then nothing more is waited for)."""
    try:
        json.loads(data)
    except (ValueError, RecursionError):
        return False
    return True


def _parse(data: bytes, problem: str | None) -> tuple[dict, str | None]:
    if problem:
        return {}, problem
    if not data.strip():
        return {}, "empty stdin"
    try:
        text, note = data.decode("utf-8"), None
    except UnicodeDecodeError:
        text, note = data.decode("utf-8", "replace"), "stdin is not valid UTF-8"
    try:
        payload = json.loads(text)
    except (ValueError, RecursionError) as e:
        return {}, "; ".join(filter(None, [note, f"stdin is not JSON: {e}"]))
    if not isinstance(payload, dict):
        return {}, f"payload is a JSON {type(payload).__name__}, not an object"
    return payload, note


# ---- normalizing -----------------------------------------------------------------------------
def _first(p: dict, *keys: str):
    for k in keys:
        if p.get(k) not in (None, ""):
            return p[k]
    return None


def _tool_name(name):
    """A tool's name, cut and redacted, with a credential in any `__` part redacted too: in
    `mcp__<server>__<tool>` (Claude, Codex) a token named as the server is glued to `mcp__` by
    word characters, which the patterns' boundaries alone do not see."""
    if not isinstance(name, str):
        return name
    return _clip("__".join(redact(part) for part in _window(name).split("__")))


def _tools(p: dict) -> list[dict]:
    from agentdeck.core.policy.vocabulary import tool_args as _args   # stdlib only, small

    if isinstance(p.get("toolCalls"), list):   # Copilot preToolUse: a batch
        return [{"name": _tool_name(c.get("name") or c.get("toolName")),
                 "args": _args(c.get("args"))}
                for c in p["toolCalls"] if isinstance(c, dict)]
    if "toolName" in p:                          # Copilot camelCase, one call
        return [{"name": _tool_name(p["toolName"]), "args": _args(p.get("toolArgs"))}]
    if "tool_name" in p:                         # Claude, Codex, VS Code, Copilot PascalCase
        return [{"name": _tool_name(p["tool_name"]), "args": _args(p.get("tool_input"))}]
    return []


def _speaker(target: str | None):
    """The calling target's Speaker (core/targets/<name>/dialect.py), or None (no caller named,
    a name no registered target speaks for)."""
    return _dialects.speaker(target)


def _dialect(p: dict, speaker) -> str:
    """The payload's dialect label: the caller's speaker says, else every registered dialect."""
    return _dialects.detect(p, speaker).label


def _bounded(value, depth: int = 0):
    """Tool args trimmed to MAX_DEPTH / MAX_ITEMS before they are redacted and written."""
    if depth >= MAX_DEPTH and isinstance(value, (dict, list)):
        return "[nested too deep]"
    if isinstance(value, dict):
        return {str(k): _bounded(v, depth + 1) for k, v in list(value.items())[:MAX_ITEMS]}
    if isinstance(value, list):
        return [_bounded(v, depth + 1) for v in value[:MAX_ITEMS]]
    return value


_CUT = r"…\[\+(\d+) chars\]\Z"      # compiled on first use (re's cache): most calls cut nothing


def _window(value):
    """Every string (keys too) cut to REDACT_WINDOW with a "…[+N chars]" marker: the record's
    strings are redacted only after this, so a padded tool call costs no more than a short one."""
    if isinstance(value, dict):
        return {_window(k) if isinstance(k, str) else k: _window(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_window(v) for v in value]
    if isinstance(value, str) and len(value) > REDACT_WINDOW:
        return f"{value[:REDACT_WINDOW]}…[+{len(value) - REDACT_WINDOW} chars]"
    return value


def _clip(value):
    if isinstance(value, dict):
        return {_clip(k) if isinstance(k, str) else k: _clip(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_clip(v) for v in value]
    if isinstance(value, str) and len(value) > MAX_STR:
        keep = MAX_STR - 20  # room for the marker
        cut = re.search(_CUT, value)   # already cut by _window: count what that dropped too
        dropped = len(value) - keep - (len(cut.group(0)) - int(cut.group(1)) if cut else 0)
        return f"{value[:keep]}…[+{dropped} chars]"
    return value


def build_record(payload: dict, argv_event: str | None, env, error: str | None = None) -> dict:
    """The one audit record for a hook call, already redacted and clipped."""
    raw_event = (argv_event or env.get("AGENTDECK_EVENT")
                 or _first(payload, "hook_event_name", "hookEventName", "hookType"))
    raw_event = raw_event if isinstance(raw_event, str) else None
    target = env.get("AGENTDECK_TARGET") or None
    event = canonical_event(raw_event)
    record = {
        "ts": _now(),
        "target": target,
        "event": event,
        "raw_event": raw_event,
        "dialect": _dialect(payload, _speaker(target)),
        "session_id": _first(payload, "session_id", "sessionId"),
        "cwd": _first(payload, "cwd"),
    }
    tools = _tools(payload)
    if tools:
        record["tools"] = _bounded(tools)
    if event in _PROMPT_EVENTS and isinstance(payload.get("prompt"), str):
        record["prompt"] = payload["prompt"]
    if error:
        record["error"] = error
    if env.get("AGENTDECK_LAYER") == "org":    # set by the org layer's entry (core/org/handler.py)
        record["layer"] = "org"
    return _clip(redact_value(_window(record)))


# ---- writing ---------------------------------------------------------------------------------
def state_dir(env) -> str:
    explicit = env.get("AGENTDECK_STATE_DIR")
    if explicit:
        return explicit
    home = os.environ.get("HOME", "")
    if (sys.platform == "linux" and "XDG_STATE_HOME" not in os.environ and os.path.isabs(home)
            and not hasattr(sys, "getandroidapilevel") and "ANDROID_DATA" not in os.environ):
        # platformdirs' answer in the common Linux case, without its ~7 ms of imports
        # (pathlib, tempfile, shutil) on every hook call; anything else asks platformdirs
        return os.path.join(os.path.expanduser("~/.local/state"), "agentdeck")
    import platformdirs  # only when needed: it is the one non-stdlib import

    return platformdirs.user_state_dir("agentdeck")


#: characters json.dumps(ensure_ascii=False) leaves raw that a terminal or a line reader acts on:
#: DEL, the C1 controls (U+0080-U+009F: CSI, OSC...), the Unicode line / paragraph separators
#: (line breaks to many JSON-lines readers) and the bidirectional overrides ("trojan source")
_ESCAPE = {c: f"\\u{c:04x}" for c in (0x7F, *range(0x80, 0xA0), 0x2028, 0x2029, *range(0x202A, 0x202F),
                                     *range(0x2066, 0x206A), 0xFEFF)}
AUDIT_MODE = 0o600


def audit_line(record: dict) -> bytes:
    """One JSON line: UTF-8, every control character escaped (json escapes C0, we escape the rest)."""
    text = json.dumps(record, ensure_ascii=False, default=str).translate(_ESCAPE)
    return (text + "\n").encode("utf-8", "replace")


def _open_audit(path: str) -> int | None:
    """A descriptor appending to `path`, a regular file of mode 0600, or None (with a note on
    stderr) when that cannot be had safely. Never follows a symlink (a symlinked audit.jsonl is
    replaced by a regular file: the link goes, its target is untouched), never blocks (a FIFO
    opens O_NONBLOCK and is refused after fstat), tightens an existing wider mode to 0600."""
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    for _ in range(2):
        try:
            fd = os.open(path, flags, AUDIT_MODE)
        except OSError as e:
            if e.errno == errno.ELOOP and os.path.islink(path):   # a symlink: replace it
                os.unlink(path)
                flags |= os.O_EXCL
                continue
            if e.errno == errno.ENXIO:                              # a FIFO without a reader
                _note(f"{path} is a FIFO, not a regular file; audit line not written")
                return None
            raise
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            os.close(fd)
            _note(f"{path} is not a regular file; audit line not written")
            return None
        if stat.S_IMODE(st.st_mode) & 0o077:
            os.fchmod(fd, AUDIT_MODE)
        return fd
    return None


def _note(message: str) -> None:
    try:
        sys.stderr.write(f"agentdeck-hook: {message}\n")
    except (OSError, ValueError):
        pass


def append_record(record: dict, env) -> None:
    """One O_APPEND write per line, so concurrent hooks never interleave."""
    directory = state_dir(env)
    os.makedirs(directory, mode=0o700, exist_ok=True)
    fd = _open_audit(os.path.join(directory, "audit.jsonl"))
    if fd is None:
        return
    try:
        os.write(fd, audit_line(record))
    finally:
        os.close(fd)


# ---- agentdeck drill (core/drill): receipts and the canary deny -----------------------------
DRILL_VAR = "AGENTDECK_DRILL_ID"        # set by `agentdeck drill` for the CLI it runs
DRILL_CANARY = "agentdeck-drill-canary"  # a pre-tool call carrying this token is denied in a drill


def drill_tag(record: dict, env) -> bool:
    """In a drill (AGENTDECK_DRILL_ID set), tag the record with the drill's id and the handler's
    wall time so far (since the wrapper's process started), and say whether this is a pre-tool
    call whose tool args carry the canary token: True. The deny itself is decided and answered
    in the CLI's channel by decide() (core.policy.canary.drill_canary_verdict: exit 2 plus the
    CLI's JSON shape). Outside a drill: nothing, False."""
    drill = env.get(DRILL_VAR)
    if not drill:
        return False
    record["drill_id"] = drill[:200]
    ms = _process_ms()
    if ms is not None:
        record["handler_ms"] = ms
    deny = (record.get("event") == "pre_tool_use"
            and DRILL_CANARY in json.dumps(record.get("tools") or [], default=str))
    if deny:
        record["decision"] = "deny"
    return deny


def _process_ms() -> int | None:
    """Milliseconds since this process (the wrapper's sh, which exec'd us) started (Linux)."""
    try:
        with open("/proc/self/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
        start = int(fields[19]) / os.sysconf("SC_CLK_TCK")
        return max(0, round((time.clock_gettime(time.CLOCK_BOOTTIME) - start) * 1000))
    except (OSError, ValueError, IndexError, AttributeError):
        return None


# ---- deciding (pre-tool and prompt events) ---------------------------------------------------
#: the events at which the handler decides (every other event is only logged)
DECISION_EVENTS = ("pre_tool_use", "user_prompt_submit")
MAX_SUMMARY = 300


def _channel(record: dict, env):
    """The Dialect the decision is answered in: the payload's, or the calling target's own when
    the payload said nothing about itself."""
    return _dialects.channel(record.get("dialect"), _speaker(env.get("AGENTDECK_TARGET") or None))


_MAX_POLICY = 4 * 1024 * 1024


def _sealed(env) -> str | None:
    """The compiled policy's sha256 as the wrapper sealed it (core/seal.py): "" when the wrapper
    says there is no policy, None when the call did not come through a sealed wrapper
    (repository hooks, a wrapper an earlier agentdeck wrote)."""
    return env.get("AGENTDECK_POLICY_SHA256")


def _fail_mode(env, doc: dict | None) -> str:
    """on_error: the sealed wrapper's (a damaged policy cannot change it), else the policy's."""
    if _sealed(env) is not None:
        return "deny" if env.get("AGENTDECK_ON_ERROR") == "deny" else "allow"
    return (doc or {}).get("on_error") or "allow"


def _policy(env) -> tuple[dict | None, str | None]:
    sealed = _sealed(env)
    if sealed is None:
        return load_policy(_dialects.policy_path(env, state_dir(env)))
    if not sealed:
        return None, None           # the profile has no rule: nothing to enforce
    return load_policy(env.get("AGENTDECK_POLICY") or "", digest=sealed)


def load_policy(path: str, digest: str | None = None) -> tuple[dict | None, str | None]:
    """(document, problem). (None, None): there is no policy file (nothing to enforce) -- unless
    `digest` is given (the wrapper's seal): then the file must exist and its bytes hash to it,
    or it is a problem (the caller answers the fail mode). Never follows a FIFO or blocks:
    opened O_NONBLOCK, refused unless a regular file."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        if digest:
            return None, f"policy {path} is missing (agentdeck apply puts it back)"
        return None, None
    except OSError as e:
        return None, f"policy {path}: {e.strerror}"
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return None, f"policy {path} is not a regular file"
        data = os.read(fd, _MAX_POLICY + 1)
    finally:
        os.close(fd)
    if len(data) > _MAX_POLICY:
        return None, f"policy {path} is larger than 4 MB"
    if digest:
        # the interpreter's own SHA-256 (core/digest.py), not hashlib's: hashlib loads OpenSSL,
        # whose system configuration (/etc/ssl/openssl.cnf) can name a module that runs code in
        # the handler before it decides (red team round 7)
        from agentdeck.core.digest import sha256   # local: only a sealed wrapper's call checks
        if sha256(data) != digest:
            return None, (f"policy {path} was changed since agentdeck wrote it (its digest does "
                          "not match the wrapper's; agentdeck apply puts it back)")
    try:
        doc = json.loads(data)
    except ValueError as e:
        return None, f"policy {path} is not JSON: {e}"
    if not isinstance(doc, dict) or doc.get("format") not in (1, 2) or not isinstance(
            doc.get("rules"), list) or not isinstance(doc.get("paths", []), list):
        return None, f"policy {path} is not a compiled agentdeck policy (format 2)"
    return doc, None


def decide(payload: dict, record: dict, env, parse_error: str | None,
           t0: float, policy: tuple[dict | None, str | None] | None = None,
           fs=None) -> tuple[int, str, str]:
    """Evaluate the compiled policy (and the drill canary) for a pre-tool or prompt event, add
    the decision to `record`, and return (exit code, stdout, stderr) in the dialect's channel.
    `policy`: (document, problem) already loaded (`agentdeck policy test`, in-process); by
    default the compiled policy file is read (core.targets.dialects.policy_path). `fs`: the file
    system path rules look at (core.policy.fs; the disk by default)."""
    event = record["event"]
    doc, problem = policy if policy is not None else _policy(env)
    on_error = _fail_mode(env, doc)
    servers = (doc or {}).get("mcp_servers") or ()
    vocab = _vocabulary(record, env) if event == "pre_tool_use" else None
    calls = _V.tool_calls(payload, servers, vocab) if event == "pre_tool_use" else []
    verdict: Verdict | _Unruled | None = None
    if env.get(DRILL_VAR):          # the drill canary is looked at in a drill only
        from agentdeck.core.policy.canary import drill_canary_verdict   # local: in a drill only
        verdict = drill_canary_verdict(env, calls)
    failed = None
    if verdict is None:
        failed = parse_error or problem
        prompt = payload.get("prompt")
        prompt = prompt if isinstance(prompt, str) else ""
        if failed and (parse_error or doc is None):
            from agentdeck.core.policy.rules import Verdict   # local: the rules only for a policy or an error to answer
            verdict = Verdict("deny" if on_error == "deny" else "allow", "on_error", failed)
        elif doc is None:           # no compiled policy: nothing to enforce, the call is recorded
            verdict = _Unruled(calls[0] if calls else None) if event == "pre_tool_use" else (
                _Unruled(_V.Call("prompt", "prompt", [prompt])))
        elif event == "pre_tool_use":
            from agentdeck.core.policy.rules import Context, evaluate_doc   # local: the rules only when a compiled policy is installed
            cwd = payload["cwd"] if isinstance(payload.get("cwd"), str) else ""
            home = str(env.get("HOME") or doc.get("home") or "")
            verdict = _within_budget(lambda: evaluate_doc(doc, calls, Context(home, cwd, env, fs)),
                                     doc, calls)
        else:
            from agentdeck.core.policy.rules import evaluate_prompt   # local: the rules only when a compiled policy is installed
            verdict = evaluate_prompt(doc.get("rules") or [], prompt)
    call = verdict.call or (calls[0] if calls else None)
    if call is not None:
        record["tool_class"], record["tool_name"] = call.cls, _tool_name(call.name)
        record["summary"] = _summary(record, calls, call, vocab)
    elif event == "user_prompt_submit":
        record["tool_class"] = "prompt"
    record["decision"] = verdict.decision
    record["rule"] = verdict.rule
    record["reason"] = _clip(redact(verdict.reason)) if verdict.reason else None
    if verdict.decision == "allow" and not failed:
        code, out, err = 0, "", ""
    else:
        from agentdeck.core.policy import answer as A   # local: the channel facts only on a deny or ask
        dialect = _channel(record, env)
        if verdict.rule == "on_error":
            code, out, err = A.on_error(event, dialect, on_error, failed or "")
        else:
            code, out, err = A.answer(event, dialect, verdict.decision, verdict.reason)
            if verdict.decision == "ask" and event == "pre_tool_use":
                record["effective"] = A.effective(dialect, "ask", record.get("raw_event"))
    if failed and verdict.rule != "on_error":
        record["error"] = "; ".join(filter(None, [record.get("error"), failed]))
    record["latency_ms"] = round((time.perf_counter() - t0) * 1000, 2)
    return code, out, err


#: seconds one decision may take (globs over a whole disk, link chains, parsing): far inside
#: the shortest hook timeout (30 s: past it every CLI lets the call run). Past it the call is
#: unresolved (`[policy] unresolved`), never allowed.
DECIDE_BUDGET = 5.0


class _OverBudget(BaseException):
    """Not an Exception: a reader's `except Exception` (an archive it cannot list) must not
    swallow the end of the budget and go on deciding untimed."""


def _within_budget(evaluate: "Callable[[], Verdict]", doc: dict, calls: list) -> "Verdict":
    """evaluate() under DECIDE_BUDGET (an interval timer: it interrupts a glob or a walk in the
    middle); out of time, the verdict is `unresolved`. The timer needs the main thread: in
    another thread (none of agentdeck's callers) the evaluation runs untimed."""
    import signal   # local: only a decision with a compiled policy is timed
    import threading   # local: as signal (is this the main thread, where a timer can interrupt)

    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        return evaluate()

    def expire(signum, frame):
        raise _OverBudget()

    previous = signal.signal(signal.SIGALRM, expire)
    # and again every 0.2 s after it, should anything catch the first one
    signal.setitimer(signal.ITIMER_REAL, DECIDE_BUDGET, 0.2)
    try:
        return evaluate()
    except _OverBudget:
        signal.setitimer(signal.ITIMER_REAL, 0)
        from agentdeck.core.policy.rules import UNRESOLVED_RULE, Verdict   # local: as above
        return Verdict(doc.get("unresolved") or "ask", UNRESOLVED_RULE,
                       f"agentdeck could not decide within {DECIDE_BUDGET:g} s (a glob over a "
                       "large tree, a long chain of links): unresolved", calls[0] if calls else None)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _vocabulary(record: dict, env):
    """The tools and MCP namings of the calling dialect (core/targets/<name>/dialect.py TOOLS,
    MCP_NAMES): the caller's, when the payload is one of its dialects; every registered
    dialect's when the caller is unknown or the payload another CLI's."""
    return _V.vocabulary(_dialects.readers(env.get("AGENTDECK_TARGET") or None, record.get("dialect")))


class _Unruled:
    """The verdict where there is no compiled policy (what core.policy.rules gives for an empty
    one: allow, no rule), without importing the rules."""
    __slots__ = ("call",)
    decision: str = "allow"
    rule: str | None = None
    reason: str = ""

    def __init__(self, call: "_V.Call | None") -> None:
        self.call = call


def _summary(record: dict, calls: list, call, vocab=None) -> list[str]:
    """The deciding call's subjects, taken from the record's already redacted arguments (a
    value that is secret by its key name, e.g. aws_secret_access_key, is redacted there and
    would not be recognized in the bare subject)."""
    subjects = None
    tools = record.get("tools") or []
    idx = next((i for i, c in enumerate(calls) if c is call), None)
    if idx is not None and idx < len(tools) and isinstance(tools[idx], dict):
        args = tools[idx].get("args")
        again = _V.classify(str(tools[idx].get("name") or ""), args if isinstance(args, dict) else {},
                         vocab=vocab)
        if again.cls == call.cls:
            subjects = again.subjects
    if subjects is None:
        subjects = redact_value([s for s in call.subjects if isinstance(s, str)])
    return [s[:MAX_SUMMARY] for s in subjects if isinstance(s, str)][:10]


def _emit(out: str, err: str) -> None:
    for stream, text in ((sys.stdout, out), (sys.stderr, err)):
        if text:
            try:
                stream.write(text + "\n")
                stream.flush()
            except (OSError, ValueError):
                pass


def _fail(env, raw: str | None, e: BaseException) -> tuple[int, str, str]:
    """An internal error at a decision event: the policy's on_error, in the target's channel."""
    try:
        doc, _ = _policy(env)
        on_error = _fail_mode(env, doc)
        from agentdeck.core.policy import answer as A   # local: the channel facts only on an internal error
        dialect = _channel({}, env)
        return A.on_error(canonical_event(raw), dialect, on_error,
                          f"internal error: {type(e).__name__}")
    except BaseException:  # noqa: BLE001
        return 0, "", ""


def main(argv: list[str] | None = None) -> int:
    t0 = time.perf_counter()
    argv = sys.argv[1:] if argv is None else argv
    env = os.environ
    event = argv[0] if argv else None
    code, out, err = 0, "", ""
    try:
        payload, error = _parse(*_read_stdin())
        record = build_record(payload, event, env, error)
        drill_tag(record, env)                 # drill id + handler_ms on every line of a drill
        if record["event"] in DECISION_EVENTS:
            code, out, err = decide(payload, record, env, error, t0)
    except BaseException as e:  # noqa: BLE001 - a hook must never crash the CLI that runs it
        raw = event or env.get("AGENTDECK_EVENT")
        record = {
            "ts": _now(),
            "target": env.get("AGENTDECK_TARGET") or None,
            "event": canonical_event(raw), "raw_event": raw,
            "error": redact(f"internal error: {type(e).__name__}: {e}")[:MAX_STR],
        }
        if record["event"] in DECISION_EVENTS:
            code, out, err = _fail(env, raw, e)
            record["decision"] = "deny" if code == 2 else "allow"
            record["rule"] = "on_error"
    try:
        append_record(record, env)
    except BaseException:  # noqa: BLE001
        pass
    _emit(out, err)
    return code


if __name__ == "__main__":
    sys.exit(main())
