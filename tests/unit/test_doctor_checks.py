"""Every static doctor check, shown able to fail: for each check a small fixture home that
triggers it (table below), and one clean home (tests/fixtures/doctor/clean + the default profile
installed on top) in which no check fires."""
from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from agentdeck.core import doctor, engine
from agentdeck.core.doctor.registry import CHECKS
from agentdeck.core.doctor.runner import _load_checks, ordered_checks
from agentdeck.core.host import Host
from agentdeck.core.targets import registry
from tests import layer_kit

_load_checks()
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "doctor"
TARGETS = tuple(registry.NAMES)


# ---- homes -------------------------------------------------------------------------------------

def make_host(home: Path, env: dict | None = None) -> Host:
    """A host on `home` whose PATH has a stub `agentdeck-hook` (the default profile's handler)
    and no real CLI, and which is not WSL unless env says so."""
    bin_dir = home.parent / "bin"
    bin_dir.mkdir(exist_ok=True)
    stub = bin_dir / "agentdeck-hook"
    if not stub.exists():
        stub.write_text("#!/bin/sh\nexit 0\n")
        stub.chmod(0o755)
    base = {"PATH": f"{bin_dir}{os.pathsep}/usr/bin{os.pathsep}/bin", "LANG": "C.UTF-8"}
    for k, v in (env or {}).items():
        base[k] = v.replace("{home}", str(home))
    h = Host.from_environment(home, env=base)
    h.osrelease_path = home / ".no-osrelease"
    h.cwd = home                # started in the home: no project folder's files
    return h


def install(host: Host) -> None:
    plan = engine.build_plan(host, "default", list(TARGETS), trust_hooks=True)   # every target
    res = engine.apply_plan(host, plan)
    assert not res.leftover


def write_files(home: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        p = home / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text.replace("{home}", str(home)))


@pytest.fixture(scope="module")
def clean(tmp_path_factory):
    """The clean home and its findings (computed once: the doctor only reads)."""
    root = tmp_path_factory.mktemp("clean")
    home = root / "home"
    shutil.copytree(FIXTURES / "clean", home, symlinks=True)
    (home / "README.md").unlink()
    # the default profile's github server reads GITHUB_TOKEN (${GITHUB_TOKEN} for Claude,
    # bearer_token_env_var for Codex): set, as on a machine where that server works
    host = make_host(home, {"GITHUB_TOKEN": "placeholder-not-a-token"})
    install(host)
    return host, doctor.run(host, "default", list(TARGETS))


def by_check(findings, check_id):
    return [f for f in findings if f.check == check_id]


# ---- the table -----------------------------------------------------------------------------------

@dataclass
class Case:
    check: str
    result: str                                   # the result the trigger must produce
    files: dict[str, str] = field(default_factory=dict)
    contains: str = ""                            # a phrase the message must contain
    env: dict[str, str] = field(default_factory=dict)
    modes: dict[str, int] = field(default_factory=dict)
    links: dict[str, str] = field(default_factory=dict)
    installed: bool = False                       # install the default profile first
    after: dict[str, str] = field(default_factory=dict)   # files written after installing
    targets: tuple[str, ...] = TARGETS
    cwd: str = ""                                 # the folder (under the home) it is started in
    wipe_hooks: bool = False                      # after installing, agentdeck's hooks removed

    @property
    def id(self) -> str:
        return f"{self.check}:{self.contains or self.result}"


def fake_cli(target: str, version: str) -> dict:
    """Case fields for a CLI installed the npm way at `version`, found on the host's PATH."""
    from agentdeck.core.facts import FACTS_BY_TARGET
    f = FACTS_BY_TARGET[target]
    pkg = f"npm/node_modules/{f.npm_package}"
    return {"files": {f"{pkg}/package.json": json.dumps({"name": f.npm_package, "version": version}),
                      f"{pkg}/cli.js": "#!/bin/sh\nexit 0\n"},
            "links": {f"npm/bin/{f.binary}": f"{{home}}/{pkg}/cli.js"},
            "modes": {f"{pkg}/cli.js": 0o755},
            "env": {"PATH": f"{{home}}/npm/bin{os.pathsep}/usr/bin{os.pathsep}/bin"}}


def _version_case(target: str) -> Case:
    return Case(f"{target}.version", "warning", contains="outside the range", targets=(target,),
                **fake_cli(target, "99.0.0"))


def _offered_case(target: str) -> Case:
    """A drill's record (core/policy/offered.py) of a CLI that offered a tool no vocabulary knows."""
    rec = {"format": 1, "targets": {target: {"9.9.9": {
        "tools": ["BrandNewTool9", "bash"], "recorded": "2026-12-04T06:00:00Z", "drill": "d"}}}}
    return Case(f"{target}.tools.offered", "warning", {
        ".local/state/agentdeck/offered-tools.json": json.dumps(rec)},
        contains="does not know: BrandNewTool9", targets=(target,))


COPILOT_HOOK = '{"version": 1, "hooks": {"sessionStart": [{"type": "command", "bash": "echo hi", "timeoutSec": 5}]}}'
SECRET = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"



