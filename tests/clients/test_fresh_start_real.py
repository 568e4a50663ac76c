"""A fresh install of the default profile starts every real CLI with no warning.

The default profile's token-needing server (github, `${GITHUB_TOKEN}`) stays off without a word
from any CLI: Copilot lists it in disabledMcpServers, Codex has `enabled = false`, Claude Code
does not get it until it is switched on (it warned "Missing environment variables: GITHUB_TOKEN"
while agentdeck wrote it). Each CLI is started on a freshly applied default home with no
GITHUB_TOKEN: one real offline turn (the non-interactive start) and its `mcp list` (where Claude
reports MCP config problems); every line that warns is a failure, except those this scratch
machine causes (named below, with why)."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from offline_turn import turn_argv
from scripted_model import ScriptedModel

from agentdeck.core import engine
from agentdeck.core.targets import registry

pytestmark = pytest.mark.clients

#: every registered target
ALL = tuple(registry.NAMES)
WARNING = re.compile(r"warn|missing environment|not set|expands? to|unknown|invalid|ignored",
                     re.IGNORECASE)
#: warnings of the scratch setup, not of the installed configuration
SCRATCH = (
    # Codex refuses to put its helper binaries under a temp dir: the scratch home is one
    re.compile(r"could not create PATH aliases: Refusing to create helper binaries under "
               r"temporary dir"),
    # the scripted model's name is not one Codex knows
    re.compile(r"Model metadata for `gpt-5\.4` not found"),
    # Gemini CLI 0.61.0 on the test's dumb terminal (TERM is not a 256-colour one)
    re.compile(r"256-color support not detected"),
    # Gemini CLI 0.61.0 in the test's fresh working folder, which no one has trusted yet (an
    # interactive start asks; agentdeck does not trust folders for the operator)
    re.compile(r"MCP servers are configured but disabled because this folder is untrusted"),
)


def _exe(host, name: str) -> str:
    return next(str(Path(d) / name) for d in host.env["PATH"].split(os.pathsep)
                if (Path(d) / name).exists())


def _start(host, target: str, url: str, work: Path) -> str:
    """One non-interactive turn as an operator starts it (Codex: no hook-trust bypass, its
    hooks are trusted by the apply; Copilot: memory off for the run, it would wait for npx)."""
    argv, env = turn_argv(target, url, "say done")
    argv = [a for a in argv if a != "--dangerously-bypass-hook-trust"]
    if target == "copilot":   # only memory off for the run; github as the install left it
        argv = [a for a in argv if a not in ("--disable-mcp-server", "memory", "github")]
        argv += ["--disable-mcp-server", "memory"]
    r = subprocess.run([_exe(host, argv[0]), *argv[1:]], env={**host.env, **env}, cwd=work,
                       capture_output=True, text=True, timeout=180, stdin=subprocess.DEVNULL)
    assert r.returncode == 0, f"{target}: {r.stderr[-1500:]}"
    return r.stdout + "\n" + r.stderr


def _mcp_list(host, target: str, work: Path) -> str:
    r = subprocess.run([_exe(host, target), "mcp", "list"], env=dict(host.env), cwd=work,
                       capture_output=True, text=True, timeout=180, stdin=subprocess.DEVNULL)
    return r.stdout + "\n" + r.stderr


def _warnings(text: str) -> list[str]:
    return [ln.strip() for ln in text.splitlines()
            if WARNING.search(ln) and not any(p.search(ln) for p in SCRATCH)]


def test_a_fresh_default_install_starts_every_cli_without_a_warning(scratch_env, need, tmp_path):
    need(*ALL)
    host = scratch_env
    host.env.pop("GITHUB_TOKEN", None)
    host.env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{host.env['PATH']}"
    plan = engine.build_plan(host, "default", list(ALL), trust_hooks=True)
    assert engine.apply_plan(host, plan).ok
    work = tmp_path / "work"
    work.mkdir()
    subprocess.run(["git", "init", "-q", str(work)], check=True)
    found = {}
    with ScriptedModel(command="echo hi") as m:
        for t in ALL:
            out = _start(host, t, m.url, work) + _mcp_list(host, t, work)
            if _warnings(out):
                found[t] = _warnings(out)
    assert not found, "\n".join(f"{t}: {w}" for t, ws in found.items() for w in ws)
    # the github server is there to switch on, and off in each: not silently dropped
    servers = {t: {s.name: s for s in plan.output[t].mcp.servers} for t in ALL}
    assert all(not servers[t]["github"].enabled for t in ALL)
    assert "github" in _mcp_list(host, "copilot", work) and "github" in _mcp_list(host, "codex", work)
