"""agentdeck.core.formats.envfile: POSIX-sh env files."""

from __future__ import annotations

import subprocess

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agentdeck.core.formats.envfile import parse_env, render_env


def test_render_is_a_header_then_quoted_exports_in_order():
    text = render_env({"B": "2", "A": "it's $HOME"}, "managed by agentdeck\ndo not edit")
    assert text == (
        "# managed by agentdeck\n"
        "# do not edit\n"
        "export B='2'\n"
        "export A='it'\"'\"'s $HOME'\n"
    )
    assert list(parse_env(text).items()) == [("B", "2"), ("A", "it's $HOME")]


@pytest.mark.parametrize("key", ["", "1A", "A-B", "A B", "é", "A=B"])
def test_invalid_keys_are_refused(key):
    with pytest.raises(ValueError):
        render_env({key: "x"}, "h")


def test_parse_is_tolerant_of_plain_lines_and_comments():
    text = "# comment\nPLAIN=1\nexport QUOTED=\"a b\"  # trailing\n\necho not an assignment\nexport MULTI='x\ny'\n"
    assert parse_env(text) == {"PLAIN": "1", "QUOTED": "a b", "MULTI": "x\ny"}


def test_render_is_deterministic():
    items = {"Z": "1", "A": "2"}
    assert render_env(items, "h") == render_env(dict(items), "h")


def test_the_file_means_the_same_to_sh():
    items = {"A": "it's", "B": "$(echo no)", "C": "two\nlines", "D": ""}
    script = render_env(items, "h") + 'printf "%s|" "$A" "$B" "$C" "$D"'
    out = subprocess.run(["sh", "-c", script], capture_output=True, text=True, check=True).stdout
    assert out == "it's|$(echo no)|two\nlines||"


@settings(max_examples=300, deadline=None)
@given(
    st.dictionaries(
        st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,8}", fullmatch=True),
        st.text(st.characters(blacklist_characters="\0", blacklist_categories=("Cs",)), max_size=12),
        max_size=6,
    ),
    st.text(st.characters(blacklist_characters="\0", blacklist_categories=("Cs",)), max_size=20),
)
def test_property_parse_reads_back_what_render_writes(items, header):
    assert parse_env(render_env(items, header)) == items


def test_keep_existing_values_are_defaults_the_operator_overrides(tmp_path):
    import subprocess
    from agentdeck.core.formats.envfile import parse_env, render_env
    text = render_env({"A": "ours", "B": "it's $x"}, "hdr", keep_existing=True)
    assert parse_env(text) == {"A": "ours", "B": "it's $x"}
    f = tmp_path / "env"
    f.write_text(text)
    out = subprocess.run(["sh", "-c", f'A=theirs; . "{f}"; printf "%s|%s" "$A" "$B"'],
                         capture_output=True, text=True, check=True).stdout
    assert out == "theirs|it's $x"
