"""One real offline turn of a CLI as an unprivileged user, in a private mount namespace whose
/etc and /usr/local are the test's own (private_etc.py): for the org layer's clients tests.

`turn(target, clients, ...)` lays out a scratch folder (mode 0755, the user's parts chowned to
the user), runs the spec in the namespace and returns the result with `marker` (did the tool
call the model asked for run?) and `audit` (the audit lines the hooks wrote in the user's state
dir)."""
from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

import private_etc

NOBODY = (65534, 65534)
PROMPT = "run the shell command you are given"
#: what a Gemini CLI user's settings.json needs for an offline turn (docs/facts/gemini.md
#: section 7): the API-key sign-in, no update check, no telemetry
GEMINI_AUTH = {"security": {"auth": {"selectedType": "gemini-api-key"}},
               "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False},
               "telemetry": {"enabled": False}}


#: OpenCode's home in the scratch folder ($XDG_CONFIG_HOME/opencode)
OPENCODE_HOME = "xdg/config/opencode"


def opencode_stub() -> dict[str, bytes]:
    """The files that keep OpenCode from its start-up npm install (the drill part's stub)."""
    from agentdeck.core.targets.opencode.drill import npm_stub
    return npm_stub()


def shell_tools(target: str) -> list[list[str]]:
    """The CLI's own shell tool where the scripted server does not know it by name (its drill
    part's RUNNER.shell_tools: Qwen's and Gemini's run_shell_command)."""
    from agentdeck.core.drill import runners

    r = runners.runner(target)
    return [list(t) for t in (r.shell_tools if r is not None else ())]


def prompt_last(target: str) -> bool:
    """Whether the CLI takes the prompt as its last argument, after every option (its drill
    part's RUNNER.tail: Codex's `exec`, Qwen's)."""
    from agentdeck.core.drill import runners

    r = runners.runner(target)
    return r is not None and r.tail == ("{prompt}",)


def _pkg(clients, target: str) -> str:
    """The CLI's install folder name under the clients root ("@openai/codex@0.171.0")."""
    bin_dir = clients.bin_dirs[target]                  # <root>/<pkg>@<ver>/node_modules/.bin
    return str(bin_dir.parent.parent.relative_to(clients.root))


def argv_env(target: str, base: Path, clients, user, extra_args=(), extra_env=None):
    pkg = _pkg(clients, target)
    env = {"HOME": str(base / "home"), "LANG": "C.UTF-8",
           "PATH": f"{{clients}}/{pkg}/node_modules/.bin:/usr/local/bin:/usr/bin:/bin",
           "XDG_CONFIG_HOME": str(base / "xdg/config"), "XDG_DATA_HOME": str(base / "xdg/data"),
           "XDG_STATE_HOME": str(base / "xdg/state"), "XDG_CACHE_HOME": str(base / "xdg/cache"),
           "TMPDIR": str(base / "tmp")}
    if target == "claude":
        env.update({"CLAUDE_CONFIG_DIR": str(base / "home/.claude"),
                    "ANTHROPIC_BASE_URL": "http://127.0.0.1:{port}", "ANTHROPIC_API_KEY": "sk-x",
                    "DISABLE_AUTOUPDATER": "1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1"})
        argv = ["claude", "-p", PROMPT, "--model", "sonnet"]
        argv += (["--permission-mode", "bypassPermissions"] if user else ["--allowedTools", "Bash"])
    elif target == "codex":
        env["CODEX_HOME"] = str(base / "home/.codex")
        argv = ["codex", "exec", "--skip-git-repo-check",
                "--dangerously-bypass-approvals-and-sandbox", "-c", "model_provider=fake",
                "-c", "model=gpt-5.4", "-c", 'model_providers.fake={name="fake",base_url='
                '"http://127.0.0.1:{port}/v1",wire_api="responses"}', "-c", "features.plugins=false",
                "-c", "check_for_update_on_startup=false", "-c", "analytics.enabled=false"]
    elif target == "qwen":
        env.update({"QWEN_HOME": str(base / "home/.qwen"), "QWEN_CODE_SUPPRESS_YOLO_WARNING": "1"})
        argv = ["qwen", "--auth-type", "openai", "--openai-base-url", "http://127.0.0.1:{port}/v1",
                "--openai-api-key", "x", "-m", "gpt-5.4", "--yolo"]
    elif target == "gemini":
        # the drill's recipe (core/targets/gemini/drill.py RUNNER); the sign-in is chosen in the
        # user's settings.json (GEMINI_AUTH: a system-defaults file under /tmp would be skipped)
        env.update({"GOOGLE_GEMINI_BASE_URL": "http://127.0.0.1:{port}", "GEMINI_API_KEY": "x",
                    "GEMINI_CLI_TRUST_WORKSPACE": "true"})
        argv = ["gemini", "--yolo", "-p", PROMPT]
    elif target == "opencode":
        # the drill's recipe (core/targets/opencode/drill.py RUNNER): the provider from
        # OPENCODE_CONFIG_CONTENT, the home under XDG_CONFIG_HOME (with the npm stub: OPENCODE_HOME)
        from agentdeck.core.targets.opencode.drill import RUNNER
        env.update(RUNNER.env)
        argv = ["opencode", *RUNNER.args]
    else:
        env.update({"COPILOT_HOME": str(base / "home/.copilot"), "COPILOT_OFFLINE": "true",
                    "COPILOT_PROVIDER_BASE_URL": "http://127.0.0.1:{port}/v1",
                    "COPILOT_MODEL": "gpt-5.4", "COPILOT_AUTO_UPDATE": "false"})
        argv = ["copilot", "-p", PROMPT, "--allow-all", "--no-auto-update"]
    argv += list(extra_args)
    if prompt_last(target):
        argv.append(PROMPT)
    env.update(extra_env or {})
    return argv, env