def _codex_twice() -> dict[str, str]:
    """A Stop hook in hooks.json and another in config.toml, both trusted: Codex runs both."""
    from agentdeck.core.targets.codex.facts import codex_hook_state_key, codex_trusted_hash
    h1 = {"type": "command", "command": "echo one"}
    h2 = {"type": "command", "command": "echo two"}
    k1 = codex_hook_state_key("{home}/.codex/hooks.json", "Stop", 0, 0)
    k2 = codex_hook_state_key("{home}/.codex/config.toml", "Stop", 0, 0)
    return {".codex/hooks.json": json.dumps({"hooks": {"Stop": [{"hooks": [h1]}]}}),
            ".codex/config.toml": (
                '[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "echo two"\n\n'
                f'[hooks.state."{k1}"]\ntrusted_hash = "{codex_trusted_hash("Stop", None, [h1])}"\n\n'
                f'[hooks.state."{k2}"]\ntrusted_hash = "{codex_trusted_hash("Stop", None, [h2])}"\n')}


_CODEX_TWICE = _codex_twice()
CASES: list[Case] = [
    # ---- every target: version, plan, manifest
    *[_version_case(t) for t in TARGETS],
    *[_offered_case(t) for t in TARGETS],
    Case("copilot.plan", "error", {".copilot/settings.json": "{ nope"}, "cannot compute the plan"),
    # another tool's install (agentihooks 2.x, core/facts/known_tools.py) not taken over yet
    Case("copilot.takeover", "warning",
         {".agentihooks/state.json": '{"version": "2.17.0", "targets": {"global": {"copilot": {}}}}',
          ".copilot/hooks/agentihooks.json":
              '{"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": "agentihooks-hook.sh"}]}}'},
         "not taken over yet: hooks file"),
    Case("codex.takeover", "warning",
         {".agentihooks/state.json": '{"version": "2.17.0", "targets": {"global": {"codex": {}}}}',
          ".codex/hooks.json": '{"hooks": {"Stop": [{"hooks": [{"type": "command", '
                               '"command": "agentihooks-hook.sh"}]}]}}'},
         "not taken over yet: hooks file"),
    Case("claude.takeover", "warning",
         {".agentihooks/state.json": '{"version": "2.17.0", "targets": {"global": {"claude": {}}}}',
          ".claude/settings.json": '{"_managedBy": "agentihooks/scripts/install.py", "hooks": '
                                   '{"Stop": [{"hooks": [{"type": "command", "command": "x"}]}]}}'},
         "both tools' hooks run"),
    Case("codex.plan", "error", {".codex/config.toml": "model = = 1"}, "cannot compute the plan"),
    Case("claude.plan", "error", {".claude/settings.json": "{ nope"}, "cannot compute the plan"),
    Case("copilot.plan", "warning", installed=True,
         after={".copilot/settings.json": '{"disableAllHooks": true}'}, contains="conflict"),
    Case("copilot.manifest", "error", installed=True,
         after={".copilot/.agentdeck-managed.json": "{"}, contains="corrupt"),
    Case("codex.manifest", "error", installed=True,
         after={".codex/.agentdeck-managed.json": "[]"}, contains="unexpected shape"),
    Case("claude.manifest", "info", installed=True,
         after={".claude/CLAUDE.md": "my own text only\n"}, contains="deleted since"),
    # ---- Copilot
    Case("copilot.settings.parse", "error", {".copilot/settings.json": '{"model": "x",,}'},
         "does not parse"),
    Case("copilot.settings.types", "error", {".copilot/settings.json": '{"disableAllHooks": "no"}'},
         "WHOLE settings.json"),
    Case("copilot.settings.unknown-keys", "warning", {".copilot/settings.json": '{"modle": "x"}'},
         "did you mean 'model'"),
    Case("copilot.settings.unknown-keys", "warning",
         {".copilot/settings.json": '{"trustedFolders": ["/x"]}'}, "config.json"),
    Case("copilot.hooks.parse", "error", {".copilot/hooks/a.json": '{\n // no\n "hooks": {}}'},
         "no comments"),
    Case("copilot.hooks.parse", "error",
         {".copilot/hooks/a.json": '{"version": 2, "hooks": {}}'}, '"version": 2'),
    Case("copilot.hooks.parse", "error",
         {".copilot/hooks/a.json": '{"hooks": {"sessionEnd": {"bash": "x"}}}'}, "not an array"),
    Case("copilot.hooks.events", "error",
         {".copilot/hooks/a.json": '{"hooks": {"AgentStop": [{"bash": "echo"}]}}'},
         "did you mean 'agentStop'"),
    Case("copilot.hooks.events", "error",
         {".copilot/hooks/a.json": '{"hooks": {"UserPromptSubmitted": [{"bash": "echo"}]}}'},
         "did you mean 'userPromptSubmitted'"),
    Case("copilot.hooks.events", "error",
         {".copilot/hooks/a.json": '{"hooks": {"postResult": [{"bash": "echo"}]}}'}, "callback-only"),
    Case("copilot.hooks.timeout-spelling", "warning",
         {".copilot/hooks/a.json": '{"hooks": {"agentStop": [{"bash": "echo", "timeoutSeconds": 9}]}}'},
         "no timeout at all"),
    Case("copilot.hooks.timeout-spelling", "warning",
         {".copilot/settings.json": '{"hooks": {"agentStop": [{"bash": "echo", "timeoutSeconds": 9}]}}'},
         "timeoutSeconds"),
    Case("copilot.hooks.schema", "error",
         {".copilot/hooks/a.json": '{"hooks": {"preToolUse": [{"bash": "echo", "timeoutSec": 0}]}}'},
         "positive number"),
    Case("copilot.hooks.schema", "error",
         {".copilot/hooks/a.json": '{"hooks": {"preToolUse": [{"type": "command"}]}}'}, "not neither"),
    Case("copilot.hooks.schema", "error",
         {".copilot/hooks/a.json": '{"hooks": {"agentStop": [{"type": "prompt", "prompt": "x"}]}}'},
         "prompt hook"),
    Case("copilot.hooks.schema", "error",
         {".copilot/hooks/a.json": '{"hooks": {"preToolUse": [{"type": "http", "url": "http://x"}]}}'},
         "https"),
    Case("copilot.hooks.disable-all", "error",
         {".copilot/settings.json": '{"disableAllHooks": true}', ".copilot/hooks/a.json": COPILOT_HOOK},
         "still runs the 1 user hook"),
    Case("copilot.hooks.disable-all", "warning", {".copilot/settings.json": '{"disableAllHooks": true}'},
         "does not switch user hooks off"),
    Case("copilot.hooks.inline-and-files", "warning",
         {".copilot/settings.json": json.dumps({"hooks": json.loads(COPILOT_HOOK)["hooks"]}),
          ".copilot/hooks/a.json": COPILOT_HOOK}, "fire twice"),
    Case("copilot.hooks.wrapper", "error", installed=True,
         after={".copilot/agentdeck-hook.sh": "#!/bin/sh\n"}, modes={".copilot/agentdeck-hook.sh": 0o644},
         contains="not executable"),
    Case("copilot.hooks.wrapper", "error",
         {".copilot/hooks/a.json": '{"hooks": {"sessionStart": [{"bash": "{home}/.copilot/agentdeck-hook.sh sessionStart"}]}}'},
         "is missing"),
    Case("copilot.hooks.handler", "error",
         {".copilot/hooks/a.json": '{"hooks": {"sessionStart": [{"bash": "no-such-program-xyz --flag"}]}}'},
         "not on PATH"),
    Case("copilot.hooks.handler", "error",
         {".copilot/hooks/a.json": '{"hooks": {"sessionStart": [{"bash": "python3 {home}/gone.py"}]}}'},
         "gone.py does not exist"),
    Case("copilot.hooks.handler", "error", installed=True,
         after={".copilot/agentdeck-hook.sh": "#!/bin/sh\nexec /nowhere/handler \"$1\"\n"},
         modes={".copilot/agentdeck-hook.sh": 0o755}, contains="the wrapper runs is not found"),
    Case("copilot.hooks.disabled", "info",
         {".copilot/hooks/a.json": COPILOT_HOOK,
          ".copilot/settings.json": json.dumps({"disabledHooks": ["__KEY__"]})}, "disabled by you"),
    Case("copilot.hooks.disabled", "info",
         {".copilot/settings.json": json.dumps({"disabledHooks": ["0" * 64]})}, "match no hook"),
    Case("copilot.mcp.parse", "error", {".copilot/mcp-config.json": '{"mcpServers": {'},
         "mcpServers: Required"),
    Case("copilot.mcp.parse", "error", {".copilot/mcp-config.json": '{"servers": {}}'},
         "no \"mcpServers\""),
    Case("copilot.mcp.dropped", "error",
         {".copilot/mcp-config.json": '{"mcpServers": {"x": {"type": "bogus", "command": "y"}}}'},
         "type \"bogus\""),
    Case("copilot.mcp.dropped", "error",
         {".copilot/mcp-config.json": '{"mcpServers": {"x": {"type": "http"}}}'}, "needs a url"),
    Case("copilot.mcp.dropped", "error",
         {".copilot/mcp-config.json": '{"mcpServers": {"x": {"command": "y", "args": "z"}}}'},
         "args is not an array"),
    Case("copilot.mcp.tools-wildcard", "warning",
         {".copilot/mcp-config.json": '{"mcpServers": {"x": {"command": "y", "tools": ["gh-*"]}}}'},
         "offers no tools"),
    Case("copilot.mcp.disabled-unknown", "warning",
         {".copilot/mcp-config.json": '{"mcpServers": {"notes": {"command": "y"}}}',
          ".copilot/settings.json": '{"disabledMcpServers": ["note"]}'}, "did you mean 'notes'"),
    Case("copilot.mcp.oauth-wsl", "warning",
         {".copilot/mcp-config.json": '{"mcpServers": {"x": {"type": "http", "url": "https://e", "auth": true}}}'},
         "inside WSL", env={"WSL_DISTRO_NAME": "Ubuntu"}),
    Case("copilot.mcp.oauth-wsl", "warning", {".copilot/settings.json": "{}"},
         "not a JSON array", env={"COPILOT_DEBUG_BROWSER": "wslview"}),
    Case("copilot.mcp.oauth-wsl", "warning", {".copilot/settings.json": "{}"},
         "explorer.exe", env={"COPILOT_DEBUG_BROWSER": '["/mnt/c/Windows/explorer.exe"]'}),
    Case("copilot.mcp.oauth-wsl", "warning",
         {".local/state/agentdeck/copilot.env": "export COPILOT_DEBUG_BROWSER='[\"wslview\"]'\n",
          ".copilot/settings.json": "{}"}, "never sees it"),
    Case("copilot.env.allow-all", "warning", {}, "in the environment",
         env={"COPILOT_ALLOW_ALL": "1"}),
    Case("copilot.env.allow-all", "warning",
         {".local/state/agentdeck/copilot.env": "export COPILOT_ALLOW_ALL='yes'\n"}, "env file"),
    Case("copilot.env.allow-all", "warning", {".bashrc": "export COPILOT_ALLOW_ALL=1\n"}, ".bashrc"),
    Case("copilot.env.shell-block", "warning",
         {".local/state/agentdeck/copilot.env": "export AGENTDECK_CHANNELS='a'\n"},
         "does not source it"),
    Case("copilot.env.shell-block", "error",
         {".bashrc": "# >>> agentdeck copilot environment (managed by agentdeck) >>>\n"}, "broken"),
    Case("copilot.persona.markers", "error",
         {".copilot/copilot-instructions.md": "<!-- agentdeck:end -->\nmine\n"}, "markers are broken"),
    Case("copilot.skills.links", "warning", links={".copilot/skills/gone": "{home}/nowhere"},
         contains="does not exist"),
    Case("copilot.secrets.literal", "warning",
         {".copilot/mcp-config.json": json.dumps({"mcpServers": {"gh": {"type": "http", "url": "https://x",
                                                                       "headers": {"Authorization": f"Bearer {SECRET}"}}}})},
         "github_token"),
    Case("copilot.secrets.file-mode", "error",
         {".copilot/mcp-config.json": json.dumps({"mcpServers": {"gh": {"command": "x", "env": {"T": SECRET}}}})},
         "world-readable", modes={".copilot/mcp-config.json": 0o644}),
    Case("copilot.secrets.file-mode", "error", {".copilot/config.json": "{}"}, "login tokens",
         modes={".copilot/config.json": 0o644}),
    # ---- Codex
    Case("codex.config.parse", "error", {".codex/config.toml": "model = \n"}, "does not parse"),
    Case("codex.config.types", "error", {".codex/config.toml": 'notify = "say done"\n'},
         "array of strings"),
    Case("codex.config.unknown-keys", "warning", {".codex/config.toml": 'modle = "x"\n'},
         "did you mean 'model'"),
    Case("codex.mcp.invalid", "error",
         {".codex/config.toml": '[mcp_servers.a]\nurl = "https://x"\nbearer_token = "t"\n'}, "bearer_token"),
    Case("codex.mcp.invalid", "error", {".codex/config.toml": '[mcp_servers.a]\nargs = ["x"]\n'},
         "neither command nor url"),
    Case("codex.mcp.invalid", "warning",
         {".codex/config.toml": '[mcp_servers.a]\ntype = "stdio"\ncommand = "x"\n'}, "ignores it"),
    Case("codex.hooks.parse", "error",
         {".codex/hooks.json": '{"version": 1, "hooks": {}}'}, "'version'"),
    Case("codex.hooks.parse", "error",
         {".codex/hooks.json": '{"hooks": {"Stop": [{"type": "command", "command": "x"}]}}'},
         "not a flat action"),
    Case("codex.hooks.parse", "error",
         {".codex/hooks.json": '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x", "timeout": 2.5}]}]}}'},
         "whole number"),
    Case("codex.hooks.events", "error",
         {".codex/hooks.json": '{"hooks": {"preToolUse": [{"hooks": [{"type": "command", "command": "x"}]}]}}'},
         "did you mean 'PreToolUse'"),
    Case("codex.hooks.timeout-spelling", "warning",
         {".codex/hooks.json": '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x", "timeoutSec": 5}]}]}}'},
         "600s"),
    Case("codex.hooks.schema", "warning",
         {".codex/hooks.json": '{"hooks": {"Stop": [{"hooks": [{"type": "prompt", "prompt": "x"}]}]}}'},
         "not supported yet"),
    # every problem of a file Codex skips; ${VAR} an MCP server needs, unset
    Case("codex.hooks.timeout-spelling", "warning",
         {".codex/hooks.json": '{"version": 1, "hooks": {"Stop": [{"hooks": [{"type": "command", '
                               '"command": "x", "timeoutSec": 5}]}]}}'}, "'timeoutSec'"),
    Case("claude.mcp.env-vars", "warning",
         {".claude.json": json.dumps({"mcpServers": {"gh": {
             "type": "http", "url": "https://example.com/mcp",
             "headers": {"Authorization": "Bearer ${AGENTDECK_TEST_UNSET_TOKEN}",
                         "X-Ok": "${AGENTDECK_TEST_UNSET_2:-fine}"}}}})},
         "uses ${AGENTDECK_TEST_UNSET_TOKEN} (headers.Authorization), which is not set here"),
    Case("codex.mcp.env-vars", "warning",
         {".codex/config.toml": '[mcp_servers.gh]\nurl = "https://example.com/mcp"\n'
                                'bearer_token_env_var = "AGENTDECK_TEST_UNSET_TOKEN"\n'},
         "reads AGENTDECK_TEST_UNSET_TOKEN (bearer_token_env_var), which is not set here"),
    # a server that is off reads no token: not a warning on a fresh default install
    Case("codex.mcp.env-vars", "info",
         {".codex/config.toml": '[mcp_servers.gh]\nurl = "https://example.com/mcp"\n'
                                'bearer_token_env_var = "AGENTDECK_TEST_UNSET_TOKEN"\n'
                                'enabled = false\n'},
         "is off (enabled = false); once switched on it reads AGENTDECK_TEST_UNSET_TOKEN"),
    # "fires twice" (core/targets/<name>/doctor.py)
    Case("copilot.hooks.fires-twice", "warning", installed=True,
         after={".copilot/hooks/agentihooks.json":
                '{"hooks": {"sessionStart": [{"bash": "agentihooks sessionStart"}],'
                ' "preToolUse": [{"bash": "agentihooks preToolUse", "timeoutSec": 5}]}}'},
         contains="fires twice: pre_tool_use, session_start registered by both "
                  "~/.copilot/hooks/agentdeck.json (agentdeck's hooks file) and "
                  "~/.copilot/hooks/agentihooks.json (agentihooks's hooks file)"),
    Case("copilot.hooks.fires-twice", "warning", installed=True,
         after={".copilot/config.json": '{"trustedFolders": ["{home}/repo"]}',
                "repo/.claude/settings.json":
                '{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": '
                '[{"type": "command", "command": "audit.sh"}]}]}}'},
         contains="(Claude-format hooks of a trusted repository, which Copilot loads)"),
    Case("codex.hooks.fires-twice", "warning", _CODEX_TWICE, contains="fires twice: stop"),
    Case("claude.hooks.fires-twice", "warning", installed=True,
         after={".claude/settings.local.json": json.dumps({"hooks": {"SessionStart": [
             {"hooks": [{"type": "command", "command": "{home}/.claude/agentdeck-hook.sh SessionStart"}]}]}})},
         contains="fires twice: SessionStart calls agentdeck's hook wrapper 2 times"),
    Case("codex.hooks.inline-and-file", "warning",
         {".codex/hooks.json": '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x"}]}]}}',
          ".codex/config.toml": '[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "x"\n'},
         "fire twice"),
    Case("codex.hooks.trust", "info",
         {".codex/hooks.json": '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x"}]}]}}'},
         "not trusted yet"),
    Case("codex.hooks.trust", "warning",
         {".codex/hooks.json": '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x"}]}]}}',
          ".codex/config.toml": '[hooks.state."{home}/.codex/hooks.json:stop:0:0"]\ntrusted_hash = "sha256:00"\n'},
         "modified"),
    # agentdeck's own hooks not trusted: the guard does not run in Codex, a warning (not info)
    Case("codex.hooks.trust", "warning",
         {".codex/hooks.json": '{"hooks": {"Stop": [{"hooks": [{"type": "command", '
                               '"command": "{home}/.codex/agentdeck-hook.sh Stop"}]}]}}'},
         "agentdeck's guard and audit do not run in Codex"),
    Case("codex.hooks.wrapper", "error", installed=True, modes={".codex/agentdeck-hook.sh": 0o600},
         contains="not executable"),
    Case("codex.hooks.handler", "error",
         {".codex/hooks.json": '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "/no/such/thing"}]}]}}'},
         "does not exist"),
    Case("codex.persona.markers", "error",
         {".codex/AGENTS.md": "<!-- agentdeck:begin (managed by agentdeck; edit your profile, not this block) -->\n"},
         "no end marker"),
    Case("codex.skills.links", "warning", links={".agents/skills/gone": "{home}/nowhere"},
         contains="shared with Copilot",
         targets=tuple(t for t in TARGETS if t != "copilot")),     # Copilot not checked
    Case("codex.secrets.literal", "warning",
         {".codex/config.toml": f'[mcp_servers.a]\ncommand = "x"\nenv = {{ TOKEN = "{SECRET}" }}\n'},
         "github_token"),
    Case("codex.secrets.file-mode", "error", {".codex/auth.json": "{}"}, "world-readable",
         modes={".codex/auth.json": 0o644}),
    Case("codex.secrets.file-mode", "warning",
         {".codex/config.toml": f'[mcp_servers.a]\ncommand = "x"\nenv = {{ TOKEN = "{SECRET}" }}\n'},
         "group-readable", modes={".codex/config.toml": 0o640}),
    # ---- Claude
    Case("claude.settings.parse", "error", {".claude/settings.json": '{\n  // c\n  "model": "x"\n}'},
         "no comments"),
    Case("claude.settings.types", "error", {".claude/settings.json": '{"disableAllHooks": "no"}'},
         "true or false"),
    Case("claude.settings.unknown-keys", "warning", {".claude/settings.json": '{"modle": "x"}'},
         "did you mean 'model'"),
    Case("claude.hooks.disable-all", "error",
         {".claude/settings.json": '{"disableAllHooks": true, "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo"}]}]}}'},
         "none of the 1"),
    Case("claude.sandbox.tools", "warning",
         {".claude/settings.json": '{"sandbox": {"enabled": true}}'},
         "runs every Bash command unsandboxed", env={"PATH": "/nonexistent"}),
    Case("claude.sandbox.tools", "error",
         {".claude/settings.json": '{"sandbox": {"enabled": true, "failIfUnavailable": true}}'},
         "refuses to start", env={"PATH": "/nonexistent"}),
    Case("claude.sandbox.project-off", "warning",
         {".claude/settings.json": '{"sandbox": {"enabled": true}}',
          "proj/.claude/settings.json": '{"sandbox": {"enabled": false}}'},
         "sets sandbox.enabled to false", cwd="proj/sub"),
    Case("claude.hooks.project-disable-all", "error",
         {"proj/.claude/settings.local.json": '{"disableAllHooks": true}'},
         "runs none of the hooks", cwd="proj/sub"),
    Case("claude.hooks.events", "error",
         {".claude/settings.json": '{"hooks": {"stop": [{"hooks": [{"type": "command", "command": "echo"}]}]}}'},
         "did you mean 'Stop'"),
    Case("claude.hooks.timeout-spelling", "warning",
         {".claude/settings.json": '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo", "timeoutSeconds": 3}]}]}}'},
         "timeoutSeconds"),
    Case("claude.hooks.schema", "error",
         {".claude/settings.json": '{"hooks": {"Stop": [{"type": "command", "command": "echo"}]}}'},
         "flat action"),
    Case("claude.hooks.schema", "error",
         {".claude/settings.json": '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo", "timeout": "5"}]}]}}'},
         "not a number"),
    Case("claude.hooks.wrapper", "error", installed=True,
         after={".claude/agentdeck-hook.sh": ""}, contains="not executable",
         modes={".claude/agentdeck-hook.sh": 0o644}),
    Case("claude.hooks.handler", "error",
         {".claude/settings.json": '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "~/bin/missing.sh"}]}]}}'},
         "does not exist"),
    Case("claude.mcp.invalid", "error", {".claude.json": '{"mcpServers": {"x": {"type": "http"}}}'},
         "needs a url"),
    Case("claude.mcp.invalid", "error",
         {".claude.json": '{"mcpServers": {"x": {"type": "grpc", "command": "y"}}}'}, "type \"grpc\""),
    Case("claude.persona.markers", "error",
         {".claude/CLAUDE.md": ("<!-- agentdeck:begin (managed by agentdeck; edit your profile, not this block) -->\n"
                                "<!-- agentdeck:end -->\n") * 2}, "more than one"),
    Case("claude.skills.links", "warning", links={".claude/skills/gone": "{home}/nowhere"},
         contains="does not exist"),
    Case("claude.secrets.literal", "warning",
         {".claude/settings.json": json.dumps({"env": {"ANTHROPIC_API_KEY": "sk-ant-" + "x1" * 20}})},
         "anthropic_key"),
    Case("claude.secrets.file-mode", "error", {".claude/.credentials.json": "{}"}, "world-readable",
         modes={".claude/.credentials.json": 0o644}),
    # ---- Qwen Code (docs/facts/qwen.md)
    Case("qwen.plan", "error", {".qwen/settings.json": "{ nope"}, "cannot compute the plan"),
    Case("qwen.manifest", "info", installed=True,
         after={".qwen/QWEN.md": "my own text only\n"}, contains="deleted since"),
    Case("qwen.settings.parse", "error", {".qwen/settings.json": '{"$version": 4,,}'},
         "stops every run"),
    Case("qwen.settings.version", "warning", {".qwen/settings.json": '{"general": {}}'},
         "rewrites the whole file"),
    Case("qwen.hooks.disable-all", "error",
         {".qwen/settings.json": '{"$version": 4, "disableAllHooks": true, "hooks": {"Stop": '
                                 '[{"hooks": [{"type": "command", "command": "echo"}]}]}}'},
         "the system file's neither"),
    Case("qwen.hooks.project-disable-all", "error",
         {"proj/.qwen/settings.json": '{"$version": 4, "disableAllHooks": true}'},
         "runs none of the user's hooks", cwd="proj"),
    Case("qwen.hooks.events", "error",
         {".qwen/settings.json": '{"$version": 4, "hooks": {"stop": [{"hooks": [{"type": '
                                 '"command", "command": "echo"}]}]}}'}, "did you mean 'Stop'"),
    Case("qwen.hooks.timeout-spelling", "warning",
         {".qwen/settings.json": '{"$version": 4, "hooks": {"Stop": [{"hooks": [{"type": '
                                 '"command", "command": "echo", "timeoutSec": 3}]}]}}'},
         "timeoutSec"),
    Case("qwen.hooks.timeout-unit", "warning",
         {".qwen/settings.json": '{"$version": 4, "hooks": {"Stop": [{"hooks": [{"type": '
                                 '"command", "command": "echo", "timeout": 30000}]}]}}'},
         "read as milliseconds (30 s)"),
    Case("qwen.hooks.schema", "error",
         {".qwen/settings.json": '{"$version": 4, "hooks": {"Stop": [{"type": "command", '
                                 '"command": "echo"}]}}'}, "flat action"),
    Case("qwen.hooks.wrapper", "error", installed=True,
         after={".qwen/agentdeck-hook.sh": ""}, contains="not executable",
         modes={".qwen/agentdeck-hook.sh": 0o644}),
    Case("qwen.hooks.handler", "error",
         {".qwen/settings.json": '{"$version": 4, "hooks": {"Stop": [{"hooks": [{"type": '
                                 '"command", "command": "~/bin/missing.sh"}]}]}}'},
         "does not exist"),
    Case("qwen.mcp.off-switch", "warning",
         {".qwen/settings.json": '{"$version": 4, "mcpServers": {"s": {"command": "x", '
                                 '"disabled": true}}}'}, "ignores: the server starts"),
    Case("qwen.mcp.invalid", "error",
         {".qwen/settings.json": '{"$version": 4, "mcpServers": {"s": {"args": []}}}'},
         "no command, url or httpUrl"),
    Case("qwen.persona.markers", "error",
         {".qwen/QWEN.md": ("<!-- agentdeck:begin (managed by agentdeck; edit your profile, not this block) -->\n"
                            "<!-- agentdeck:end -->\n") * 2}, "more than one"),
    Case("qwen.persona.read", "warning",
         {".qwen/settings.json": '{"$version": 4, "context": {"fileName": "AGENTDECK.md"}}'},
         "not QWEN.md"),
    Case("qwen.skills.links", "warning", links={".qwen/skills/gone": "{home}/nowhere"},
         contains="does not exist"),
    Case("qwen.secrets.literal", "warning",
         {".qwen/settings.json": json.dumps({"$version": 4, "env": {"GITHUB_TOKEN": SECRET}})},
         "github"),
    Case("qwen.secrets.file-mode", "error",
         {".qwen/settings.json": json.dumps({"$version": 4, "env": {"GITHUB_TOKEN": SECRET}})},
         "readable", modes={".qwen/settings.json": 0o644}),
    # ---- OpenCode (docs/facts/opencode.md)
    Case("opencode.plan", "error", {".config/opencode/opencode.json": "{ nope"},
         "cannot compute the plan"),
    Case("opencode.manifest", "info", installed=True,
         after={".config/opencode/AGENTS.md": "my own text only\n"}, contains="deleted since"),
    Case("opencode.config.parse", "error", {".config/opencode/opencode.json": '{"theme": 1,,}'},
         "does not parse"),
    Case("opencode.plugin.installed", "error", installed=True,
         after={".config/opencode/agentdeck-hook.sh": ""}, contains="not executable",
         modes={".config/opencode/agentdeck-hook.sh": 0o644}),
    Case("opencode.plugin.environment", "error", env={"OPENCODE_PURE": "1"},
         contains="OPENCODE_PURE=1 is set"),
    Case("opencode.plugin.environment", "warning", env={"OPENCODE_PERMISSION": '{"bash":"allow"}'},
         contains="OPENCODE_PERMISSION is set"),
    Case("opencode.plugin.environment", "warning",
         env={"OPENCODE_CONFIG_CONTENT": '{"plugin":[]}'}, contains="OPENCODE_CONFIG_CONTENT"),
    Case("opencode.plugin.environment", "info", env={"OPENCODE_DISABLE_PROJECT_CONFIG": "1"},
         contains="OPENCODE_DISABLE_PROJECT_CONFIG"),
    Case("opencode.project.layers", "warning",
         {"proj/opencode.json": '{"permission": {"bash": "allow"}}'}, "sets permission",
         cwd="proj"),
    Case("opencode.project.layers", "warning",
         {"proj/.opencode/plugins/x.js": "export const X = async () => ({});"},
         "holds plugins (x.js)", cwd="proj"),
    Case("opencode.mcp.invalid", "error",
         {".config/opencode/opencode.json": '{"mcp": {"s": {"type": "local", "command": "x"}}}'},
         "non-empty array"),
    Case("opencode.persona.markers", "error",
         {".config/opencode/AGENTS.md": ("<!-- agentdeck:begin (managed by agentdeck; edit your "
                                         "profile, not this block) -->\n"
                                         "<!-- agentdeck:end -->\n") * 2}, "more than one"),
    Case("opencode.secrets.literal", "warning",
         {".config/opencode/opencode.json": json.dumps({"provider": {"x": {"options": {
             "apiKey": SECRET}}}})}, "github"),
    Case("opencode.secrets.file-mode", "error",
         {".config/opencode/opencode.json": json.dumps({"provider": {"x": {"options": {
             "apiKey": SECRET}}}})}, "readable",
         modes={".config/opencode/opencode.json": 0o644}),
    # ---- Gemini CLI (docs/facts/gemini.md)
    Case("gemini.plan", "error", {".gemini/settings.json": "{ nope"}, "cannot compute the plan"),
    Case("gemini.manifest", "info", installed=True,
         after={".gemini/settings.json": "{}\n"}, contains="deleted since"),
    Case("gemini.settings.parse", "error", {".gemini/settings.json": '{"a": 1,,}'},
         "runs without the file's settings"),
    Case("gemini.hooks.enabled", "error",
         {".gemini/settings.json": '{"hooksConfig": {"enabled": false}, "hooks": {"AfterAgent": '
                                   '[{"hooks": [{"type": "command", "command": "echo"}]}]}}'},
         "runs no hook"),
    Case("gemini.hooks.disabled-name", "error",
         {".gemini/settings.json": '{"hooksConfig": {"disabled": ["agentdeck"]}}'},
         "runs none of agentdeck's hooks"),
    Case("gemini.hooks.system-path", "warning", env={"GEMINI_CLI_SYSTEM_SETTINGS_PATH": "/x.json"},
         contains="reads that file instead of /etc/gemini-cli/settings.json"),
    Case("gemini.hooks.project-switch", "error",
         {"proj/.gemini/settings.json": '{"hooksConfig": {"enabled": false}}'},
         "runs no hook, agentdeck's among them", cwd="proj"),
    Case("gemini.hooks.events", "error",
         {".gemini/settings.json": '{"hooks": {"PreToolUse": [{"hooks": [{"type": '
                                   '"command", "command": "echo"}]}]}}'}, "not one Gemini CLI knows"),
    Case("gemini.hooks.timeout-spelling", "warning",
         {".gemini/settings.json": '{"hooks": {"AfterAgent": [{"hooks": [{"type": '
                                   '"command", "command": "echo", "timeoutSec": 3}]}]}}'},
         "timeoutSec"),
    Case("gemini.hooks.timeout-unit", "warning",
         {".gemini/settings.json": '{"hooks": {"AfterAgent": [{"hooks": [{"type": '
                                   '"command", "command": "echo", "timeout": 30}]}]}}'},
         "is 30 milliseconds"),
    Case("gemini.hooks.schema", "error",
         {".gemini/settings.json": '{"hooks": {"AfterAgent": [{"type": "command", '
                                   '"command": "echo"}]}}'}, "flat action"),
    Case("gemini.hooks.wrapper", "error", installed=True,
         after={".gemini/agentdeck-hook.sh": ""}, contains="not executable",
         modes={".gemini/agentdeck-hook.sh": 0o644}),
    Case("gemini.hooks.handler", "error",
         {".gemini/settings.json": '{"hooks": {"AfterAgent": [{"hooks": [{"type": '
                                   '"command", "command": "~/bin/missing.sh"}]}]}}'},
         "does not exist"),
    Case("gemini.mcp.off-switch", "warning",
         {".gemini/settings.json": '{"mcpServers": {"s": {"command": "x", "disabled": true}}}'},
         "does not read: the server starts"),
    Case("gemini.mcp.invalid", "error",
         {".gemini/settings.json": '{"mcpServers": {"s": {"args": []}}}'},
         "no command, url or httpUrl"),
    Case("gemini.persona.markers", "error",
         {".gemini/GEMINI.md": ("<!-- agentdeck:begin (managed by agentdeck; edit your profile, not this block) -->\n"
                                "<!-- agentdeck:end -->\n") * 2}, "more than one"),
    Case("gemini.persona.read", "warning",
         {".gemini/settings.json": '{"context": {"fileName": "AGENTDECK.md"}}'},
         "not GEMINI.md"),
    Case("gemini.skills.links", "warning", links={".gemini/skills/gone": "{home}/nowhere"},
         contains="does not exist"),
    Case("gemini.secrets.literal", "warning",
         {".gemini/settings.json": json.dumps({"mcpServers": {"s": {"command": "x", "env": {
             "GITHUB_TOKEN": SECRET}}}})}, "github"),
    Case("gemini.secrets.file-mode", "error",
         {".gemini/settings.json": json.dumps({"mcpServers": {"s": {"command": "x", "env": {
             "GITHUB_TOKEN": SECRET}}}})}, "readable", modes={".gemini/settings.json": 0o644}),
]


