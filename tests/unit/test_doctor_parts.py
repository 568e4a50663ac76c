"""The doctor asks each target's package: its static checks (doctor part), its live probes (probes
part) and why its hooks cannot run (health part). Every registered target provides what the
interfaces (core/targets/parts/) describe, nothing below the features imports a feature, and a
target without a part is handled generically, never a KeyError."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from agentdeck.core import doctor
from agentdeck.core.doctor import live
from agentdeck.core.doctor.registry import CHECKS
from agentdeck.core.doctor.runner import _load_checks
from agentdeck.core.targets import registry
from agentdeck.core.targets.parts.probes import NOT_SUPPORTED, ProbesPart

from test_doctor_checks import make_host

REPO = Path(__file__).resolve().parents[2]
FEATURES = ("doctor", "drill", "policy", "org", "hookhandler", "cli", "app")


@pytest.mark.parametrize("name", registry.NAMES)
def test_every_target_has_its_doctor_parts(name):
    _load_checks()
    own = [c for c in CHECKS if c.target == name]
    assert own and all(c.id.startswith(f"{name}.") for c in own)
    probes = registry.part(name, "probes")
    assert isinstance(probes, ProbesPart)
    assert probes.LIVE_CHECKS and all(c.startswith(f"{name}.live.") for c in probes.LIVE_CHECKS)
    assert all(key.startswith(f"{name}.") for key, _ in probes.probes(Path("/h"), []))
    health = registry.part(name, "health")
    assert hasattr(health, "reasons") or hasattr(health, "DISABLE_ALL_STOPS")


def _imports(path: Path) -> list[str]:
    """The absolute module names a file imports (relative imports resolved)."""
    pkg = ".".join(("agentdeck", *path.parent.relative_to(REPO).parts))
    out = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = pkg.split(".")
            if node.level:
                base = base[:len(base) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            out += [mod] + [f"{mod}.{a.name}" for a in node.names]
    return out


def test_the_doctor_parts_import_no_feature():
    files = [REPO / "core" / "targets" / "parts" / f"{p}.py" for p in ("doctor", "probes", "health")]
    files += sorted((REPO / "core" / "targets" / "checks").glob("*.py"))
    for name in registry.NAMES:
        files += [REPO / "core" / "targets" / name / f"{p}.py" for p in ("doctor", "probes", "health")]
    for f in files:
        for mod in _imports(f):
            for feature in FEATURES:
                assert not (mod == f"agentdeck.core.{feature}"
                            or mod.startswith(f"agentdeck.core.{feature}.")
                            or mod.startswith(f"agentdeck.{feature}")), (f, mod)


def test_a_target_without_a_probes_part_gets_one_skipped_live_row(tmp_path, monkeypatch):
    real = registry.has_part
    monkeypatch.setattr(registry, "has_part",
                        lambda n, m: False if (n, m) == ("claude", "probes") else real(n, m))
    home = tmp_path / "home"
    home.mkdir()
    host = make_host(home)
    assert live.live_checks("claude") == ()
    fs = [f for f in doctor.run(host, targets=["claude"], live=True) if f.live]
    assert [(f.check, f.result, f.message) for f in fs] == [("claude.live", "skipped",
                                                             NOT_SUPPORTED)]


def test_a_target_without_a_health_part_has_only_the_shared_reasons(monkeypatch):
    from agentdeck.core import hooks_health
    from agentdeck.core.host import Host

    from agentdeck.core.targets.output import HookEventInfo, HooksInfo

    hooks = HooksInfo(file="", wrapper="", handler=None, events=(HookEventInfo(
        event="PreToolUse", command="", timeout=None, registered_now=True, trust_now="untrusted",
        enabled=False),))
    host = Host.from_environment("/nonexistent-home", env={})
    assert [i.code for i in hooks_health.reasons(host, "codex", hooks, None)] == [
        "codex-untrusted", "codex-disabled"]
    real = registry.has_part
    monkeypatch.setattr(registry, "has_part",
                        lambda n, m: False if (n, m) == ("codex", "health") else real(n, m))
    assert hooks_health.reasons(host, "codex", hooks, None) == []
    assert not hooks_health._disable_all_stops("codex")
