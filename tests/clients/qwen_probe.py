"""Probe the real Qwen Code CLI offline and print what it does (docs/facts/qwen.md).

    python tests/clients/qwen_probe.py                 # every scenario
    python tests/clients/qwen_probe.py hooks deny mcp  # some of them
    python tests/clients/qwen_probe.py --list
    python tests/clients/qwen_probe.py --capture       # also rewrite tests/fixtures/payloads/qwen/

Not a test (pytest does not collect it). Each scenario builds a scratch home under /tmp (HOME,
and nothing else of the real home: the process gets a fresh environment), writes the files it
needs, runs one real non-interactive turn against tests/clients/scripted_model.py speaking
OpenAI Chat Completions (`--auth-type openai --openai-base-url ... --yolo`), and prints what it
observed as JSON. The CLI is QWEN_BIN, else /tmp/qwen-0.24.4/node_modules/.bin/qwen, else the
clients cache (<checkout>/.cache/clients/@qwen-code/qwen-code@0.24.4, or $AGENTDECK_CLIENTS_DIR).
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from scripted_model import ScriptedModel  # noqa: E402

VERSION = "0.24.4"
FIXTURES = HERE.parent / "fixtures" / "payloads" / "qwen"
EVENTS = ("PreToolUse", "PostToolUse", "PostToolUseFailure", "PostToolBatch", "Notification",
          "UserPromptSubmit", "UserPromptExpansion", "SessionStart", "Stop", "MessageDisplay",
          "SubagentStart", "SubagentStop", "PreCompact", "PostCompact", "SessionEnd",
          "SessionDelete", "PermissionRequest", "PermissionDenied", "StopFailure",
          "TodoCreated", "TodoCompleted", "InstructionsLoaded")
_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def qwen_bin() -> str:
    for cand in (os.environ.get("QWEN_BIN"), f"/tmp/qwen-{VERSION}/node_modules/.bin/qwen",
                 str(Path(os.environ.get("AGENTDECK_CLIENTS_DIR")
                          or Path(__file__).resolve().parents[2] / ".cache" / "clients")
                     / f"@qwen-code/qwen-code@{VERSION}" / "node_modules" / ".bin" / "qwen")):
        if cand and Path(cand).exists():
            return cand
    raise SystemExit(f"qwen not found: npm install --prefix /tmp/qwen-{VERSION} "
                     f"@qwen-code/qwen-code@{VERSION}")


class Scratch:
    """A scratch home + working folder + a capturing hook program."""

    def __init__(self, name: str):
        self.base = Path(tempfile.mkdtemp(prefix=f"qwen-{name}-"))
        self.home = self.base / "home"
        self.work = self.base / "work"
        self.store = self.base / "store"
        for d in (self.home, self.work, self.store, self.base / "bin"):
            d.mkdir(parents=True)
        self.qdir = self.home / ".qwen"
        self.hook = self.base / "bin" / "cap"
        # cap EVENT [exit-code] [stderr text | json-on-stdout-file]: saves stdin as
        # store/EVENT.<n>.json, then behaves as asked
        self.hook.write_text(
            "#!/bin/sh\n"
            f'd="{self.store}"\n'
            'n=$(ls "$d" | grep -c "^$1\\..*\\.json$")\n'
            'cat > "$d/$1.$n.json"\n'
            'env | grep -E "^(QWEN|CLAUDE|GEMINI)_" | sort > "$d/$1.$n.env"\n'
            'if [ -n "$3" ] && [ -f "$3" ]; then cat "$3"; elif [ -n "$3" ]; then echo "$3" >&2; fi\n'
            'exit "${2:-0}"\n')
        self.hook.chmod(0o755)

    def env(self, **extra: str) -> dict[str, str]:
        env = {"HOME": str(self.home), "PATH": f"{Path(qwen_bin()).parent}:/usr/local/bin:/usr/bin:/bin",
               "LANG": "C.UTF-8", "TMPDIR": "/tmp", "QWEN_CODE_SUPPRESS_YOLO_WARNING": "1",
               "QWEN_CODE_SYSTEM_SETTINGS_PATH": str(self.base / "etc" / "settings.json"),
               "QWEN_CODE_SYSTEM_DEFAULTS_PATH": str(self.base / "etc" / "system-defaults.json")}
        env.update(extra)
        return env

    def write(self, rel: str, data, root: Path | None = None) -> Path:
        p = (root or self.base) / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(data if isinstance(data, str) else json.dumps(data, indent=2) + "\n")
        return p

    def settings(self, data, where: str = "user") -> Path:
        path = {"user": self.qdir / "settings.json",
                "project": self.work / ".qwen" / "settings.json",
                "system": self.base / "etc" / "settings.json",
                "defaults": self.base / "etc" / "system-defaults.json"}[where]
        return self.write(str(path), data, Path("/"))

    def hooks_for(self, events=EVENTS, code: int = 0, extra: str = "", timeout: int = 10,
                  matcher: str | None = None) -> dict:
        out = {}
        for ev in events:
            group = {"hooks": [{"type": "command", "command": f"{self.hook} {ev} {code} {extra}".rstrip(),
                                "timeout": timeout}]}
            if matcher is not None:
                group["matcher"] = matcher
            out[ev] = [group]
        return out

    def fired(self) -> dict[str, list[dict]]:
        got: dict[str, list[dict]] = {}
        for f in sorted(self.store.glob("*.json")):
            ev = f.name.split(".")[0]
            try:
                got.setdefault(ev, []).append(json.loads(f.read_text()))
            except ValueError:
                got.setdefault(ev, []).append({"unparsed": f.read_text()[:200]})
        return got

    def run(self, model: ScriptedModel, prompt: str = "run the scripted command",
            args: tuple[str, ...] = (), timeout: float = 120, **env: str):
        argv = [qwen_bin(), "--auth-type", "openai", "--openai-base-url", f"{model.url}/v1",
                "--openai-api-key", "x", "-m", "gpt-5.4", "--yolo", *args, prompt]
        t0 = time.monotonic()
        r = subprocess.run(argv, env=self.env(**env), cwd=self.work, capture_output=True,
                           text=True, timeout=timeout, stdin=subprocess.DEVNULL)
        return r, round(time.monotonic() - t0, 2)

    def cli(self, *args: str, timeout: float = 60, **env: str):
        return subprocess.run([qwen_bin(), *args], env=self.env(**env), cwd=self.work,
                              capture_output=True, text=True, timeout=timeout,
                              stdin=subprocess.DEVNULL)

    def cleanup(self) -> None:
        shutil.rmtree(self.base, ignore_errors=True)


def shell(cmd: str) -> tuple[str, dict]:
    return ("run_shell_command", {"command": cmd})


def main_requests(model: ScriptedModel) -> list[dict]:
    """The requests of the main agent: Qwen 0.24.4 may also run a background "managed memory
    extraction subagent" after a turn (memory.enableManagedAutoMemory, default on), whose
    requests reach the same server with a system prompt of their own."""
    out = []
    for _, body in model.requests:
        msgs = body.get("messages") or []
        first = json.dumps(msgs[0].get("content")) if msgs else ""
        if "managed memory extraction subagent" not in first:
            out.append(body)
    return out


def offered_first(model: ScriptedModel) -> set[str]:
    reqs = main_requests(model)
    return {t["function"]["name"] for t in (reqs[0].get("tools") or [])} if reqs else set()


def main_results(model: ScriptedModel) -> list[str]:
    """The tool results in the main agent's last request."""
    reqs = main_requests(model)
    if not reqs:
        return []
    return [json.dumps(m.get("content")) for m in reqs[-1].get("messages") or []
            if isinstance(m, dict) and m.get("role") == "tool"]


