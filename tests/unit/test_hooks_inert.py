"""What "in sync" means: the hooks work. For each reason a registered hook cannot run,
status, the plan summary and the per-target header say "installed, hooks inert: <reason>" with
the fix, and status exits 2."""
from __future__ import annotations

import json

import pytest

from agentdeck.core import cli, engine, hooks_health
from agentdeck.core.render import render_plan
from agentdeck.core.targets import registry
from tests.registry_kit import HOOKED
from tests.target_homes import target_home


def _apply(host, names, **kw):
    assert engine.apply_plan(host, engine.build_plan(host, "default", names, **kw)).ok


def _status(host, capsys, monkeypatch, target):
    monkeypatch.setenv("PATH", host.env["PATH"])
    rc = cli.main(["status", "--home", str(host.home), "--target", target])
    out = capsys.readouterr().out
    return rc, next(ln for ln in out.splitlines() if ln.startswith(target))


def _settings(path, **keys):
    data = json.loads(path.read_text()) if path.exists() else {}
    data.update(keys)
    path.write_text(json.dumps(data, indent=2))


def test_healthy_install_is_in_sync(ghost, capsys, monkeypatch):
    _apply(ghost, HOOKED, trust_hooks=True)
    for t in HOOKED:
        rc, line = _status(ghost, capsys, monkeypatch, t)
        assert rc == 0 and line.split(None, 1)[1] == "in sync", line
    plan = engine.build_plan(ghost, "default", HOOKED)
    assert plan.summary() == "No changes. Everything is in sync."


def test_codex_untrusted(ghost, capsys, monkeypatch):
    _apply(ghost, ["codex"], trust_hooks=False)
    rc, line = _status(ghost, capsys, monkeypatch, "codex")
    assert rc == 2
    assert ("installed, hooks inert: Codex skips untrusted hooks and none of agentdeck's 10 "
            "hooks is trusted (fix: `agentdeck apply --trust-hooks`)") in line
    plan = engine.build_plan(ghost, "default", ["codex"], trust_hooks=False)
    assert plan.summary().startswith("No changes. Installed, hooks inert: codex: Codex skips")
    assert "codex  (installed, hooks inert: Codex skips" in render_plan(plan, ghost)
    # the plan that trusts them (the default) is not reported as inert: applying it fixes it;
    # status still says what is true now
    plan = engine.build_plan(ghost, "default", ["codex"])
    assert not hooks_health.inert(plan, "codex")
    assert hooks_health.inert(plan, "codex", now=True)[0].code == "codex-untrusted"
    # skipping one trust item leaves that hook untrusted: the plan says so
    trust = next(i for i in plan.items if i.label == "trust hook Stop")
    plan.decide(trust.id, "skip")
    assert hooks_health.inert(plan, "codex")[0].code == "codex-untrusted"
    _apply(ghost, ["codex"])
    assert _status(ghost, capsys, monkeypatch, "codex")[0] == 0


def test_copilot_disable_all_hooks_is_not_inert(ghost, capsys, monkeypatch):
    """Copilot 1.0.102 still runs user hooks with disableAllHooks: true (observed in a real turn,
    tests/clients/test_drill_real.py), so status must not call them inert; the doctor says why."""
    _apply(ghost, ["copilot"])
    _settings(target_home(ghost, "copilot") / "settings.json", disableAllHooks=True)
    rc, line = _status(ghost, capsys, monkeypatch, "copilot")
    assert "hooks inert" not in line
    assert not hooks_health.inert(engine.build_plan(ghost, "default", ["copilot"]), "copilot")


#: the targets whose CLI has a `disableAllHooks` setting (their health part says where)
DISABLE_ALL = [n for n in registry.NAMES if registry.has_part(n, "health")
               and hasattr(registry.part(n, "health"), "disable_all")]


@pytest.mark.parametrize("target", DISABLE_ALL)
def test_disable_all_hooks(ghost, capsys, monkeypatch, target):
    # the wording, also for a CLI that does not honour it (Copilot 1.0.102: its own test above)
    monkeypatch.setattr(hooks_health, "_disable_all_stops", lambda t: True)
    _apply(ghost, [target])
    where, fix = registry.part(target, "health").disable_all(ghost)
    assert where.startswith("~/"), where
    _settings(ghost.home / where[2:], disableAllHooks=True)
    rc, line = _status(ghost, capsys, monkeypatch, target)
    assert rc == 2
    assert f"installed, hooks inert: disableAllHooks is true in {where}" in line
    assert f"fix: {fix}" in line
    [why] = hooks_health.inert(engine.build_plan(ghost, "default", [target]), target)
    assert why.code == "disable-all"


def test_copilot_disabled_hooks(ghost, capsys, monkeypatch):
    _apply(ghost, ["copilot"])
    plan = engine.build_plan(ghost, "default", ["copilot"])
    key = next(e.disable_key for e in plan.output["copilot"].hooks.events
               if e.event == "preToolUse")
    _settings(target_home(ghost, "copilot") / "settings.json", disabledHooks=[key])
    rc, line = _status(ghost, capsys, monkeypatch, "copilot")
    assert rc == 2
    assert ("installed, hooks inert: preToolUse disabled in ~/.copilot/settings.json "
            "disabledHooks (fix: remove their keys from disabledHooks") in line


@pytest.mark.parametrize("what", ["handler", "wrapper-mode"])
def test_handler_or_wrapper_cannot_run(ghost, tmp_path, capsys, monkeypatch, what):
    _apply(ghost, ["claude"])
    if what == "handler":
        (tmp_path / "bin" / "agentdeck-hook").chmod(0o644)
        expect = f"the hook handler {tmp_path / 'bin' / 'agentdeck-hook'} is not executable"
    else:
        (target_home(ghost, "claude") / "agentdeck-hook.sh").chmod(0o644)
        expect = "the hook wrapper ~/.claude/agentdeck-hook.sh is not executable"
    rc, line = _status(ghost, capsys, monkeypatch, "claude")
    assert rc == 2 and f"installed, hooks inert: {expect}" in line, line


def test_status_json_carries_the_reasons(ghost, capsys, monkeypatch):
    _apply(ghost, ["codex"], trust_hooks=False)
    monkeypatch.setenv("PATH", ghost.env["PATH"])
    assert cli.main(["status", "--home", str(ghost.home), "--target", "codex", "--json"]) == 2
    [row] = json.loads(capsys.readouterr().out)
    assert row["hooks_inert"][0]["code"] == "codex-untrusted"
    assert row["hooks_inert"][0]["fix"] == "`agentdeck apply --trust-hooks`"


def test_nothing_installed_is_not_inert(host):
    host.env["PATH"] = "/nonexistent"          # handler missing, but nothing is registered yet
    plan = engine.build_plan(host, "default", HOOKED)
    assert not any(hooks_health.inert(plan, t) for t in plan.targets)
