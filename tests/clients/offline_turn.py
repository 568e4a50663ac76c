"""One real agent turn of a CLI against tests/clients/scripted_model.py, per docs/facts/
(README.md "Running a real turn offline", and each CLI's file): the provider comes from the
environment or command-line overrides, so the home's own files are not edited for the turn."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

from agentdeck.core.host import Host


def turn_argv(target: str, url: str, prompt: str,
              allow: tuple[str, ...] = ()) -> tuple[list[str], dict[str, str]]:
    """(argv, extra environment) of one non-interactive turn against the server at `url`.
    `allow`: more Claude tools to allow as root, beside Bash (an MCP tool's name)."""
    if target == "copilot":
        # the default profile's MCP servers (npx -y ...) would stall the turn ~60 s offline
        off = [a for name in ("memory", "github") for a in ("--disable-mcp-server", name)]
        return (["copilot", "-p", prompt, "--allow-all", "--no-auto-update", *off],
                {"COPILOT_OFFLINE": "true", "COPILOT_PROVIDER_BASE_URL": f"{url}/v1",
                 "COPILOT_MODEL": "gpt-5.4"})
    if target == "codex":
        provider = f'{{name="fake",base_url="{url}/v1",wire_api="responses"}}'
        return (["codex", "exec", "--skip-git-repo-check",
                 "--dangerously-bypass-approvals-and-sandbox", "--dangerously-bypass-hook-trust",
                 "-c", "model_provider=fake", "-c", "model=gpt-5.4",
                 "-c", f"model_providers.fake={provider}", "-c", "features.plugins=false",
                 "-c", "check_for_update_on_startup=false", "-c", "analytics.enabled=false",
                 prompt], {})
    if target == "claude":
        mode = (["--allowedTools", ",".join(("Bash", *allow))] if os.geteuid() == 0
                else ["--permission-mode", "bypassPermissions"])
        return (["claude", "-p", prompt, "--model", "sonnet", *mode],
                {"ANTHROPIC_BASE_URL": url, "ANTHROPIC_API_KEY": "sk-offline-test"})
    if target == "qwen":
        # the drill's recipe (core/targets/qwen/drill.py RUNNER: its environment, no relaunch)
        # without its MCP allowlist: the profile's servers start as configured
        from agentdeck.core.targets.qwen.drill import RUNNER as QWEN   # local: a Qwen turn only
        return (["qwen", "--auth-type", "openai", "--openai-base-url", f"{url}/v1",
                 "--openai-api-key", "offline-test", "-m", "gpt-5.4", "--yolo", prompt],
                dict(QWEN.env))
    if target == "opencode":
        # the drill's recipe (core/targets/opencode/drill.py RUNNER): the provider from
        # OPENCODE_CONFIG_CONTENT, --auto; the profile's MCP servers start as configured
        from agentdeck.core.targets.opencode.drill import RUNNER   # local: an OpenCode turn only
        port = url.rsplit(":", 1)[1]
        return ([RUNNER.binary, *RUNNER.args, prompt],
                {k: v.replace("{port}", port) for k, v in RUNNER.env.items()})
    if target == "gemini":
        # the drill's recipe (core/targets/gemini/drill.py RUNNER) without its MCP allowlist;
        # the sign-in is chosen by the scratch host's system defaults (clientkit.py)
        from agentdeck.core.targets.gemini.drill import RUNNER as GEMINI   # local: a Gemini turn
        return (["gemini", "--yolo", "-p", prompt],
                {**GEMINI.env, "GOOGLE_GEMINI_BASE_URL": url, "GEMINI_API_KEY": "offline-test"})
    raise ValueError(target)


def run_turn(host: Host, target: str, url: str, prompt: str, cwd: Path,
             extra_env: dict[str, str] | None = None, timeout: float = 120,
             allow: tuple[str, ...] = (), extra_args: list[str] | None = None):
    """`allow`: more Claude tools to allow as root beside Bash (an MCP tool's name);
    `extra_args` are appended to the CLI's command line."""
    argv, env_extra = turn_argv(target, url, prompt, allow)
    if target == "opencode":       # no start-up npm install (docs/facts/opencode.md section 1)
        from agentdeck.core.targets.opencode import SPEC   # local: an OpenCode turn only
        from agentdeck.core.targets.opencode.drill import npm_stub   # local: as above
        for rel, data in npm_stub().items():
            p = SPEC.home(host) / rel
            if not p.exists():
                p.parent.mkdir(parents=True, exist_ok=True)
                p.write_bytes(data)
    argv = [*argv, *(extra_args or [])]
    env = dict(host.env)
    # the shell a CLI runs commands in: Claude Code 2.1.332 with no SHELL picks zsh when one is
    # installed (observed: `x='a b'; cat $x` was one word). The guard's resolver reads bash
    # (docs/policy.md), so the turns run bash unless a test says otherwise
    env.setdefault("SHELL", "/bin/bash")
    env.update(env_extra)
    env.update(extra_env or {})
    exe = None
    for d in env["PATH"].split(os.pathsep):
        if (Path(d) / argv[0]).exists():
            exe = str(Path(d) / argv[0])
            break
    assert exe, f"{argv[0]} not on the scratch PATH"
    return subprocess.run([exe, *argv[1:]], env=env, cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL)
