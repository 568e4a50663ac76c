"""Item kinds are types (core/kinds): every kind the adapters use is registered, each kind's
fingerprint is what its read of the disk gives back after apply (through the Host, on a tmp
home), its undo gives the home back as it was, and the planner, the applier and the renderer
ask the kind instead of comparing kind names (an AST rule, so it holds going forward)."""
from __future__ import annotations

import ast
import typing
from pathlib import Path

import pytest

from agentdeck.core import apply as applier
from agentdeck.core import desired as desired_mod
from agentdeck.core import engine
from agentdeck.core import plan as planner
from agentdeck.core.desired import Desired, DesiredState
from agentdeck.core.disk import MISSING, DiskView
from agentdeck.core.kinds import ALL, ASIDE_FP, KINDS, MEMBER, ItemKind, kind_of
from agentdeck.core.manifest import Manifest
from agentdeck.core.ops import OPS
from tests.conftest import snapshot_tree

CORE = Path(__file__).resolve().parents[2] / "core"
TARGET = "kinds-test"


# ---- the registry --------------------------------------------------------------------------------

def _kind_literals() -> set[str]:
    """Every kind name core/ writes into a Desired item: Desired(kind="...") anywhere in core/."""
    found: set[str] = set()
    for p in CORE.rglob("*.py"):
        tree = ast.parse(p.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            f = node.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
            if name != "Desired":
                continue
            for kw in node.keywords:
                if kw.arg == "kind" and isinstance(kw.value, ast.Constant):
                    found.add(kw.value.value)
            if len(node.args) >= 3 and isinstance(node.args[2], ast.Constant):
                found.add(node.args[2].value)
    return found


def test_every_kind_in_use_is_registered():
    declared = set(typing.get_args(desired_mod.Kind))
    assert declared == set(KINDS)                     # Desired.kind's type names exactly these
    used = _kind_literals()
    assert used and used <= set(KINDS), used - set(KINDS)
    assert {k.name for k in ALL} == set(KINDS)        # the member is written as "key"
    for name, k in KINDS.items():
        assert isinstance(k, ItemKind) and k.name == name


def test_every_kind_a_plan_holds_is_a_registered_type(ghost):
    plan = engine.build_plan(ghost, "default")
    seen = {type(i.type) for i in plan.items}
    assert {type(KINDS["file"]), type(KINDS["key"]), type(MEMBER)} <= seen
    for i in plan.items:
        assert i.type is kind_of(i.spec) and i.type.name == i.kind
        assert i.to_json("apply")["kind"] == i.kind and type(i.to_json("apply")["kind"]) is str


def test_member_is_a_key_with_member_set():
    d = Desired(TARGET, Path("/h/s.json"), "key", {"x": 1}, key=("hooks", "Stop"), fmt="json",
                member="/w.sh")
    assert kind_of(d) is MEMBER and kind_of(Desired(TARGET, Path("/h/s.json"), "key", 1)) is KINDS["key"]
    assert MEMBER.entry_id("/h/s.json", ("hooks", "Stop"), "/w.sh") == '/h/s.json#["hooks", "Stop"]@/w.sh'


def test_op_types_are_registered_by_their_journal_names():
    assert set(OPS) == {"write", "delete", "symlink", "unlink"}
    assert {n for n, o in OPS.items() if o.removes} == {"delete", "unlink"}


# ---- each kind, through the Host on a tmp home ---------------------------------------------------

def _cases(home: Path) -> list[tuple[str, Desired, dict[str, bytes]]]:
    """(name, the item, files there before) for each kind."""
    settings = home / ".tool" / "settings.json"
    return [
        ("file", Desired(TARGET, home / ".tool" / "hook.sh", "file", "#!/bin/sh\necho hi\n",
                         mode=0o755), {}),
        ("file-replacing", Desired(TARGET, home / "notes.md", "file", "ours\n", mode=0o644),
         {"notes.md": b"theirs\n"}),
        ("key", Desired(TARGET, settings, "key", {"on": True}, key=("features", "x"), fmt="json"),
         {".tool/settings.json": b'{\n  "features": {"x": 1},\n  "keep": 2\n}\n'}),
        ("member", Desired(TARGET, settings, "key", {"command": "/w.sh run"}, key=("hooks", "Stop"),
                           fmt="json", member="/w.sh"),
         {".tool/settings.json": b'{\n  "hooks": {"Stop": [{"command": "theirs"}]}\n}\n'}),
        ("block", Desired(TARGET, home / "AGENTS.md", "block", "be brief\n",
                          markers=("<!-- agentdeck -->", "<!-- /agentdeck -->")),
         {"AGENTS.md": b"# mine\n"}),
        ("link", Desired(TARGET, home / ".tool" / "skills" / "one", "link",
                         str(home / "elsewhere" / "one")), {"elsewhere/one/SKILL.md": b"x\n"}),
        ("aside", Desired(TARGET, home / ".tool" / "hooks" / "other.json", "aside", None),
         {".tool/hooks/other.json": b'{"hooks": "another tool"}\n'}),
    ]


def _plan(host, items: list[Desired], manifest: Manifest):
    return planner.compute(host, "test", [DesiredState(TARGET, items=items)], {TARGET: manifest},
                           disk=DiskView(host))


@pytest.mark.parametrize("case", [c[0] for c in _cases(Path("/h"))])
def test_fingerprint_and_read_actual_round_trip(host, case):
    home = host.home
    name, d, before = next(c for c in _cases(home) if c[0] == case)
    for rel, data in before.items():
        p = home / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data)
    was = snapshot_tree(home)
    kind = kind_of(d)
    man_path = home / ".kinds-test-managed.json"
    man = Manifest.load(host, TARGET, man_path)

    plan = _plan(host, [d], man)
    (it,) = plan.items
    if it.cls == "foreign":          # the operator's value there: taken, so undo must restore it
        plan.decide(it.id, "take")
    assert it.type is kind and plan.action(it) == "write", (it.cls, it.reason)
    res = applier.run(host, plan)
    assert res.ok

    # what is on disk now reads back as the fingerprint of what the profile wants
    value, fp = kind.read_actual(DiskView(host), d)
    assert fp == kind.fingerprint(d.value, d.mode)
    if kind.sets_aside:
        assert value is MISSING and fp == ASIDE_FP
    else:
        assert value == d.value
    man = Manifest.load(host, TARGET, man_path)
    (entry,) = man.entries.values()
    assert entry.kind == d.kind and entry.fingerprint == fp and kind_of(entry) is kind
    assert man_path.read_bytes() == man.render()          # the manifest's form is unchanged
    again = _plan(host, [d], man)
    assert [(i.cls, again.action(i)) for i in again.items] == [("noop", "none")]
    # the recorded entry reads back the same through the kind (what doctor and uninstall compare)
    assert kind.read_actual(DiskView(host), entry)[1] == entry.fingerprint

    # undo: the home as it was, byte for byte (modes too), agentdeck's state aside
    plan = _plan(host, [], man)
    (it,) = plan.items
    assert it.cls == "remove" and it.type is kind and plan.action(it) == "remove"
    assert applier.run(host, plan).ok
    state = str(host.state_dir.relative_to(home))

    def outside_state(tree: dict) -> dict:
        return {k: v for k, v in tree.items() if not (
            k == state or k.startswith(state + "/") or state.startswith(k + "/"))}
    assert outside_state(snapshot_tree(home)) == outside_state(was)
    assert not man_path.exists()