def request_text(model: ScriptedModel) -> str:
    return json.dumps([b for _, b in model.requests])


def tail(s: str, n: int = 400) -> str:
    s = "\n".join(l for l in s.splitlines() if "Ripgrep not available" not in l)
    return s[-n:]


def normalize(value, base: str):
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if k == "timestamp":
                out[k] = "2026-12-01T09:00:00.000Z" if isinstance(v, str) else 1764493200000
            elif k in ("transcript_path",) and isinstance(v, str):
                out[k] = "<transcript>"
            elif k in ("duration_ms", "durationMs"):
                out[k] = 1
            else:
                out[k] = normalize(v, base)
        return out
    if isinstance(value, list):
        return [normalize(v, base) for v in value]
    if isinstance(value, str):
        value = re.sub(r"^toolu_\d+_[0-9a-z]+$", "toolu_<time>_<rand>", value)
        return _UUID.sub("<uuid>", value.replace(base, "<base>"))
    return value


# ---- scenarios ------------------------------------------------------------------------------
def sc_version() -> dict:
    """`qwen --version`: its output, wall time of 5 runs, and what it writes (nothing)."""
    s = Scratch("version")
    times = []
    for _ in range(5):
        t0 = time.monotonic()
        r = s.cli("--version")
        times.append(round(time.monotonic() - t0, 3))
    out = {"stdout": r.stdout, "rc": r.returncode, "seconds": sorted(times),
           "home_after": sorted(str(p.relative_to(s.home)) for p in s.home.rglob("*"))}
    s.cleanup()
    return out


def sc_home() -> dict:
    """What a turn writes into ~/.qwen by itself; QWEN_HOME moves it."""
    out = {}
    for label, extra in (("HOME", {}), ("QWEN_HOME", {"QWEN_HOME": ""})):
        s = Scratch("home")
        env = {}
        if label == "QWEN_HOME":
            env["QWEN_HOME"] = str(s.base / "qh")
            s.qdir = s.base / "qh"
        s.settings({"$version": 4, "hooks": s.hooks_for(("SessionStart",))})
        with ScriptedModel(command="", calls=[shell("echo hi > out.txt")]) as m:
            r, dt = s.run(m, **env)
        out[label] = {"rc": r.returncode, "seconds": dt, "hook_fired": "SessionStart" in s.fired(),
                      "hook_env": sorted((s.store / "SessionStart.0.env").read_text().splitlines())
                      if (s.store / "SessionStart.0.env").exists() else None,
                      "written": sorted(str(p.relative_to(s.base)) for p in s.base.rglob("*")
                                        if not str(p.relative_to(s.base)).startswith(("store", "bin", "work")))}
        s.cleanup()
    return out


