"""Apply's last word is the effect: wherever hooks would be installed inert the
plan says so before apply, trusting agentdeck's own Codex hooks is the default unless the
operator says no, an apply that leaves hooks inert ends with the reason and exit 2, trust is
only ever for agentdeck's own hooks, and --take/--keep/--skip work on every item the plan lists
(a set-aside file too), in plan as in apply."""
from __future__ import annotations

import json
import tomllib

import pytest

from agentdeck.core import cli, engine, hooks_health
from agentdeck.core.facts.known_tools import AGENTIHOOKS
from tests.clients.agentihooks_kit import init_home
from tests.target_homes import target_home


def _cli(host, capsys, monkeypatch, *argv):
    monkeypatch.setenv("PATH", host.env["PATH"])
    rc = cli.main([*argv, "--home", str(host.home)])
    out = capsys.readouterr()
    return rc, out.out, out.err


def _trusted(host) -> dict:
    p = target_home(host, "codex") / "config.toml"
    data = tomllib.loads(p.read_text()) if p.exists() else {}
    return {k: v.get("trusted_hash") for k, v in (data.get("hooks", {}).get("state", {})).items()}


def test_a_plain_apply_trusts_agentdecks_codex_hooks(ghost, capsys, monkeypatch):
    rc, out, err = _cli(ghost, capsys, monkeypatch, "apply", "--yes", "--target", "codex")
    assert rc == 0 and "hooks are inert" not in err, err
    assert out.rstrip().endswith("The plan is now empty.")
    assert len(_trusted(ghost)) == 10
    rc, out, _ = _cli(ghost, capsys, monkeypatch, "status", "--target", "codex")
    assert rc == 0 and out.split() == ["codex", "in", "sync"]


def test_no_trust_hooks_ends_with_the_reason_and_exit_2(ghost, capsys, monkeypatch):
    rc, out, err = _cli(ghost, capsys, monkeypatch, "plan", "--target", "codex",
                        "--no-trust-hooks")
    assert rc == 2
    assert "agentdeck: after this plan, codex's hooks are inert: Codex skips untrusted" in err \
        or "trust" in out     # nothing registered yet: the plan says what it will not trust
    rc, out, err = _cli(ghost, capsys, monkeypatch, "apply", "--yes", "--target", "codex",
                        "--no-trust-hooks")
    assert rc == 2 and _trusted(ghost) == {}
    last = err.strip().splitlines()[-1]
    assert last == ("agentdeck: applied, but codex's hooks are inert: Codex skips untrusted hooks "
                    "and none of agentdeck's 10 hooks is trusted (fix: `agentdeck apply "
                    "--trust-hooks`)")
    # --json carries it in the result
    rc, out, err = _cli(ghost, capsys, monkeypatch, "apply", "--yes", "--json", "--target",
                        "codex", "--no-trust-hooks")
    assert rc == 2          # nothing to apply, but still inert: said, and exit 2
    assert "nothing to apply, but codex's hooks are inert" in err
    # the fix it names works
    rc, out, err = _cli(ghost, capsys, monkeypatch, "apply", "--yes", "--json", "--target",
                        "codex", "--trust-hooks")
    assert rc == 0 and json.loads(out)["result"]["hooks_inert"] == {}
    assert len(_trusted(ghost)) == 10


def test_a_handler_that_cannot_be_found_ends_the_apply_with_exit_2(host, capsys, monkeypatch):
    host.env["PATH"] = "/nonexistent"
    rc, out, err = _cli(host, capsys, monkeypatch, "apply", "--yes", "--target", "claude")
    assert rc == 2
    assert err.strip().splitlines()[-1].startswith(
        "agentdeck: applied, but claude's hooks are inert: the hook handler agentdeck-hook is "
        "not found (fix: install agentdeck")
    rc, out, err = _cli(host, capsys, monkeypatch, "apply", "--yes", "--json", "--target", "claude")
    assert rc == 2 and "hooks are inert" in err


def test_the_layers_no_persists_and_the_main_screen_default_trusts(ghost):
    from agentdeck.app.session import Session

    s = Session(host=ghost, targets=["codex"])
    plan = s.build_plan()
    assert len([i for i in plan.items if i.label.startswith("trust hook")]) == 10
    assert s.trusts("codex")
    s.set_trust("codex", False)               # the Hooks tab's "Don't trust them"
    plan = s.build_plan()
    assert not [i for i in plan.items if plan.action(i) == "write"
                and i.label.startswith("trust hook")]
    assert engine.apply_plan(ghost, plan).ok
    s.applied()
    # saved in the layer: every later plan, `agentdeck plan` too, says no
    again = engine.build_plan(ghost, None, ["codex"])
    assert not [i for i in again.items if i.label.startswith("trust hook")]
    assert not again.has_work
    assert hooks_health.inert(again, "codex")[0].code == "codex-untrusted"
    s2 = Session(host=ghost, targets=["codex"])
    s2.build_plan()
    assert not s2.trusts("codex")
    s2.set_trust("codex", True)               # back to the default: the no is dropped
    plan = s2.build_plan()
    assert len([i for i in plan.items if i.label.startswith("trust hook")
                and plan.action(i) == "write"]) == 10
    assert engine.apply_plan(ghost, plan).ok
    assert len(_trusted(ghost)) == 10


