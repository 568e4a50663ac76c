"""The shipped evasion corpus (core/policy/corpus.py): at least 300 cases over every class the
issue names, each decided as expected in every dialect's payload shape."""
from __future__ import annotations

import pytest

from agentdeck.core.policy import corpus
from agentdeck.core.policy.selftest import test_corpus as run_corpus

#: the two tests that read the whole corpus's result share one run (~40 s) on one worker
WHOLE = pytest.mark.xdist_group("policy-corpus")


@pytest.fixture(scope="module")
def whole_corpus():
    return run_corpus()


@WHOLE
def test_the_corpus_holds_in_every_dialect(whole_corpus):
    res, counts = whole_corpus
    assert sum(counts.values()) >= 300
    assert res.checked > 3 * sum(counts.values())     # each case in several dialects
    assert res.mismatches == []


def test_every_class_is_there_and_benign_forms_are_part_of_it():
    classes = corpus.CLASSES or corpus._build()
    for name in ("flags and quoting", "wrappers", "indirection", "unresolved",
                 "reads of protected files", "writes of protected files",
                 "the guard's own files", "mentions and neighbours", "other tools"):
        assert classes[name], name
    expected = {c[-1] for items in classes.values() for c in items}
    assert expected == {"deny", "ask", "allow"}


def test_a_wrong_expectation_is_reported(monkeypatch):
    # the corpus check can fail: flip one case's expectation and it is a mismatch
    classes = corpus._build()
    monkeypatch.setitem(classes, "flags and quoting",
                        [("rm -rf x", corpus.CWD, "allow")] + classes["flags and quoting"][1:])
    res, _ = run_corpus(only=frozenset({"flags and quoting"}))
    assert any("'rm -rf x'" in m and "expected allow, got deny" in m for m in res.mismatches)


@WHOLE
def test_docs_policy_md_states_the_corpus_counts(whole_corpus):
    """docs/policy.md says how many cases, classes and payloads the corpus has: the numbers
    `policy test` prints (they were stale: 387 said, 400 printed)."""
    import re
    from pathlib import Path

    from agentdeck.core.policy import corpus as C

    res, counts = whole_corpus
    text = (Path(__file__).resolve().parents[2] / "docs" / "policy.md").read_text()
    m = re.search(r"evasion corpus\*\* \(`core/policy/corpus.py`\): (\d+) cases in (\d+) classes", text)
    assert m, "docs/policy.md no longer states the corpus counts"
    assert (int(m.group(1)), int(m.group(2))) == (len(C.cases()), len(counts))
    p = re.search(r"in every dialect \((\d+) payloads\)", text)
    assert p and int(p.group(1)) == res.checked


def test_the_corpus_guards_only_what_the_guard_guards():
    """The corpus's list of the guard's own files (PROTECT) is what self_protection() gives for
    the corpus's home, so a file taken out of a target's GUARDED, LAYERS or STARTS fails the
    corpus's cases on it (a repository's .github/hooks, Copilot's config.json, a folder's .env)."""
    from pathlib import Path

    from agentdeck.core.host import Host
    from agentdeck.core.policy import corpus as C
    from agentdeck.core.policy.compiled import self_protection
    from agentdeck.core.targets import registry

    host = Host.from_environment(Path(C.HOME), env={"HOME": C.HOME})
    host.cwd = Path(C.CWD)
    given = set(self_protection(host, registry.TARGETS[0].name))
    own_install = ("/opt/agentdeck/", C.OWN_PACKAGE)
    missing = [p for p in C.PROTECT if p not in given and not p.startswith(own_install)]
    assert not missing, missing