def sc_settings_rewrite() -> dict:
    """Does Qwen rewrite a settings file it reads? (no $version / with comments / $version 4)"""
    cases = {
        "no_version": '{\n  "general": {"vimMode": false}\n}\n',
        "no_version_comments": '// mine\n{\n  /* c */ "general": {"vimMode": false} // t\n}\n',
        "version4": '{\n  "$version": 4,\n  "general": {"vimMode": false}\n}\n',
        "version4_comments": '// mine\n{"$version": 4, /* c */ "general": {"vimMode": false}}\n',
        "v1_flat": '{\n  "vimMode": false,\n  "hideTips": true\n}\n',
        "legacy_tools_exclude": '{\n  "$version": 4,\n  "tools": {"exclude": ["web_fetch"]}\n}\n',
        "unknown_key": '{\n  "$version": 4,\n  "agentdeckMarker": 1\n}\n',
    }
    out = {}
    for name, text in cases.items():
        res = {}
        for where in ("user", "project", "system"):
            s = Scratch("rw")
            p = s.settings(text, where)
            with ScriptedModel(command="", calls=[]) as m:
                r, _ = s.run(m, "say hi")
            after = p.read_text()
            res[where] = {"rc": r.returncode, "changed": after != text,
                          "after": after if after != text else None,
                          "siblings": sorted(x.name for x in p.parent.iterdir() if x != p),
                          "stderr": tail(r.stderr, 300)}
            s.cleanup()
        out[name] = res
    return out


def sc_precedence() -> dict:
    """Which file wins for one key: each file sets context.fileName to its own persona file, and
    the request shows whose text the model got."""
    s = Scratch("prec")
    out = {}
    for combo in (("defaults",), ("defaults", "user"), ("defaults", "user", "project"),
                  ("defaults", "user", "project", "system")):
        for where in ("defaults", "user", "project", "system"):
            p = {"user": s.qdir / "settings.json", "project": s.work / ".qwen" / "settings.json",
                 "system": s.base / "etc" / "settings.json",
                 "defaults": s.base / "etc" / "system-defaults.json"}[where]
            if p.exists():
                p.unlink()
        for where in combo:
            s.settings({"$version": 4, "context": {"fileName": f"{where.upper()}.md"}}, where)
            s.write(f"work/{where.upper()}.md", f"persona-from-{where}\n")
        with ScriptedModel(command="", calls=[]) as m:
            r, _ = s.run(m, "say hi")
        txt = request_text(m)
        out["+".join(combo)] = [w for w in ("defaults", "user", "project", "system")
                                if f"persona-from-{w}" in txt]
    s.cleanup()
    return out


def sc_hooks() -> dict:
    """Every event registered in ~/.qwen/settings.json; one turn running one shell command."""
    s = Scratch("hooks")
    s.settings({"$version": 4, "hooks": s.hooks_for()})
    with ScriptedModel(command="", calls=[shell("echo agentdeck-capture > captured.txt")]) as m:
        r, dt = s.run(m)
    got = s.fired()
    out = {"rc": r.returncode, "seconds": dt, "stdout": tail(r.stdout), "stderr": tail(r.stderr),
           "fired": {k: len(v) for k, v in got.items()},
           "env": (s.store / "PreToolUse.0.env").read_text().splitlines()
           if (s.store / "PreToolUse.0.env").exists() else None,
           "payloads": {k: normalize(v[0], str(s.base)) for k, v in got.items()},
           # UserPromptSubmit fires again when the tool result goes back, with prompt ""
           "later": {f"{k}.continuation": normalize(v[1], str(s.base))
                     for k, v in got.items() if len(v) > 1}}
    s.cleanup()
    return out


TOOL_CALLS = {
    "read_file": lambda w: ("read_file", {"file_path": f"{w}/a.txt"}),
    "write_file": lambda w: ("write_file", {"file_path": f"{w}/new.txt", "content": "x\n"}),
    "edit": lambda w: ("edit", {"file_path": f"{w}/a.txt", "old_string": "alpha",
                                "new_string": "beta"}),
    "glob": lambda w: ("glob", {"pattern": "*.txt"}),
    "grep_search": lambda w: ("grep_search", {"pattern": "alpha"}),
    "list_directory": lambda w: ("list_directory", {"path": w}),
    "web_fetch(tool_call)": lambda w: ("tool_call", {"name": "web_fetch", "arguments": {
        "url": "http://127.0.0.1:9/x", "prompt": "summarize"}}),
    "tool_search": lambda w: ("tool_search", {"query": "select:web_fetch"}),
}


#: settings a tool needs to be offered at all (list_directory is opt-in in 0.24.4)
TOOL_SETTINGS = {"list_directory": {"tools": {"listDirectory": {"enabled": True}}}}


