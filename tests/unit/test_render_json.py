"""The text plan is a rendering of the JSON plan (as terraform renders its JSON plan): on the
golden homes, the text drawn from the serialized JSON document alone is the text the CLI
prints, and it lists the same items with the same counts."""
from __future__ import annotations

import json
import re

import pytest

from agentdeck.core import cli, engine
from agentdeck.core.demo import make_demo_home
from agentdeck.core.plan import KEPT_CLASSES, Action, Decision, ItemClass, dumps, tally
from agentdeck.core.render import render_json, render_plan, symbol_of
from agentdeck.core.targets import registry

TARGETS = list(registry.NAMES)       # every registered target
ITEM_LINE = re.compile(r"^  ([+~\-!>]) (\S+)")


def golden_plans(host):
    """The golden homes' plans: fresh and messy (the demo home), each target alone and all."""
    yield "fresh", engine.build_plan(host, "default", TARGETS)
    make_demo_home(host.home)
    for t in TARGETS:
        yield f"messy-{t}", engine.build_plan(host, "default", [t])
    plan = engine.build_plan(host, "default", TARGETS)
    yield "messy", plan
    # with decisions: every hand-edit taken, every skippable change skipped
    for it in plan.items:
        if it.cls in KEPT_CLASSES and Decision.TAKE in it.choices:
            plan.decide(it.id, "take")
        elif it.cls == ItemClass.UPDATE:
            plan.decide(it.id, "skip")
    yield "messy-decided", plan


def item_lines(text: str) -> list[tuple[str, str]]:
    return [m.groups() for line in text.splitlines() if (m := ITEM_LINE.match(line))]


def test_text_is_drawn_from_the_json_document(ghost):
    seen = 0
    for name, plan in golden_plans(ghost):
        doc = json.loads(dumps(plan))     # the document --json prints, and nothing else
        for verbose in (False, True):
            assert render_json(doc, verbose=verbose) == render_plan(plan, ghost, verbose=verbose), name
        seen += 1
    assert seen == 3 + len(TARGETS)      # fresh, messy, messy-decided, and each target


def test_text_lists_the_json_items_with_the_json_counts(ghost):
    for name, plan in golden_plans(ghost):
        doc = json.loads(dumps(plan))
        text = render_json(doc)
        marks = [(symbol_of(j["action"], j["class"], j["exists"]), j) for j in doc["items"]]
        listed = [(s, j) for s, j in marks if s != " "]
        assert listed, f"{name}: a plan with nothing to show proves nothing"
        home = doc["home"]
        want = [(s, "~" + j["path"][len(home):] if j["path"].startswith(home + "/") else j["path"])
                for s, j in listed]
        # items are listed target by target, in the JSON order within each target
        order = {t: i for i, t in enumerate(doc["targets"])}
        want = [w for _, w in sorted(zip([order[j["target"]] for _, j in listed], want),
                                     key=lambda p: p[0])]
        assert item_lines(text) == want, name
        s = doc["summary"]
        syms = [sym for sym, _ in item_lines(text)]
        assert syms.count("+") == s["add"] and syms.count("~") == s["change"], name
        assert syms.count("-") == s["remove"] and syms.count(">") == s["record_only"], name
        assert syms.count("!") == sum(1 for j in doc["items"] if j["class"] in KEPT_CLASSES
                                      and j["action"] in (Action.NONE, Action.RECORD)), name
        assert text.rstrip().splitlines()[-1] == s["text"], name
        for t in doc["targets"]:
            n = s["by_target"][t]["to_review"]
            idle = s["by_target"][t]["hooks_inert"] or "in sync"
            assert (f"({n} item{'' if n == 1 else 's'} to review)" if n else f"({idle})") in text, (name, t)
        # the plan object counts what its JSON form counts
        assert {k: plan.counts()[k] for k in ("add", "change", "remove")} == {
            k: s[k] for k in ("add", "change", "remove")}
        assert plan.counts()["kept"] == s["hand_edits_kept"]
        assert plan.counts()["conflict"] == s["conflicts"]


def test_a_changed_json_document_changes_the_text(ghost):
    """The renderer reads the document: what is in it (and only that) is what the text says."""
    make_demo_home(ghost.home)
    doc = json.loads(dumps(engine.build_plan(ghost, "default", ["copilot"])))
    item = next(j for j in doc["items"] if j["class"] == "create")
    item["label"] = "a label only the document has"
    item["reason"] = "a reason only the document has"
    doc["summary"]["text"] = "Plan: a summary only the document has."
    text = render_json(doc)
    assert "a label only the document has" in text and "a reason only the document has" in text
    assert text.endswith("Plan: a summary only the document has.")


def test_cli_status_and_app_badges_use_the_plan_counter(ghost, capsys):
    from agentdeck.app.session import target_status

    make_demo_home(ghost.home)
    assert cli.main(["status", "--home", str(ghost.home), "--json"]) in (0, 2)
    rows = {r["target"]: r for r in json.loads(capsys.readouterr().out)}
    # status shows the targets the demo home has (each registered one with files there)
    shown = [t for t in TARGETS if t in rows]
    assert len(shown) >= 2 and set(rows) <= set(TARGETS), rows
    plan = engine.build_plan(ghost, "default", shown)
    for t in shown:
        c = plan.counts(t)
        assert (rows[t]["changes"], rows[t]["hand_edits"], rows[t]["conflicts"]) == (
            c["changes"], c["kept"], c["conflict"])
        st = target_status(plan, t)
        assert (st.changes, st.hand_edits, st.conflicts) == (c["changes"], c["kept"], c["conflict"])
    assert any(plan.counts(t)["kept"] for t in shown), "the demo home has hand-edits to count"


def test_vocabulary_is_str_valued():
    assert json.dumps([ItemClass.HAND_EDITED, Decision.TAKE, Action.RECORD]) == \
        '["hand-edited", "take", "record"]'
    assert ItemClass("foreign") in KEPT_CLASSES and "conflict" in KEPT_CLASSES
    assert f"{ItemClass.CREATE}" == "create"
    assert tally([("create", "apply", "write", False), ("foreign", "keep", "none", True)]) == {
        "add": 1, "change": 0, "remove": 0, "changes": 1, "kept": 1, "conflict": 0, "record": 0,
        "review": 2, "held": 0}
    # a fifth element: a file kept because something staying calls it (core/held.py)
    assert tally([("remove", "apply", "none", True, True)])["held"] == 1
    from agentdeck.core.doctor.findings import Finding, Result
    f = Finding("copilot", "warning", "x.y", "m")
    assert f.result is Result.WARNING and json.dumps(f.to_json())
    with pytest.raises(ValueError):
        Finding("copilot", "fine", "x.y", "m")
