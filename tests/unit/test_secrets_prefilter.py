"""agentdeck.core.secrets searches a pattern only when one of its literals is in the text (_LITERALS).
Every match of a pattern must contain one of them, so the result is that of searching every
pattern."""
from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from agentdeck.core import secrets as S

#: pieces that make near-credentials: every literal, their neighbours, token bodies, separators
PIECES = sorted({lit for lits in S._LITERALS.values() for lit in lits} | {
    "gh", "ghx_", "sk", "sk-proj-", "AKI", "eyJhbGciOiJIUzI1NiJ9", "Bearer ", "bearer\t", "BEARER ",
    "https://", "user:pw@", "aws_secret_access_key=", "SECRET_KEY: ", "ſecret_key=", "-----END RSA PRIVATE KEY-----",
    "RSA PRIVATE KEY-----", "T00/B00/", "-", "_", ".", "/", "+", "=", ":", "@", " ", "\n", "$", "{",
    "Ab1Ab1Ab1Ab1", "abcdefghij", "Q7Q7Q7Q7", "a/B+9a/B+9", "0123456789"})


def spans_of_every_pattern(s: str) -> list[tuple[int, int, str]]:
    taken: list[tuple[int, int, str]] = []
    for kind, src in S._ROWS:
        rx = re.compile(src)
        for m in rx.finditer(s):
            g = "secret" if "secret" in rx.groupindex else 0
            start, end = m.span(g)
            if not any(start < e and b < end for b, e, _ in taken):
                taken.append((start, end, kind))
    return sorted(taken)


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(PIECES), st.text(max_size=4)), max_size=24).map("".join))
def test_prefilter_changes_nothing(s):
    assert S._spans(s) == spans_of_every_pattern(s)


def test_every_kind_but_the_case_insensitive_one_has_literals():
    assert set(S._LITERALS) == {k for k, _ in S._ROWS} - {"aws_secret_access_key"}
    for kind, rx in S.PATTERNS:     # a literal screen is exact only for case-sensitive patterns
        if kind in S._LITERALS:
            assert "(?i" not in rx.pattern and not rx.flags & re.IGNORECASE, kind