def sc_tools() -> dict:
    """The PreToolUse payload of each built-in tool (name and argument keys)."""
    out = {}
    for label, mk in TOOL_CALLS.items():
        s = Scratch("tools")
        s.write("work/a.txt", "alpha\n")
        s.settings({"$version": 4, **TOOL_SETTINGS.get(label, {}),
                    "hooks": s.hooks_for(("PreToolUse", "PostToolUse", "PostToolUseFailure"))})
        with ScriptedModel(command="", call=mk(str(s.work))) as m:
            r, _ = s.run(m)
        got = s.fired()
        out[label] = {"rc": r.returncode, "offered": mk(str(s.work))[0] in offered_first(m),
                      "fired": {k: len(v) for k, v in got.items()},
                      "pre": [normalize({k: p.get(k) for k in ("tool_name", "tool_input")},
                                        str(s.base)) for p in got.get("PreToolUse", [])],
                      "post_keys": sorted(got["PostToolUse"][0]) if got.get("PostToolUse") else None,
                      "failure": normalize(got["PostToolUseFailure"][0], str(s.base))
                      if got.get("PostToolUseFailure") else None,
                      "result": [t[:160] for t in main_results(m)]}
        if got.get("PreToolUse"):
            out[label]["payload"] = normalize(got["PreToolUse"][0], str(s.base))
        s.cleanup()
    return out


DENY = {
    "exit2_stderr": (2, "blocked-by-exit2"),
    "exit1_stderr": (1, "exit1-text"),
    "exit0_decision_block": (0, {"decision": "block", "reason": "blocked-by-decision"}),
    "exit0_decision_deny": (0, {"decision": "deny", "reason": "blocked-by-decision-deny"}),
    "exit0_permissionDecision_deny": (0, {"hookSpecificOutput": {
        "hookEventName": "PreToolUse", "permissionDecision": "deny",
        "permissionDecisionReason": "blocked-by-pd"}}),
    "exit0_permissionDecision_ask": (0, {"hookSpecificOutput": {
        "hookEventName": "PreToolUse", "permissionDecision": "ask",
        "permissionDecisionReason": "ask-by-pd"}}),
    "exit0_continue_false": (0, {"continue": False, "stopReason": "stop-by-continue"}),
    "exit0_garbage_json": (0, "{not json"),
    "crash_127": (127, ""),
    "timeout": ("timeout", ""),
    "exit2_empty": (2, ""),
}


def sc_deny() -> dict:
    """What a PreToolUse hook's answer does to a shell call (does the command run?)."""
    out = {}
    for label, (code, answer) in DENY.items():
        s = Scratch("deny")
        if code == "timeout":
            cmd = f"sleep 5; {s.hook} PreToolUse 0"
            hooks = {"PreToolUse": [{"hooks": [{"type": "command", "command": cmd, "timeout": 1}]}]}
        elif code == 127:
            hooks = {"PreToolUse": [{"hooks": [{"type": "command",
                                                "command": f"{s.base}/no-such-program"}]}]}
        else:
            extra = ""
            if isinstance(answer, dict) or label == "exit0_garbage_json":
                f = s.write("answer.json", answer if isinstance(answer, str) else json.dumps(answer))
                extra = str(f)
            elif answer:
                extra = answer
            hooks = s.hooks_for(("PreToolUse",), code=code, extra=extra)
        s.settings({"$version": 4, "hooks": hooks})
        with ScriptedModel(command="", calls=[shell("echo ran > ran.txt")]) as m:
            r, dt = s.run(m)
        out[label] = {"rc": r.returncode, "seconds": dt, "command_ran": (s.work / "ran.txt").exists(),
                      "tool_result": [t[:300] for t in main_results(m)],
                      "stdout": tail(r.stdout, 200), "stderr": tail(r.stderr, 300)}
        s.cleanup()
    return out


