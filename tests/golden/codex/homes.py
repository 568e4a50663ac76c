"""OpenAI Codex CLI's golden homes: a fresh home and a messy home (the demo home: a commented
config.toml with an operator MCP server, plus an existing AGENTS.md and a symlinked skill) --
both trusting agentdeck's own hooks, the default -- and `--trust-hooks` after an install with
`--no-trust-hooks`. The listing shows Codex's files (the demo's others are not Codex's)."""
from __future__ import annotations

import json

from agentdeck.core import engine
from agentdeck.core.demo import make_demo_home
from agentdeck.core.targets.codex import SPEC
from agentdeck.core.targets.codex.facts import codex_hook_state_key, codex_trusted_hash
from tests.golden.golden_kit import GoldenHome, TargetGoldens


def stable_info(info: dict, host) -> tuple[dict, dict[str, str]]:
    """Home-dependent values (trust keys and hashes name the temp home) checked, then replaced."""
    info = json.loads(json.dumps(info))
    subs: dict[str, str] = {}
    src = str(SPEC.home(host) / "hooks.json")
    for ev in info["hooks"]["events"]:
        assert ev["hash"] == codex_trusted_hash(ev["event"], None, [ev["entry"]])
        assert ev["key"] == codex_hook_state_key(src, ev["event"], 0, 0)
        subs[ev["hash"]] = f"<codex_trusted_hash({ev['event']})>"
    return info, subs


def _messy(host) -> None:
    make_demo_home(host.home)
    (SPEC.home(host) / "AGENTS.md").write_text("# My Codex notes\n\nRun the tests before committing.\n")


def messy_keeping_config(host, monkeypatch):
    """The messy home; after the run, the operator's config.toml is still the start of the file."""
    _messy(host)
    config = SPEC.home(host) / "config.toml"
    before = config.read_text()

    def after(host) -> None:
        assert config.read_text().startswith(before)
    return after


def messy_installed_untrusted(host, monkeypatch):
    """The messy home installed with --no-trust-hooks first; the golden run is --trust-hooks."""
    _messy(host)
    engine.apply_plan(host, engine.build_plan(host, "default", [SPEC.name], trust_hooks=False))


GOLDENS = TargetGoldens(
    homes=(GoldenHome("fresh_home"),
           GoldenHome("messy_home", messy_keeping_config),
           GoldenHome("messy_home_trusted", messy_installed_untrusted, trust_hooks=True)),
    own=(".codex", ".agents"),
    stable_info=stable_info,
)