def scratch(parent: Path | None = None) -> Path:
    base = Path(tempfile.mkdtemp(prefix="agentdeck-org-", dir=parent or "/tmp"))
    os.chmod(base, 0o755)
    for d in ("home/.claude", "home/.codex", "home/.copilot", "home/.qwen", "home/.gemini", "work", "xdg/config", "xdg/data",
              "xdg/state", "xdg/cache/copilot", "tmp", "roothome"):
        (base / d).mkdir(parents=True, exist_ok=True)
    return base


def _own(base: Path, user) -> None:
    for top in ("home", "work", "xdg", "tmp"):
        for root, dirs, files in os.walk(base / top):
            os.lchown(root, *user)
            for n in dirs + files:
                os.lchown(os.path.join(root, n), *user)


def turn(target: str, clients, *, command: str, user=NOBODY, system_files=None,
         user_files=None, extra_args=(), extra_env=None, pre=(), keep=False,
         open_root=False, cwd=None) -> dict:
    """`command` and every `user_files` / `pre` text may hold {base} and {work}; `cwd`: the
    turn's folder relative to the scratch base (default: work)."""
    base = scratch()
    sub = {"{base}": str(base), "{work}": str(base / "work")}

    def fill(s: str) -> str:
        for k, v in sub.items():
            s = s.replace(k, v)
        return s

    try:
        if target == "copilot":     # the bundle Copilot unpacked once, read through the bind
            pkg = (base / "clients" if user else clients.root) / "xdg" / "copilot" / "pkg"
            os.symlink(str(pkg), base / "xdg/cache/copilot/pkg")
        user_files = dict(user_files or {})
        if target == "gemini":
            user_files.setdefault("home/.gemini/settings.json", json.dumps(GEMINI_AUTH))
        if target == "opencode":
            for rel, data in opencode_stub().items():
                user_files.setdefault(f"{OPENCODE_HOME}/{rel}", data.decode())
        for rel, text in user_files.items():
            p = base / rel
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(fill(text))
        if user:
            _own(base, user)
        argv, env = argv_env(target, base, clients, user, extra_args, extra_env)
        spec = {"base": str(base), "argv": argv, "env": {k: fill(v) for k, v in env.items()},
                "cwd": str(base / (cwd or "work")), "commands": [fill(command)],
                "user": list(user) if user else None, "clients_src": str(clients.root),
                "timeout": 120, "pre": [fill(p) for p in pre], "open_root": open_root,
                "shell_tools": shell_tools(target),
                "system_files": {k: {"text": fill(v["text"]), "mode": v.get("mode", 0o644)}
                                 for k, v in (system_files or {}).items()}}
        res = private_etc.run(spec)
        res["marker"] = (base / "work" / "marker").exists()
        audit = base / "xdg" / "state" / "agentdeck" / "audit.jsonl"
        res["audit"] = ([json.loads(ln) for ln in audit.read_text().splitlines() if ln.strip()]
                        if audit.exists() else [])
        res["base"] = str(base)
        return res
    finally:
        if not keep:
            shutil.rmtree(base, ignore_errors=True)


def as_root(clients, pre: list[str], system_files=None, keep=False) -> dict:
    """Only root's commands in the namespace (each `pre` one; {base}, {clients} filled in);
    the CLI installs are bind-mounted read-only at {base}/clients for the users they start."""
    base = scratch()
    try:
        mnt = str(base / "clients")
        fill = lambda s: s.replace("{base}", str(base)).replace("{clients}", mnt)  # noqa: E731
        spec = {"base": str(base), "argv": ["true"], "env": {"PATH": "/usr/bin:/bin"},
                "cwd": str(base), "commands": [], "user": list(NOBODY),
                "clients_src": str(clients.root), "timeout": 30, "pre": [fill(p) for p in pre],
                "system_files": {k: {"text": fill(v["text"]), "mode": v.get("mode", 0o644)}
                                 for k, v in (system_files or {}).items()}}
        res = private_etc.run(spec, timeout=600)
        res["base"] = str(base)
        return res
    finally:
        if not keep:
            shutil.rmtree(base, ignore_errors=True)


def path_of(clients, mnt: str = "{clients}") -> str:
    """A PATH with each installed CLI's bin folder as the users see it (under the bind)."""
    return ":".join(f"{mnt}/{_pkg(clients, t)}/node_modules/.bin" for t in clients.bin_dirs)
