"""In-process timings for benchmarks/run.py, each run in its own process and printed as JSON.

    python benchmarks/workers.py growth --sizes 10,100,1000 --rounds 5 --applied 10,100
    python benchmarks/workers.py mcp --sizes 10,100,1000 --targets copilot,codex,claude --rounds 5
    python benchmarks/workers.py probes --home DIR --env-json FILE

mcp:    apply, plan of the applied home, and uninstall of N MCP servers (each target's file: Copilot's
        mcp-config.json, Codex's config.toml, Claude's .claude.json), on a fresh home per size.
growth: plan time (agentdeck.core.engine.build_plan, all targets) for generated operator profiles with N MCP
        servers, N skills and N agents, on a tmp home. One warm-up plan first (lazy imports are
        start-up cost, measured elsewhere), then the sizes round-robin, `rounds` times each.
        For the `--applied` sizes also: one apply (agentdeck.core.engine.apply_plan) on a fresh home, and
        the plan of that home once it is in sync.
probes: the seconds (and the CPU seconds of the CLI it runs) of each live probe of
        `agentdeck doctor --live` (core/targets/<name>/probes.py), run one at a time on the given home
        with the given environment.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))


# ---- growth ------------------------------------------------------------------------------------
def make_profile(root: Path, n: int, name: str | None = None) -> str:
    """An operator profile `bench<n>` with n MCP servers (stdio and http alternately), n skills
    and n agents. Returns its name."""
    name = name or f"bench{n}"
    d = root / name
    (d / "skills").mkdir(parents=True, exist_ok=True)
    (d / "agents").mkdir(exist_ok=True)
    (d / "profile.toml").write_text(
        "[profile]\n"
        f'description = "generated: {n} MCP servers, {n} skills, {n} agents"\n'
        'targets = ["copilot", "codex", "claude"]\n\n'
        "[hooks]\n"
        'command = "agentdeck-hook"\n'
        "timeout = 30\n")
    (d / "AGENTS.md").write_text(f"# Generated profile\n\nA persona for a {n}-item profile.\n")
    servers = {}
    for i in range(n):
        if i % 2:
            servers[f"srv-{i:04d}"] = {"type": "http", "url": f"https://mcp{i}.example.com/mcp",
                                       "headers": {"Authorization": "Bearer ${TOKEN_%d}" % i}}
        else:
            servers[f"srv-{i:04d}"] = {"command": "npx", "args": ["-y", f"@example/mcp-{i}"],
                                       "env": {"LOG_LEVEL": "info"}}
    (d / "mcp.json").write_text(json.dumps({"mcpServers": servers}, indent=2))
    for i in range(n):
        sk = d / "skills" / f"skill-{i:04d}"
        sk.mkdir(exist_ok=True)
        (sk / "SKILL.md").write_text(
            f"---\nname: skill-{i:04d}\ndescription: Generated skill number {i} for the growth "
            "benchmark.\n---\nDo step one, then step two, then report.\n")
        (d / "agents" / f"agent-{i:04d}.md").write_text(
            f"---\nname: agent-{i:04d}\ndescription: Generated agent {i}.\n"
            "tools: Read, Grep, Bash(git diff*)\nmodel: sonnet\n---\n"
            f"You are generated agent {i}. Read the diff and report problems.\n")
    return name


def _host(home: Path):
    from agentdeck.core.host import Host

    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("XDG_", "AGENTDECK_", "COPILOT_", "CODEX_", "CLAUDE_"))}
    env["PATH"] = os.pathsep.join([os.path.dirname(sys.executable), "/usr/bin", "/bin"])
    return Host.from_environment(str(home), env=env)


def growth(sizes: list[int], rounds: int, applied: list[int]) -> dict:
    """Plan times on a fresh home (sizes round-robin, `rounds` each); then, for each size in
    `applied`, one apply on its own fresh home and `rounds` plans of that home (in sync)."""
    from agentdeck.core import engine

    out: dict = {"times": {}, "items": {}, "apply": {}, "in_sync": {}}
    with tempfile.TemporaryDirectory(prefix="agentdeck-growth-") as tmp:
        home = Path(tmp) / "home"
        home.mkdir()
        host = _host(home)
        profiles_dir = host.config_dir / "profiles"
        names = {n: make_profile(profiles_dir, n) for n in sizes}
        warm = make_profile(profiles_dir, 2, "warmup")
        engine.build_plan(host, warm)
        times: dict[int, list[float]] = {n: [] for n in sizes}
        for _ in range(rounds):
            for n in sizes:
                t0 = time.perf_counter()
                plan = engine.build_plan(host, names[n])
                times[n].append(time.perf_counter() - t0)
                out["items"][str(n)] = len(plan.items)
        out["times"] = {str(n): v for n, v in times.items()}
        for n in applied:
            home = Path(tmp) / f"applied-{n}"
            home.mkdir()
            host = _host(home)
            make_profile(host.config_dir / "profiles", n)
            plan = engine.build_plan(host, f"bench{n}")
            t0 = time.perf_counter()
            result = engine.apply_plan(host, plan)
            out["apply"][str(n)] = time.perf_counter() - t0
            if result.leftover:
                raise SystemExit(f"apply of {n} left changes: {result.leftover[:3]}")
            again = []
            for _ in range(rounds):
                t0 = time.perf_counter()
                plan = engine.build_plan(host, f"bench{n}")
                again.append(time.perf_counter() - t0)
                if plan.has_changes:
                    raise SystemExit(f"the applied {n}-item home is not in sync")
            out["in_sync"][str(n)] = again
    return out


# ---- MCP servers: apply, plan, uninstall -------------------------------------------------------
def mcp_profile(root: Path, n: int, targets: list[str]) -> str:
    """An operator profile with n MCP servers only (stdio and http alternately)."""
    name = f"mcp{n}-{'-'.join(targets)}"
    d = root / name
    d.mkdir(parents=True, exist_ok=True)
    (d / "profile.toml").write_text(
        "[profile]\n" f'description = "generated: {n} MCP servers"\n'
        f"targets = {json.dumps(targets)}\n")
    servers = {}
    for i in range(n):
        if i % 2:
            servers[f"srv-{i:04d}"] = {"type": "http", "url": f"https://mcp{i}.example.com/mcp",
                                       "headers": {"Authorization": "Bearer ${TOKEN_%d}" % i}}
        else:
            servers[f"srv-{i:04d}"] = {"command": "npx", "args": ["-y", f"@example/mcp-{i}"],
                                       "env": {"LOG_LEVEL": "info"}}
    (d / "mcp.json").write_text(json.dumps({"mcpServers": servers}, indent=2))
    return name


def mcp(sizes: list[int], targets: list[str], rounds: int) -> dict:
    """Per size, on a fresh home: one apply (agentdeck.core.engine.apply_plan: lock, backups, journal,
    writes, manifests and the plan computed again), `rounds` plans of the applied home, one
    uninstall (its plan and its apply). Each apply must leave nothing to do and the uninstall
    must leave nothing of agentdeck's outside its state dir."""
    from agentdeck.core import engine

    out: dict = {"apply": {}, "plan": {}, "uninstall": {}}
    with tempfile.TemporaryDirectory(prefix="agentdeck-mcp-") as tmp:
        warm = Path(tmp) / "warm"
        warm.mkdir()
        host = _host(warm)
        engine.apply_plan(host, engine.build_plan(host, mcp_profile(host.config_dir / "profiles", 2, targets)))
        for n in sizes:
            home = Path(tmp) / f"home-{n}"
            home.mkdir()
            host = _host(home)
            name = mcp_profile(host.config_dir / "profiles", n, targets)
            before = sorted(p.relative_to(home) for p in home.rglob("*"))
            plan = engine.build_plan(host, name, targets)
            t0 = time.perf_counter()
            result = engine.apply_plan(host, plan)
            out["apply"][str(n)] = time.perf_counter() - t0
            if result.leftover:
                raise SystemExit(f"apply of {n} servers left changes: {result.leftover[:3]}")
            again = []
            for _ in range(rounds):
                t0 = time.perf_counter()
                plan = engine.build_plan(host, name, targets)
                again.append(time.perf_counter() - t0)
                if plan.has_changes:
                    raise SystemExit(f"the applied {n}-server home is not in sync")
            out["plan"][str(n)] = again
            t0 = time.perf_counter()
            result = engine.apply_plan(host, engine.build_uninstall_plan(host, targets))
            out["uninstall"][str(n)] = time.perf_counter() - t0
            state = host.state_dir
            after = sorted(p.relative_to(home) for p in home.rglob("*")
                           if not (p == state or state in p.parents or p in state.parents))
            if result.leftover or after != [p for p in before if not (home / p == state or state in (home / p).parents or (home / p) in state.parents)]:
                raise SystemExit(f"the uninstall of {n} servers left files: {set(after) - set(before)}")
    return out