def sc_switches() -> dict:
    """disableAllHooks, admin (system) hooks, project hooks and folder trust."""
    out = {}

    def one(label, files, args=(), env=None):
        s = Scratch("sw")
        for where, data in files(s).items():
            s.settings(data, where)
        with ScriptedModel(command="", calls=[shell("echo ran > ran.txt")]) as m:
            r, _ = s.run(m, args=args, **(env or {}))
        got = s.fired()
        out[label] = {"rc": r.returncode, "fired": sorted(got),
                      "command_ran": (s.work / "ran.txt").exists(), "stderr": tail(r.stderr, 300)}
        s.cleanup()

    pre = lambda s, tag, code=0: {"PreToolUse": [{"hooks": [{"type": "command",
                                                             "command": f"{s.hook} {tag} {code} deny-{tag}"}]}]}
    one("user_disableAllHooks", lambda s: {"user": {"$version": 4, "disableAllHooks": True,
                                                    "hooks": pre(s, "user")}})
    one("user_disableAllHooks+system_hook_exit2", lambda s: {
        "user": {"$version": 4, "disableAllHooks": True},
        "system": {"$version": 4, "hooks": pre(s, "system", 2)}})
    one("system_hook_exit2", lambda s: {"system": {"$version": 4, "hooks": pre(s, "system", 2)}})
    one("systemdefaults_hook", lambda s: {"defaults": {"$version": 4, "hooks": pre(s, "defaults")}})
    one("project_hook_default_trust", lambda s: {"project": {"$version": 4, "hooks": pre(s, "project")}})
    one("project_hook_folderTrust_on_untrusted", lambda s: {
        "user": {"$version": 4, "security": {"folderTrust": {"enabled": True}}},
        "project": {"$version": 4, "hooks": pre(s, "project")}})
    one("project_disableAllHooks_vs_user_hook", lambda s: {
        "user": {"$version": 4, "hooks": pre(s, "user")},
        "project": {"$version": 4, "disableAllHooks": True}})
    one("user_hook_matcher_nomatch", lambda s: {"user": {"$version": 4, "hooks": {"PreToolUse": [
        {"matcher": "read_file", "hooks": [{"type": "command", "command": f"{s.hook} m 2 x"}]}]}}})
    one("user_hook_matcher_regex", lambda s: {"user": {"$version": 4, "hooks": {"PreToolUse": [
        {"matcher": "run_shell.*", "hooks": [{"type": "command", "command": f"{s.hook} m 2 x"}]}]}}})
    one("user_hook_matcher_Bash", lambda s: {"user": {"$version": 4, "hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": f"{s.hook} m 2 x"}]}]}}})
    one("user_hook_safe_mode", lambda s: {"user": {"$version": 4, "hooks": pre(s, "user", 2)}},
        args=("--safe-mode",))
    one("user_hook_bare", lambda s: {"user": {"$version": 4, "hooks": pre(s, "user", 2)}},
        args=("--bare",))
    one("user_hook_hooks_disabled_list", lambda s: {"user": {"$version": 4, "hooks": {
        **pre(s, "user", 2), "disabled": [f"{s.hook} user 2 deny-user"]}}})
    one("user_hook_hooks_enabled_false", lambda s: {"user": {"$version": 4, "hooks": {
        **pre(s, "user", 2), "enabled": False}}})
    one("system_disableAllHooks_false_vs_project_true", lambda s: {
        "system": {"$version": 4, "disableAllHooks": False},
        "user": {"$version": 4, "hooks": pre(s, "user", 2)},
        "project": {"$version": 4, "disableAllHooks": True}})
    one("user_disableAllHooks_false_vs_project_true", lambda s: {
        "user": {"$version": 4, "disableAllHooks": False, "hooks": pre(s, "user", 2)},
        "project": {"$version": 4, "disableAllHooks": True}})
    def trusted(s):
        s.write("home/.qwen/trustedFolders.json", {str(s.work): "TRUST_FOLDER"})
        return {"user": {"$version": 4, "security": {"folderTrust": {"enabled": True}}},
                "project": {"$version": 4, "hooks": pre(s, "project")}}
    one("project_hook_folderTrust_on_trusted", trusted)
    one("lowercase_event", lambda s: {"user": {"$version": 4, "hooks": {
        "preToolUse": [{"hooks": [{"type": "command", "command": f"{s.hook} lc 2 x"}]}]}}})
    return out


def _marker_server(s: Scratch, name: str) -> dict:
    return {"command": sys.executable, "args": [str(HERE / "mcp_start_marker.py"),
                                                str(s.base / f"marker-{name}")]}


def sc_mcp() -> dict:
    """Which settings keep a configured stdio server from starting (a marker proves a start)."""
    out = {}
    variants = {
        "plain": lambda s: {"mcpServers": {"srv": _marker_server(s, "srv")}},
        "entry_disabled_true": lambda s: {"mcpServers": {"srv": {**_marker_server(s, "srv"),
                                                                 "disabled": True}}},
        "entry_enabled_false": lambda s: {"mcpServers": {"srv": {**_marker_server(s, "srv"),
                                                                 "enabled": False}}},
        "mcp_excluded": lambda s: {"mcpServers": {"srv": _marker_server(s, "srv")},
                                   "mcp": {"excluded": ["srv"]}},
        "mcp_allowed_other": lambda s: {"mcpServers": {"srv": _marker_server(s, "srv"),
                                                       "other": _marker_server(s, "other")},
                                        "mcp": {"allowed": ["other"]}},
        "legacy_excludeMCPServers": lambda s: {"mcpServers": {"srv": _marker_server(s, "srv")},
                                               "excludeMCPServers": ["srv"]},
    }
    for label, mk in variants.items():
        s = Scratch("mcp")
        s.settings({"$version": 4, **mk(s),
                    "hooks": s.hooks_for(("PreToolUse",))})
        with ScriptedModel(command="", calls=[]) as m:
            r, dt = s.run(m, "say hi")
        markers = {p.name: p.read_text().split() for p in s.base.glob("marker-*")}
        offered = sorted(n for n in offered_first(m) if "srv" in n or "probe" in n)
        text = request_text(m)
        out[label] = {"rc": r.returncode, "seconds": dt, "markers": markers,
                      "offered": offered, "probe_tool_in_request": "probe_tool" in text,
                      "stderr": tail(r.stderr, 300)}
        s.cleanup()
    # the tool call itself: name as offered and as the hook sees it
    s = Scratch("mcpcall")
    s.settings({"$version": 4, "mcpServers": {"Srv.Dot": {
        "command": sys.executable, "args": [str(HERE / "mcp_marker_server.py"),
                                            str(s.base / "called"), "leave.marker-v2"]}},
        "hooks": s.hooks_for(("PreToolUse", "PostToolUse"))})
    with ScriptedModel(command="", calls=[]) as m:
        s.run(m, "say hi")
    names = sorted(n for n in offered_first(m) if "marker" in n.lower() or "srv" in n.lower())
    text = request_text(m)
    deferred = [n for n in re.findall(r"mcp__[A-Za-z0-9_-]+", text) if "marker" in n]
    out["naming"] = {"offered": names, "deferred_mentions": sorted(set(deferred))[:5]}
    target = names[0] if names else (deferred[0] if deferred else None)
    if target:
        call = (target, {"note": "hello"}) if names else (
            "tool_call", {"name": target, "arguments": {"note": "hello"}})
        with ScriptedModel(command="", call=call) as m2:
            r, _ = s.run(m2)
        got = s.fired()
        out["call"] = {"rc": r.returncode, "called": (s.base / "called").exists(),
                       "via": call[0],
                       "pre": normalize(got.get("PreToolUse", [{}])[0], str(s.base))}
    s.cleanup()
    return out


