"""A target with no hooks at all is expressible as it is (docs/adding-a-target.md): a package
whose CLI only receives MCP servers declares `enforcement=NO_GUARD` and has the three required
parts (adapter, facts, doctor), no dialect, policy or health part to fake. Registered beside
the built-in targets (in a child process: the registry, the profile model and the features read
the target list once), plan, apply, status, doctor, drill, policy show and uninstall cover it,
and none of them claims a guard there."""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from agentdeck.core.targets import registry

NAME = "mcponly"

PACKAGE = {
    "__init__.py": f'''
        """A CLI that only reads MCP servers from ~/.mcponly/mcp.json (a test target)."""
        from agentdeck.core.targets.spec import NO_GUARD, TargetSpec

        SPEC = TargetSpec(name="{NAME}", title="MCP-only CLI", short="MCPonly", binary="{NAME}",
                          npm_package="{NAME}", home_env="MCPONLY_HOME",
                          home_dirname=".{NAME}", package=__name__,
                          adapter_class="McpOnlyTarget", enforcement=NO_GUARD)
    ''',
    "facts.py": f'''
        from agentdeck.core.facts.versions import CliFacts

        FACTS = CliFacts(target="{NAME}", binary="{NAME}", npm_package="{NAME}",
                         verified_versions=("1.0.0", "1.0.0"), version_regex=r"(\\d+\\.\\d+\\.\\d+)",
                         home_env="MCPONLY_HOME", home_dirname=".{NAME}")
    ''',
    "adapter.py": '''
        from agentdeck.core.desired import Desired, DesiredState
        from agentdeck.core.targets.base import DEFAULT_OPTIONS, Target
        from . import SPEC


        class McpOnlyTarget(Target):
            spec = SPEC

            def desired(self, profile, view, options=DEFAULT_OPTIONS):
                st = DesiredState(SPEC.name)
                path = SPEC.home(view.host) / "mcp.json"
                for name, server in sorted(profile.mcp_servers.items()):
                    entry = {k: v for k, v in server.model_dump(exclude_none=True).items()
                             if k in ("command", "args", "url")}
                    st.add(Desired(SPEC.name, path, "key", entry, key=("servers", name),
                                   fmt="json", label=f"MCP server {name}", group="mcp",
                                   reason="the profile's MCP server"))
                return st
    ''',
    "doctor.py": f'''
        from agentdeck.core.targets.parts.doctor import check


        @check("{NAME}.files.mcp", ok="mcp.json is readable")
        def mcp_file(ctx, out):
            out.ok("mcp.json checked")
    ''',
}


@pytest.fixture(scope="module")
def extra(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("targets")
    pkg = root / NAME
    pkg.mkdir()
    for name, text in PACKAGE.items():
        (pkg / name).write_text(textwrap.dedent(text).lstrip())
    return root


def _run(extra: Path, home: Path, *args: str) -> subprocess.CompletedProcess:
    """`agentdeck --home HOME *args` with the test target registered after the built-in ones."""
    code = textwrap.dedent(f"""
        import sys
        import agentdeck.core.targets as targets
        targets.__path__.append({str(extra)!r})
        from agentdeck.core.targets import registry
        registry.BUILTIN = registry.BUILTIN + ({NAME!r},)
        from agentdeck.core.entry import main
        sys.argv = ["agentdeck"] + {list(("--home", str(home)) + args)!r}
        sys.exit(main())
    """)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300, env={"PATH": "/usr/bin:/bin", "HOME": str(home),
                                            "LANG": "C.UTF-8"})


@pytest.fixture
def home(tmp_path) -> Path:
    h = tmp_path / "home"
    (h / f".{NAME}").mkdir(parents=True)
    return h


def test_the_package_has_no_fake_part(extra):
    assert sorted(p.name for p in (extra / NAME).iterdir()) == sorted(PACKAGE)
    assert NAME not in registry.BUILTIN


def test_plan_apply_status_and_uninstall_cover_it(extra, home):
    plan = _run(extra, home, "--target", NAME, "--json", "plan")
    assert plan.returncode in (0, 2), plan.stderr
    assert "Traceback" not in plan.stderr
    data = json.loads(plan.stdout)
    assert NAME in json.dumps(data)
    applied = _run(extra, home, "--target", NAME, "apply", "--yes")
    assert applied.returncode == 0, applied.stdout + applied.stderr
    written = json.loads((home / f".{NAME}" / "mcp.json").read_text())
    assert written["servers"], written          # the default profile's servers
    again = _run(extra, home, "--target", NAME, "plan")
    assert again.returncode == 0, again.stdout + again.stderr
    status = _run(extra, home, "--target", NAME, "status")
    assert status.returncode == 0 and f"{NAME}  in sync" in status.stdout, status.stdout + status.stderr
    gone = _run(extra, home, "--target", NAME, "uninstall", "--yes")
    assert gone.returncode == 0, gone.stdout + gone.stderr
    assert not (home / f".{NAME}" / "mcp.json").exists() or \
        json.loads((home / f".{NAME}" / "mcp.json").read_text()) in ({}, {"servers": {}})


def test_policy_show_claims_no_guard_there(extra, home):
    shown = _run(extra, home, "policy", "show")
    assert shown.returncode == 0, shown.stdout + shown.stderr
    lines = [ln for ln in shown.stdout.splitlines() if "MCP-only CLI" in ln or NAME in ln]
    assert lines, shown.stdout
    assert lines == [f"{NAME}  (not guarded: agentdeck installs no hook and no plugin in "
                     "MCP-only CLI, so nothing sees its tool calls and no rule below holds there)"]


def test_doctor_and_drill_say_what_there_is(extra, home):
    doc = _run(extra, home, "--target", NAME, "doctor")
    assert "Traceback" not in doc.stderr, doc.stderr
    assert doc.returncode in (0, 1), doc.stdout + doc.stderr
    verdict = next(ln for ln in doc.stdout.splitlines() if "MCP-only CLI" in ln)
    assert "files only: agentdeck installs no guard in this CLI" in verdict
    assert "nothing to drill" in verdict and "hook" not in verdict.replace("no guard", "")
    drill = _run(extra, home, "--target", NAME, "drill")
    assert "Traceback" not in drill.stderr, drill.stderr
    assert "nothing to drill: agentdeck installs no guard in MCP-only CLI" in drill.stdout, \
        drill.stdout + drill.stderr