# ---- no kind names in the engine -----------------------------------------------------------------

ENGINE = ("plan.py", "apply.py", "render.py", "engine.py", "manifest.py", "held.py", "hooks_health.py",
          "output_guard.py", "preview.py")


def _is_kind(node: ast.AST) -> bool:
    """`x.kind`, `x["kind"]` or a plain `kind` (a parameter holding a kind's name)."""
    if isinstance(node, ast.Attribute):
        return node.attr == "kind"
    if isinstance(node, ast.Name):
        return node.id == "kind"
    return (isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant)
            and node.slice.value == "kind")


def _str_literal(node: ast.AST) -> bool:
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return any(_str_literal(e) for e in node.elts)
    return False


def kind_name_tests(source: str) -> list[int]:
    """The lines where a `.kind` (or `["kind"]`, or a `kind`) is compared with a string literal: ==, !=, in,
    not in, is (either side), or matched against one (`match x.kind: case "file"`)."""
    lines: list[int] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            if any(_is_kind(o) for o in operands) and any(_str_literal(o) for o in operands):
                lines.append(node.lineno)
        elif isinstance(node, ast.Match) and _is_kind(node.subject):
            if any(isinstance(p, ast.MatchValue) and _str_literal(p.value)
                   or isinstance(p, ast.MatchOr) and any(isinstance(q, ast.MatchValue)
                                                         and _str_literal(q.value) for q in p.patterns)
                   for c in node.cases for p in [c.pattern]):
                lines.append(node.lineno)
    return lines


@pytest.mark.parametrize("snippet", [
    'if it.kind == "file": pass',
    'ok = "aside" != item.kind',
    'ok = d.kind in ("key", "block")',
    'ok = e.kind not in {"link"}',
    'ok = it["kind"] == "key"',
    'ok = a < b and op.kind == "write"',
    'if kind == "key": pass',
    'match it.kind:\n    case "file": pass',
    'match it.kind:\n    case "key" | "block": pass',
])
def test_the_rule_finds_every_form_of_a_kind_name_test(snippet):
    assert kind_name_tests(snippet) == [1]


@pytest.mark.parametrize("snippet", [
    'ok = it.type.whole_file', 'k = KINDS[it["kind"]]', 'ok = it.kind == other.kind',
    'ok = it.cls == "create"', 'd = {"kind": "home"}',
])
def test_the_rule_leaves_asking_the_kind_alone(snippet):
    assert kind_name_tests(snippet) == []


@pytest.mark.parametrize("module", ENGINE)
def test_the_engine_asks_the_kind_instead_of_naming_it(module):
    """The planner, the applier and the renderer loop over kind types: a `.kind == "file"` (or
    `in (...)`, or `["kind"]`) there fails this test."""
    source = (CORE / module).read_text(encoding="utf-8")
    assert kind_name_tests(source) == [], f"core/{module} compares a kind with a name"