def sc_mcp_deny() -> dict:
    """A PreToolUse hook exiting 2 on an MCP tool reached through tool_call: does the tool run?"""
    out = {}
    for label, matcher in (("no_matcher", None), ("matcher_mcp__.*", "mcp__.*"),
                           ("matcher_tool_call", "tool_call")):
        s = Scratch("mcpdeny")
        s.settings({"$version": 4, "mcpServers": {"Srv.Dot": {
            "command": sys.executable, "args": [str(HERE / "mcp_marker_server.py"),
                                                str(s.base / "called"), "leave.marker-v2"]}},
            "hooks": s.hooks_for(("PreToolUse",), code=2, extra="deny-mcp", matcher=matcher)})
        call = ("tool_call", {"name": "mcp__Srv_Dot__leave_marker-v2_1vmvmv7",
                              "arguments": {"note": "hello"}})
        with ScriptedModel(command="", calls=[call]) as m:
            r, _ = s.run(m)
        out[label] = {"rc": r.returncode, "tool_ran": (s.base / "called").exists(),
                      "hook_fired": bool(s.fired()), "tool_result": [t[:200] for t in main_results(m)],
                      "stderr": tail(r.stderr, 200)}
        s.cleanup()
    return out


def sc_mcp_cli() -> dict:
    """qwen mcp add / list / remove: output and the file each writes."""
    s = Scratch("mcpcli")
    out = {}
    steps = [("add", ["mcp", "add", "m1", sys.executable, str(HERE / "mcp_start_marker.py"),
                      str(s.base / "marker-m1")]),
             ("add_project", ["mcp", "add", "--scope", "project", "m2", "echo", "x"]),
             ("list", ["mcp", "list"]),
             ("remove", ["mcp", "remove", "m1"]),
             ("list2", ["mcp", "list"])]
    for label, args in steps:
        r = s.cli(*args)
        out[label] = {"rc": r.returncode, "stdout": tail(r.stdout, 600), "stderr": tail(r.stderr, 300),
                      "user_settings": (s.qdir / "settings.json").read_text()
                      if (s.qdir / "settings.json").exists() else None,
                      "project_settings": (s.work / ".qwen" / "settings.json").read_text()
                      if (s.work / ".qwen" / "settings.json").exists() else None,
                      "marker": (s.base / "marker-m1").read_text().split()
                      if (s.base / "marker-m1").exists() else None}
    r = s.cli("mcp", "add", "--help")
    out["add_help"] = tail(r.stdout, 3000)
    s.cleanup()
    return out


