"""Apply and uninstall stay exact at scale. One run each, not timed (the timings are
benchmarks/run.py's row g): 1,000 MCP servers installed into the demo home -- where the operator
already has servers, comments and a hand-written config.toml -- land in each target's file, a
plan right after is empty, and the uninstall gives the home back byte for byte."""
from __future__ import annotations

import json
import tomllib

from agentdeck.core import engine
from tests.safety.safety_helpers import (available, cli_inproc, demo_home, diff_snapshots,
                                         home_snapshot, make_host, target_args)
from tests.target_homes import target_home, claude_json

N = 1000


def _profile(host, n: int) -> str:
    d = host.config_dir / "profiles" / "many"
    d.mkdir(parents=True)
    (d / "profile.toml").write_text('[profile]\ndescription = "many servers"\nextends = ["_base"]\n')
    servers = {}
    for i in range(n):
        if i % 2:
            servers[f"srv-{i:04d}"] = {"type": "http", "url": f"https://mcp{i}.example.com/mcp",
                                       "headers": {"Authorization": "Bearer ${TOKEN_%d}" % i}}
        else:
            servers[f"srv-{i:04d}"] = {"command": "npx", "args": ["-y", f"@example/mcp-{i}"],
                                       "env": {"LOG_LEVEL": "info"}}
    (d / "mcp.json").write_text(json.dumps({"mcpServers": servers}, indent=2))
    return "many"


def test_a_thousand_servers_install_into_each_targets_file_and_uninstall_byte_exact(tmp_path):
    home = demo_home(tmp_path / "home")
    host = make_host(home)
    name = _profile(host, N)
    before = home_snapshot(home)
    names = available()
    rc, out, err = cli_inproc("apply", "--home", home, "--yes", "--profile", name, *target_args(names))
    assert rc == 0, out + err
    after_install = engine.build_plan(make_host(home), name, names)
    assert not after_install.has_changes, [i.id for i in after_install.items
                                           if after_install.action(i) != "none"][:5]
    if "copilot" in names:
        servers = json.loads((target_home(host, "copilot") / "mcp-config.json").read_text())["mcpServers"]
        assert sum(k.startswith("srv-") for k in servers) == N and "my-notes" in servers
    if "codex" in names:
        text = (target_home(host, "codex") / "config.toml").read_text()
        assert sum(k.startswith("srv-") for k in tomllib.loads(text)["mcp_servers"]) == N
        assert "# " in text   # the operator's comments are still there
    if "claude" in names:
        servers = json.loads(claude_json(host).read_text())["mcpServers"]
        assert sum(k.startswith("srv-") for k in servers) == N
    rc, out, err = cli_inproc("uninstall", "--home", home, "--yes", *target_args(names))
    assert rc == 0, out + err
    after = home_snapshot(home)
    assert after == before, "uninstall of 1,000 servers did not give the home back:\n" + \
        diff_snapshots(before, after)
