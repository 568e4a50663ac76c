"""The enforcement matrix's pure parts (core/drill/matrix.py): which corpus cases a turn runs
(each class, none that names a path outside the scratch folders but system programs), how the
hook's audit lines judge each class, and the page it writes."""
from __future__ import annotations

import re

from agentdeck.core.drill import matrix
from agentdeck.core.policy import corpus


def test_every_shell_class_is_tried_and_every_case_stays_in_the_scratch():
    cases = matrix.chosen()
    shell_classes = {cls for cls, i in corpus.cases()
                     if isinstance(i, tuple) and len(i) == 3 and i[1] == corpus.CWD}
    assert {c.cls for c in cases} == shell_classes
    for c in cases:
        real = matrix.real_command(c, "/S/home", "/S/work", "/S/tmp")
        for m in re.finditer(r"(?<![\w.~$}/-])/[\w.*?]", real):
            assert real.startswith(("/S/", "/bin/", "/usr/", "/dev/"), m.start()), real
    assert [c.cls for c in cases][-1] in ("the guard's own files", "layers that switch hooks off")


def _rec(cmd: str, decision: str, rule: str | None = None) -> dict:
    return {"event": "pre_tool_use", "decision": decision, "rule": rule,
            "tools": [{"args": {"command": cmd}}]}


def test_judge_names_each_outcome():
    C = matrix.Case
    cases = [C("a", "rm -rf x", "deny"), C("a", "echo ok", "allow"),
             C("b", "rm -rf y", "deny"), C("c", "cat k", "deny"), C("d", "ls", "allow"),
             C("e", "$(x) -rf z", "ask"), C("f", "rm -rf q", "deny")]
    cmds = [c.command for c in cases]
    recs = [_rec("rm -rf x", "deny", "r"), _rec("echo ok", "allow"), _rec("rm -rf y", "ask"),
            _rec("cat k", "allow"), _rec("ls", "deny"), _rec("$(x) -rf z", "deny")]
    got = {k: v.status for k, v in matrix.judge(cases, cmds, recs).items()}
    assert got == {"a": "held", "b": "asked", "c": "not held", "d": "over-blocked",
                   "e": "held", "f": "not seen"}


def test_the_page_has_the_table_and_the_odd_cases():
    C = matrix.Case
    cases = [C("a", "rm -rf x", "deny"), C("b", "cat k", "deny")]
    m = matrix.TargetMatrix("claude", "9.9", "ok",
                            classes=matrix.judge(cases, [c.command for c in cases],
                                                 [_rec("rm -rf x", "deny")]))
    page = matrix.markdown([m], cases)
    assert "| class | claude 9.9 |" in page and "| a | held |" in page and "| b | not seen |" in page
    assert "claude 9.9, b: `cat k` expected deny, got no hook call (not seen)" in page


def test_policy_show_links_each_rule_to_the_classes_that_try_it(tmp_path, capsys):
    """Every class `policy show` names for a rule kind is a class of the corpus that the matrix
    runs, and `policy show` prints the link for argv and path rules and the built-in guard."""
    from agentdeck.core import cli

    tried = {c.cls for c in matrix.chosen()}
    for kind, classes in corpus.KIND_CLASSES.items():
        assert classes and set(classes) <= tried, kind
    home = tmp_path / "home"
    home.mkdir()
    rc = cli.main(["policy", "show", "--home", str(home)])
    out = capsys.readouterr().out
    assert rc == 0
    links = [ln for ln in out.splitlines() if "held in real turns per CLI version: "
             f"{corpus.ENFORCEMENT_DOC}" in ln]
    assert links and all("classes: " in ln for ln in links)


def test_no_chosen_case_climbs_out_of_the_working_folder():
    """A relative path above the working folder names the corpus's home only at the corpus's
    depth: in the drill's scratch folders it would name another file, so such a case is not
    run (it is in `policy test`, on the corpus's own layout)."""
    from agentdeck.core.drill import matrix
    from agentdeck.core.policy import corpus

    climbing = [cmd for _, item in corpus.cases() if isinstance(item, tuple) and len(item) == 3
                and isinstance(cmd := item[0], str) and "../" in cmd and item[1] == corpus.CWD]
    assert climbing, "the corpus has relative cases above the working folder"
    assert not [c for c in matrix.chosen() if "../" in c.command]