def sc_persona() -> dict:
    """QWEN.md (global, project, context.fileName): is its text in the model's request?"""
    out = {}
    cases = {
        "global_QWEN.md": lambda s: s.write("home/.qwen/QWEN.md", "persona-global-qwen\n"),
        "project_QWEN.md": lambda s: s.write("work/QWEN.md", "persona-project-qwen\n"),
        "project_AGENTS.md": lambda s: s.write("work/AGENTS.md", "persona-project-agents\n"),
        "global_AGENTS.md": lambda s: s.write("home/.qwen/AGENTS.md", "persona-global-agents\n"),
        "project_CLAUDE.md": lambda s: s.write("work/CLAUDE.md", "persona-project-claude\n"),
        "fileName_custom": lambda s: (s.write("home/.qwen/AGENTDECK.md", "persona-custom-name\n"),
                                      s.settings({"$version": 4, "context": {"fileName": "AGENTDECK.md"}})),
        "fileName_custom_hides_QWEN.md": lambda s: (
            s.write("home/.qwen/QWEN.md", "persona-hidden-qwen\n"),
            s.write("home/.qwen/AGENTS.md", "persona-hidden-agents\n"),
            s.write("home/.qwen/AGENTDECK.md", "persona-custom-only\n"),
            s.settings({"$version": 4, "context": {"fileName": "AGENTDECK.md"}})),
        "fileName_list": lambda s: (s.write("home/.qwen/A.md", "persona-list-a\n"),
                                    s.write("home/.qwen/QWEN.md", "persona-list-qwen\n"),
                                    s.settings({"$version": 4, "context": {"fileName": ["A.md", "QWEN.md"]}})),
    }
    for label, setup in cases.items():
        s = Scratch("ctx")
        setup(s)
        with ScriptedModel(command="", calls=[]) as m:
            r, _ = s.run(m, "say hi")
        text = request_text(m)
        marker = r"persona-(?:global|project|custom|list|hidden)-[a-z]+"
        found = sorted(set(re.findall(marker, text)))
        where = []
        for _, b in m.requests[:1]:
            for i, msg in enumerate(b.get("messages") or []):
                if re.search(marker, json.dumps(msg)):
                    where.append(f"{i}:{msg.get('role')}")
        out[label] = {"rc": r.returncode, "found": found, "in_messages": where}
        s.cleanup()
    return out


def sc_skills() -> dict:
    """Skill folders: which are listed to the model."""
    out = {}
    skill = ("---\nname: {n}\ndescription: agentdeck probe skill {n}\n---\n\nbody-of-{n}\n")
    places = {"user_qwen_skills": "home/.qwen/skills/probe-a/SKILL.md",
              "user_agents_skills": "home/.agents/skills/probe-b/SKILL.md",
              "project_qwen_skills": "work/.qwen/skills/probe-c/SKILL.md",
              "project_agents_skills": "work/.agents/skills/probe-d/SKILL.md",
              "user_claude_skills": "home/.claude/skills/probe-e/SKILL.md"}
    s = Scratch("skills")
    for label, rel in places.items():
        n = rel.split("/")[-2]
        s.write(rel, skill.format(n=n))
    with ScriptedModel(command="", calls=[("skill", {"skill": "probe-a"})]) as m:
        r, _ = s.run(m)
    text = request_text(m)
    for label, rel in places.items():
        n = rel.split("/")[-2]
        out[label] = {"listed": f"agentdeck probe skill {n}" in text}
    out["skill_call_result_has_body"] = any("body-of-probe-a" in t for t in main_results(m))
    out["rc"] = r.returncode
    s.cleanup()
    return out


def sc_permissions() -> dict:
    """A native deny layer: permissions.deny rules and tools.exclude against a real call."""
    out = {}
    cases = {
        "deny_Read_path": ({"permissions": {"deny": ["Read(//{w}/secret.txt)"]}},
                           ("read_file", {"file_path": "{w}/secret.txt"})),
        "deny_Read_relative": ({"permissions": {"deny": ["Read(secret.txt)"]}},
                               ("read_file", {"file_path": "{w}/secret.txt"})),
        "deny_read_file_tool": ({"permissions": {"deny": ["read_file"]}},
                                ("read_file", {"file_path": "{w}/secret.txt"})),
        "deny_Bash_cat": ({"permissions": {"deny": ["Bash(cat *)"]}},
                          shell("cat secret.txt > copy.txt")),
        "deny_Read_path_vs_shell_cat": ({"permissions": {"deny": ["Read(//{w}/secret.txt)"]}},
                                        shell("cat secret.txt > copy.txt")),
        "tools_exclude_shell": ({"tools": {"exclude": ["run_shell_command"]}},
                                shell("cat secret.txt > copy.txt")),
        "tools_exclude_read_file": ({"tools": {"exclude": ["read_file"]}},
                                    ("read_file", {"file_path": "{w}/secret.txt"})),
        "deny_Read_glob_vs_grep": ({"permissions": {"deny": ["Read(**/secret.txt)"]}},
                                   ("grep_search", {"pattern": "secret"})),
        "deny_Read_path_vs_shell_python": ({"permissions": {"deny": ["Read(//{w}/secret.txt)"]}},
                                           shell("python3 -c 'print(open(\"secret.txt\").read())' > copy.txt")),
        "none": ({}, ("read_file", {"file_path": "{w}/secret.txt"})),
    }
    for label, (sett, call) in cases.items():
        s = Scratch("perm")
        w = str(s.work)
        s.write("work/secret.txt", "the-secret-text\n")
        fill = lambda v: json.loads(json.dumps(v).replace("//{w}", "/" + w).replace("{w}", w))
        s.settings({"$version": 4, **fill(sett)})
        name, args = fill(list(call))
        with ScriptedModel(command="", calls=[(name, args)]) as m:
            r, _ = s.run(m)
        res = main_results(m)
        out[label] = {"rc": r.returncode, "offered": name in offered_first(m),
                      "memory_agent_ran": len(main_requests(m)) < len(m.requests),
                      "secret_reached_model": "the-secret-text" in json.dumps(res),
                      "copy_made": (s.work / "copy.txt").exists(),
                      "tool_result": [t[:300] for t in res],
                      "settings_after": json.loads((s.qdir / "settings.json").read_text())}
        s.cleanup()
    return out


