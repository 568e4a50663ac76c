"""No history in the code: the docstrings and comments of core/ and app/ say what the code does and
why, not which issue, point or trial brought it (that is CHANGELOG.md's), and the facts they cite
are documents inside the repository (docs/facts/), never a path outside it.

Only docstrings (module, class, function) and comments are read, through the syntax tree and the
tokenizer, so real data (versions such as 1.0.102 or 0.171.0, ports, `#` in a string) is never
flagged; each pattern below is written to miss versions and times ("(0.5 s)", "(2.1.332)").
"""
from __future__ import annotations

import ast
import io
import re
import tokenize
from functools import lru_cache
from pathlib import Path

import pytest

from agentdeck.core.targets import registry

REPO = Path(__file__).resolve().parents[2]
ROOTS = ("core", "app")

#: what counts as history, each with what it catches
HISTORY = {
    "an issue number": re.compile(r"\bissues?\s+#?\d+", re.I),
    "a trial": re.compile(r"\btrials?\s+#?\d+|\boperator[- ]trial|\(the trial\b|\bthe trial:", re.I),
    "an issue reference #N": re.compile(r"(?<![&\w])#\d{1,3}\b(?!;)"),
    "an issue point (16.1)": re.compile(r"\(\s*\d{1,2}\.\d{1,2}[a-z]?(?:\s*,\s*\d{1,2}\.\d{1,2}[a-z]?)*\s*\)"),
    "a point at the start (16.1:)": re.compile(r"^\s*\d{1,2}\.\d{1,2}[a-z]?:\s", re.M),
    "a round of work": re.compile(r"\bthis round\b|\bthe last round\b", re.I),
}
#: citations of something outside the repository
OUTSIDE = {
    "the machine's /work folder": re.compile(r"/work/"),
    "the shared reference folder": re.compile(r"shared/reference|\.\./shared\b"),
    "FACTS.md (outside the repository; docs/facts/ has its content)": re.compile(r"\bFACTS\.md\b"),
    "the older reference by section (see docs/facts/copilot.md)": re.compile(r"\breference\s+§"),
}
DOC_CITATION = re.compile(r"\bdocs/[\w./-]+\.md\b")


@lru_cache(maxsize=None)
def _sources() -> tuple[Path, ...]:
    return tuple(sorted(p for root in ROOTS for p in (REPO / root).rglob("*.py")
                  if "__pycache__" not in p.parts))


@lru_cache(maxsize=None)
def _texts(path: Path) -> tuple[tuple[int, str], ...]:
    """(line, text) of every docstring and comment of the module."""
    src = path.read_text()
    out: list[tuple[int, str]] = []
    tree = ast.parse(src)
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            doc = ast.get_docstring(node, clean=False)
            if doc and node.body and isinstance(node.body[0], ast.Expr):
                out.append((node.body[0].lineno, doc))
    for tok in tokenize.generate_tokens(io.StringIO(src).readline):
        if tok.type == tokenize.COMMENT:
            out.append((tok.start[0], tok.string))
    return tuple(out)


def _findings(patterns: dict[str, re.Pattern]) -> list[str]:
    found = []
    for path in _sources():
        rel = path.relative_to(REPO)
        for line, text in _texts(path):
            for what, pat in patterns.items():
                for m in pat.finditer(text):
                    at = line + text[:m.start()].count("\n")
                    found.append(f"{rel}:{at}: {what}: {m.group(0)!r}")
    return found


def test_no_issue_or_trial_numbers_in_docstrings_and_comments():
    found = _findings(HISTORY)
    assert not found, ("history belongs in CHANGELOG.md; say what the code does instead:\n"
                       + "\n".join(found))


def test_facts_cite_documents_inside_the_repository():
    found = _findings(OUTSIDE)
    assert not found, ("cite docs/facts/<cli>.md (bring the fact there, with its version and how "
                       "it was observed):\n" + "\n".join(found))


def test_every_cited_document_exists():
    missing = []
    for path in _sources():
        for line, text in _texts(path):
            for m in DOC_CITATION.finditer(text):
                if not (REPO / m.group(0)).is_file():
                    missing.append(f"{path.relative_to(REPO)}:{line}: {m.group(0)}")
    assert not missing, "\n".join(missing)


@pytest.mark.parametrize("name", registry.NAMES)
def test_every_registered_target_has_its_facts_document(name):
    doc = REPO / "docs" / "facts" / f"{name}.md"
    assert doc.is_file(), f"{name}: no {doc.relative_to(REPO)} (its facts, versions, how observed)"
    assert registry.spec(name).title.split()[0] in doc.read_text().splitlines()[0]


@pytest.mark.parametrize("text,flagged", [
    ("issue 16.2: the switch is written", True),
    ("the layer (16.2), so", True),
    ("(issue 22.1, 22.5)", True),
    ("Operator trial #8: clicking", True),
    ("see #16", True),
    ("16.1: memory is its own member", True),
    ("verified on 1.0.102 (2026-12-01)", False),
    ("Codex 0.171.0 and Claude Code (2.1.332)", False),
    ("a timeout (0.5 s) and port 8080", False),
    ("the drill's rule trials and an inert trial", False),
    ("&#160; in an SVG", False),
])
def test_the_patterns_flag_history_and_not_data(text, flagged):
    assert any(p.search(text) for p in HISTORY.values()) is flagged, text
