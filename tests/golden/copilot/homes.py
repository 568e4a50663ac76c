"""GitHub Copilot CLI's golden homes: a fresh home; a messy home (the demo home: comments,
hand-set keys, an operator MCP server, an existing instructions file, a symlinked skill); a WSL
home with every directive set. The listing shows every file of the home."""
from __future__ import annotations

import json

from agentdeck.core.demo import make_demo_home
from agentdeck.core.targets.copilot.facts import copilot_disable_key
from tests.golden.golden_kit import GoldenHome, TargetGoldens


def stable_info(info: dict, host) -> tuple[dict, dict[str, str]]:
    """Each disable key checked, then replaced by a placeholder (a key hashes the wrapper's
    absolute path, which differs per temp home)."""
    info = json.loads(json.dumps(info))
    for ev in info["hooks"]["events"]:
        assert ev["disable_key"] == copilot_disable_key(ev["event"], ev["entry"])
        ev["disable_key"] = f"<copilot_disable_key({ev['event']}, action)>"
    return info, {}


def messy(host, monkeypatch):
    make_demo_home(host.home)


def wsl_with_every_directive(host, monkeypatch):
    host.env["WSL_DISTRO_NAME"] = "Ubuntu"
    real_which = host.which
    monkeypatch.setattr(host, "which",
                        lambda n: "/usr/bin/wslview" if n == "wslview" else real_which(n))
    prof = host.config_dir / "profiles" / "wsl-everything"
    (prof / "copilot").mkdir(parents=True)
    (prof / "profile.toml").write_text('[profile]\ndescription = "golden"\nextends = ["default"]\n')
    (prof / "copilot" / "settings.json").write_text(json.dumps({
        "statusLine": {"type": "command", "command": "agentdeck-statusline"},
        "theme": "dark",
        "_agentdeck": {"allowAll": True, "channels": ["brain", "amygdala"],
                       "suppressBrowserLaunch": True}}, indent=2))
    (host.home / ".bashrc").write_text("# mine\nalias ll='ls -la'\n")


GOLDENS = TargetGoldens(
    homes=(GoldenHome("fresh_home"),
           GoldenHome("messy_home", messy),
           GoldenHome("wsl_home", wsl_with_every_directive, profile="wsl-everything")),
    own=None,
    stable_info=stable_info,
)