def sc_invalid() -> dict:
    """A broken or odd settings file: what the turn does, and what happens to the file."""
    out = {}
    cases = {
        "user_syntax_error": ("user", '{"$version": 4, "general": }\n'),
        "project_syntax_error": ("project", '{"$version": 4, "general": }\n'),
        "user_wrong_type": ("user", '{"$version": 4, "disableAllHooks": "no", "hooks": HOOKS}\n'),
        "user_hooks_not_list": ("user", '{"$version": 4, "hooks": {"PreToolUse": {"x": 1}}}\n'),
        "user_array_root": ("user", '[]\n'),
    }
    for label, (where, text) in cases.items():
        s = Scratch("inv")
        hooks = json.dumps(s.hooks_for(("PreToolUse",), code=2, extra="deny-inv"))
        text = text.replace("HOOKS", hooks)
        p = s.settings(text, where)
        with ScriptedModel(command="", calls=[shell("echo ran > ran.txt")]) as m:
            r, _ = s.run(m)
        after = p.read_text()
        out[label] = {"rc": r.returncode, "command_ran": (s.work / "ran.txt").exists(),
                      "hook_fired": bool(s.fired()), "file_changed": after != text,
                      "after": after[:200] if after != text else None,
                      "siblings": sorted(x.name for x in p.parent.iterdir() if x.name.startswith("settings")),
                      "stdout": tail(r.stdout, 200), "stderr": tail(r.stderr, 400)}
        s.cleanup()
    return out


def sc_doctor() -> dict:
    """Commands a doctor might run: `qwen hooks`, `qwen mcp list` (does it start servers?)."""
    s = Scratch("doc")
    s.settings({"$version": 4, "mcpServers": {"on": _marker_server(s, "on"),
                                              "off": _marker_server(s, "off")},
                "mcp": {"excluded": ["off"]}})
    out = {}
    for label, args in (("hooks", ("hooks",)), ("mcp_list", ("mcp", "list"))):
        t0 = time.monotonic()
        r = s.cli(*args)
        out[label] = {"rc": r.returncode, "seconds": round(time.monotonic() - t0, 2),
                      "stdout": tail(r.stdout, 600), "stderr": tail(r.stderr, 300)}
    out["markers_after_mcp_list"] = {p.name: p.read_text().split() for p in s.base.glob("marker-*")}
    s.cleanup()
    return out


SCENARIOS = {"version": sc_version, "home": sc_home, "rewrite": sc_settings_rewrite,
             "precedence": sc_precedence, "hooks": sc_hooks, "tools": sc_tools,
             "deny": sc_deny, "switches": sc_switches, "mcp": sc_mcp, "mcpdeny": sc_mcp_deny,
             "mcpcli": sc_mcp_cli,
             "persona": sc_persona, "skills": sc_skills, "permissions": sc_permissions,
             "invalid": sc_invalid, "doctor": sc_doctor}


def capture() -> None:
    """Rewrite tests/fixtures/payloads/qwen/ from a real turn (shell) and the MCP call."""
    FIXTURES.mkdir(parents=True, exist_ok=True)
    def save(name: str, payload: dict) -> None:
        (FIXTURES / f"{name}.json").write_text(json.dumps(payload, indent=2, sort_keys=True) + "\n")

    res = sc_hooks()
    for ev, payload in {**res["payloads"], **res["later"]}.items():
        save(ev, payload)
    tools = sc_tools()
    for label, got in tools.items():
        if got.get("payload") and label != "tool_search":
            save(f"PreToolUse.{label.split('(')[0]}", got["payload"])
    if tools["web_fetch(tool_call)"].get("failure"):
        save("PostToolUseFailure", tools["web_fetch(tool_call)"]["failure"])
    mcp = sc_mcp()
    if mcp.get("call", {}).get("pre"):
        (FIXTURES / "mcp-PreToolUse.json").write_text(
            json.dumps(mcp["call"]["pre"], indent=2, sort_keys=True) + "\n")
    print("captured:", sorted(p.name for p in FIXTURES.glob("*.json")))


def main(argv: list[str]) -> int:
    if "--list" in argv:
        print("\n".join(f"{k}: {(v.__doc__ or '').strip().splitlines()[0] if v.__doc__ else ''}"
                        for k, v in SCENARIOS.items()))
        return 0
    if "--capture" in argv:
        capture()
        return 0
    names = [a for a in argv if not a.startswith("-")] or list(SCENARIOS)
    for n in names:
        if n not in SCENARIOS:
            print(f"unknown scenario {n!r}; --list shows them", file=sys.stderr)
            return 2
    for n in names:
        print(f"== {n}")
        print(json.dumps(SCENARIOS[n](), indent=1, default=str))
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