@pytest.fixture
def aih_all(ghost):
    """The ghost host's home with agentihooks installed for every CLI it installs into (the
    targets whose takeover part knows its install: Copilot, Codex and Claude)."""
    assert AGENTIHOOKS.installs
    for t in AGENTIHOOKS.installs:
        why = init_home(ghost.home, t)
        if why:
            pytest.skip(why)
    return ghost


def test_trust_is_never_for_agentihooks_hooks(aih_all, capsys, monkeypatch):
    h = aih_all
    before = _trusted(h)
    for extra in ((), ("--trust-hooks",)):
        plan = engine.build_plan(h, "default", ["codex"], trust_hooks=True if extra else None)
        trust = [i for i in plan.items if i.label.startswith("trust hook")]
        assert trust and all(plan.action(i) == "none" for i in trust)
        assert any("agentdeck trusts none (never another tool's hooks)" in n.message
                   for n in plan.notices["codex"])
        rc, out, err = _cli(h, capsys, monkeypatch, "apply", "--yes", "--target", "codex",
                            "--keep", "~/.codex/AGENTS.md#block", *extra)
        assert rc == 2 and _trusted(h) == before, err
        assert ("codex's hooks are inert: agentdeck's hooks are not registered: ~/.codex/hooks.json "
                "holds agentihooks' hooks, kept (fix: `agentdeck apply --take ~/.codex/hooks.json`)"
                in err.strip().splitlines()[-1]), err
    # the plan with the take says what it does, and exits as apply does; the apply converges
    rc, out, err = _cli(h, capsys, monkeypatch, "plan", "--target", "codex", "--take",
                        "~/.codex/hooks.json")
    assert rc == 2 and "hooks are inert" not in err and "[foreign: taking the profile's" in out
    rc, out, err = _cli(h, capsys, monkeypatch, "apply", "--yes", "--target", "codex", "--take",
                        "~/.codex/hooks.json")
    assert rc == 0, err
    plan = engine.build_plan(h, None, ["codex"])
    ours = {e.key: e.hash for e in plan.output["codex"].hooks.events}
    assert _trusted(h) == ours and not hooks_health.inert(plan, "codex", now=True)


def test_after_a_plain_apply_on_an_agentihooks_home_each_cli_runs_ours_or_says_the_fix(
        aih_all, capsys, monkeypatch):
    h = aih_all
    rc, out, err = _cli(h, capsys, monkeypatch, "apply", "--yes",
                        "--keep", "~/.codex/AGENTS.md#block",
                        "--take", "~/.copilot/copilot-instructions.md#block")
    assert rc == 2
    rc, out, _ = _cli(h, capsys, monkeypatch, "status")
    rows = dict(ln.split(None, 1) for ln in out.splitlines())
    assert rc == 2
    # where agentihooks' hooks are not in agentdeck's own hooks item (a file of their own, or
    # inline beside agentdeck's: Copilot, Claude), agentdeck's hooks are registered by the apply
    beside = [t for t, i in AGENTIHOOKS.installs.items() if i.hooks_mode != "same-file"]
    assert beside and "codex" not in beside
    for t in beside:
        assert "hooks inert" not in rows[t], rows[t]
    assert "fix: `agentdeck apply --take ~/.codex/hooks.json`" in rows["codex"]
    plan = engine.build_plan(h, None)
    for t in beside:
        assert all(e.registered_now for e in plan.output[t].hooks.events), t
    from agentdeck.core.drill import ready
    fake = h.home.parent / "bin" / "codex"       # a codex on PATH: the drill's check starts nothing
    fake.write_text("#!/bin/sh\nexit 1\n")
    fake.chmod(0o755)
    monkeypatch.setattr(engine, "cli_version", lambda host, t: (True, "0.171.0"))
    rep = ready.check(h, "default", "codex")
    assert getattr(rep, "problems", None), rep
    assert "fix: `agentdeck apply --take ~/.codex/hooks.json`" in rep.problems[0]


def test_take_keep_skip_work_on_a_set_aside_file(ghost, capsys, monkeypatch):
    why = init_home(ghost.home, "copilot")
    if why:
        pytest.skip(why)
    aside = "~/.copilot/hooks/agentihooks.json"
    persona = "--keep=~/.copilot/copilot-instructions.md#block"
    for flag, action in (("--take", "write"), ("--keep", "none"), ("--skip", "none")):
        rc, out, err = _cli(ghost, capsys, monkeypatch, "plan", "--json", "--target", "copilot",
                            flag, aside, persona)
        assert rc == 2, err
        [it] = [i for i in json.loads(out)["items"] if i["path"].endswith("agentihooks.json")]
        assert it["action"] == action, (flag, it)
    rc, out, err = _cli(ghost, capsys, monkeypatch, "apply", "--yes", "--target", "copilot",
                        "--take", aside, persona)
    assert rc == 0, err
    assert not (target_home(ghost, "copilot") / "hooks" / "agentihooks.json").exists()