# ---- live probes -------------------------------------------------------------------------------
def probes(home: str, env: dict) -> dict:
    import resource

    from agentdeck.core.host import Host
    from agentdeck.core.targets import registry

    host = Host.from_environment(home, env=env)
    # each target's probes, as `doctor --live` runs them (core/targets/<name>/probes.py)
    wanted = [(t, fn) for t in registry.NAMES if registry.has_part(t, "probes")
              for _, fn in registry.part(t, "probes").probes(host.home, [])]

    def cpu() -> float:
        r = resource.getrusage(resource.RUSAGE_CHILDREN)
        return r.ru_utime + r.ru_stime

    out = {}
    for t, fn in wanted:
        t0, c0 = time.perf_counter(), cpu()
        res = fn(host)
        out[f"{t} {res.probe}"] = {"seconds": time.perf_counter() - t0, "cpu": cpu() - c0,
                                   "ok": res.ok, "skipped": res.skipped_reason,
                                   "error": (res.error or "")[:200]}
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("growth")
    g.add_argument("--sizes", default="10,100,1000")
    g.add_argument("--rounds", type=int, default=5)
    g.add_argument("--applied", default="10,100", help="sizes also applied, then planned in sync")
    m = sub.add_parser("mcp")
    m.add_argument("--sizes", default="10,100,1000")
    m.add_argument("--targets", default="copilot,codex,claude")
    m.add_argument("--rounds", type=int, default=5)
    p = sub.add_parser("probes")
    p.add_argument("--home", required=True)
    p.add_argument("--env-json", required=True)
    a = ap.parse_args()
    if a.cmd == "growth":
        result = growth([int(x) for x in a.sizes.split(",")], a.rounds,
                        [int(x) for x in a.applied.split(",") if x])
    elif a.cmd == "mcp":
        result = mcp([int(x) for x in a.sizes.split(",")], a.targets.split(","), a.rounds)
    else:
        result = probes(a.home, json.loads(Path(a.env_json).read_text()))
    print(json.dumps(result))


if __name__ == "__main__":
    main()