def _layer_cases() -> list[Case]:
    """<target>.hooks.layers, one case per reported layer of each target's facts
    (core/targets/layers.py): the file planted where the CLI reads it."""
    out = []
    for target, layer in layer_kit.reported():
        text, names = layer_kit.trigger(layer)
        out.append(Case(f"{target}.hooks.layers", "error",
                        {layer_kit.file_of(target, layer): text}, names,
                        cwd="proj" if layer.project else ""))
    return out


CASES += _layer_cases()


def _removed_cases() -> list[Case]:
    """<target>.hooks.removed: after an install, agentdeck's hooks taken out of the CLI's
    hooks file (its entries from a shared settings file, or its own hooks file deleted)."""
    return [Case(f"{s.name}.hooks.removed", "error", contains="removed from",
                 installed=True, wipe_hooks=True, targets=(s.name,))
            for s in registry.TARGETS if s.guarded]


CASES += _removed_cases()


def _wipe_hooks(host: Host, target: str) -> None:
    plan = engine.build_plan(host, "default", [target])
    hfile = Path(plan.output[target].hooks.file)
    if any(i.type.whole_file for i in plan.items if i.path == str(hfile)):
        hfile.unlink()
    else:
        hfile.write_text("{}\n")


def _run_case(root: Path, case: Case):
    home = root / "home"
    home.mkdir()
    host = make_host(home, case.env)
    if case.installed:
        install(host)
    files = dict(case.files)
    if any("__KEY__" in v for v in files.values()):      # the disable key of COPILOT_HOOK
        from agentdeck.core.targets.copilot.facts import copilot_disable_key
        key = copilot_disable_key("sessionStart", json.loads(COPILOT_HOOK)["hooks"]["sessionStart"][0])
        files = {k: v.replace("__KEY__", key) for k, v in files.items()}
    write_files(home, files)
    write_files(home, case.after)
    for t in case.targets if case.wipe_hooks else ():
        _wipe_hooks(host, t)
    for rel, target in case.links.items():
        p = home / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        os.symlink(target.replace("{home}", str(home)), p)
    for rel, mode in case.modes.items():
        os.chmod(home / rel, mode)
    if case.cwd:
        host.cwd = home / case.cwd
    return doctor.run(host, "default", list(case.targets))


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_check_fires(tmp_path, case):
    findings = _run_case(tmp_path, case)
    mine = by_check(findings, case.check)
    assert any(f.result == case.result and case.contains in f.message for f in mine), \
        f"{case.check} did not report {case.result} {case.contains!r}: " + \
        "; ".join(f"{f.result}: {f.message}" for f in mine)
    for f in mine:
        assert str(tmp_path) not in f.message and str(tmp_path) not in (f.fix or "")
        assert f.path is None or not f.path.startswith(str(tmp_path)), f.path


def test_every_static_check_has_a_triggering_case():
    doctor_ids = {c.id for t in TARGETS for c in ordered_checks(t)}
    covered = {c.check for c in CASES}
    assert doctor_ids - covered == set()


@pytest.mark.parametrize("check_id", sorted({c.id for c in CHECKS}))
def test_check_is_quiet_on_the_clean_home(clean, check_id):
    host, findings = clean
    mine = by_check(findings, check_id)
    assert mine, f"{check_id} gave no row"
    allowed = {"ok", "skipped"} if check_id.endswith(".version") else {"ok"}
    assert {f.result for f in mine} <= allowed, [(f.result, f.message) for f in mine]


def test_clean_home_exit_zero_and_nothing_above_ok(clean):
    _, findings = clean
    from agentdeck.core.doctor.report import exit_code
    assert exit_code(findings) == 0
    assert not [f for f in findings if f.result not in ("ok", "skipped")]
