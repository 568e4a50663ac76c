"""agentdeck.core.formats.blocks: managed blocks in persona files and shell rc files."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agentdeck.core.formats.blocks import BlockError, find_block, get_block, remove_block, set_block
from agentdeck.core.formats.errors import FormatError

MD_BEGIN = "<!-- agentdeck:begin (managed by agentdeck; edits inside are replaced) -->"
MD_END = "<!-- agentdeck:end -->"
SH_BEGIN = "# >>> agentdeck >>>"
SH_END = "# <<< agentdeck <<<"


def test_top_placement_keeps_the_persona_after_the_block():
    persona = "# My rules\n\nBe terse.\n"
    text = set_block(persona, MD_BEGIN, MD_END, "Use uv.\nRun tests.", placement="top")
    assert text == f"{MD_BEGIN}\nUse uv.\nRun tests.\n{MD_END}\n# My rules\n\nBe terse.\n"
    assert get_block(text, MD_BEGIN, MD_END) == "Use uv.\nRun tests.\n"
    assert find_block(text, MD_BEGIN, MD_END) == (0, text.index("# My rules"))


def test_bottom_placement_in_a_bashrc():
    bashrc = "alias ll='ls -l'\n"
    text = set_block(bashrc, SH_BEGIN, SH_END, ". ~/.agentdeck/env.sh\n", placement="bottom")
    assert text == f"alias ll='ls -l'\n\n{SH_BEGIN}\n. ~/.agentdeck/env.sh\n{SH_END}\n"
    start, end = find_block(text, SH_BEGIN, SH_END)
    assert text[start:end] == f"{SH_BEGIN}\n. ~/.agentdeck/env.sh\n{SH_END}\n"
    assert remove_block(text, SH_BEGIN, SH_END) == bashrc


def test_existing_block_is_replaced_in_place_and_outside_text_kept():
    text = f"before\n{SH_BEGIN}\nold\n{SH_END}\nafter\n"
    new = set_block(text, SH_BEGIN, SH_END, "new 1\nnew 2\n", placement="bottom")
    assert new == f"before\n{SH_BEGIN}\nnew 1\nnew 2\n{SH_END}\nafter\n"
    assert remove_block(new, SH_BEGIN, SH_END) == "before\nafter\n"


def test_body_is_stored_with_exactly_one_trailing_newline():
    for body in ("x", "x\n", "x\n\n\n", "x\r\n"):
        assert get_block(set_block("", SH_BEGIN, SH_END, body), SH_BEGIN, SH_END) == "x\n"
    assert get_block(set_block("", SH_BEGIN, SH_END, ""), SH_BEGIN, SH_END) == ""


def test_no_block():
    assert find_block("plain\n", SH_BEGIN, SH_END) is None
    assert get_block("plain\n", SH_BEGIN, SH_END) is None
    assert remove_block("plain\n", SH_BEGIN, SH_END) == "plain\n"


def test_crlf_files_get_a_crlf_block():
    text = set_block("a\r\nb\r\n", SH_BEGIN, SH_END, "x\ny\n", placement="bottom")
    assert text == f"a\r\nb\r\n\r\n{SH_BEGIN}\r\nx\r\ny\r\n{SH_END}\r\n"
    assert get_block(text, SH_BEGIN, SH_END) == "x\ny\n"


def test_markers_are_matched_as_whole_lines_ignoring_surrounding_blanks():
    text = f"  {SH_BEGIN}  \nbody\n{SH_END}\t\n"
    assert get_block(text, SH_BEGIN, SH_END) == "body\n"
    assert find_block(f"echo '{SH_BEGIN}'\n", SH_BEGIN, SH_END) is None


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        (f"a\n{SH_BEGIN}\nbody\n", 2, "no end marker"),
        (f"a\nb\n{SH_END}\n", 3, "no begin marker"),
        (f"{SH_END}\nx\n{SH_BEGIN}\n", 1, "comes before the begin marker"),
        (f"{SH_BEGIN}\n{SH_END}\nx\n{SH_BEGIN}\n{SH_END}\n", 4, "more than one managed block"),
    ],
)
def test_broken_markers_are_errors_with_line_numbers(text, line, fragment):
    for call in (
        lambda: find_block(text, SH_BEGIN, SH_END, path="~/.bashrc"),
        lambda: set_block(text, SH_BEGIN, SH_END, "x"),
        lambda: remove_block(text, SH_BEGIN, SH_END),
    ):
        with pytest.raises(BlockError) as info:
            call()
        assert isinstance(info.value, FormatError)
        assert info.value.line == line and fragment in info.value.msg
    with pytest.raises(BlockError) as info:
        get_block(text, SH_BEGIN, SH_END, path="~/.bashrc")
    assert str(info.value).startswith(f"~/.bashrc:{line}:")


def test_bad_arguments():
    with pytest.raises(ValueError):
        set_block("", SH_BEGIN, SH_END, "x", placement="middle")
    with pytest.raises(ValueError):
        set_block("", SH_BEGIN, SH_END, f"x\n{SH_END}\n")
    with pytest.raises(ValueError):
        set_block("", SH_BEGIN, SH_BEGIN, "x")


# -- the invariant uninstall relies on ------------------------------------------------------------

PIECES = ["a", " ", "#", "\n", "\r", "\r\n", "\t", "é", "# >>> agentdeck", "<!-- agentdeck:end", "-->"]
TEXTS = st.lists(st.sampled_from(PIECES), max_size=20).map("".join).filter(
    lambda t: not any(line.strip() in (SH_BEGIN, SH_END, MD_BEGIN, MD_END) for line in t.split("\n"))
)
BODIES = st.lists(st.sampled_from(["x", " ", "\n", "\r\n", "$", "'", "a b"]), max_size=10).map("".join)


@settings(max_examples=500, deadline=None)
@given(TEXTS, BODIES, BODIES, st.sampled_from(["top", "bottom"]), st.sampled_from([(SH_BEGIN, SH_END), (MD_BEGIN, MD_END)]))
def test_property_remove_undoes_set_and_set_is_idempotent(text, body, other_body, placement, markers):
    begin, end = markers
    with_block = set_block(text, begin, end, body, placement=placement)
    assert remove_block(with_block, begin, end) == text
    assert set_block(with_block, begin, end, body, placement=placement) == with_block
    changed = set_block(with_block, begin, end, other_body, placement=placement)
    assert remove_block(changed, begin, end) == text
    assert get_block(changed, begin, end) == ("" if not other_body.strip("\r\n") else other_body.replace("\r\n", "\n").rstrip("\n") + "\n")


@pytest.mark.parametrize("text", ["", "a", "a\n", "a\r\n", "a\r\nb", "\n", "\r", "a\n\n", "x\r"])
@pytest.mark.parametrize("placement", ["top", "bottom"])
def test_remove_undoes_set_for_the_edge_cases(text, placement):
    assert remove_block(set_block(text, SH_BEGIN, SH_END, "b", placement=placement), SH_BEGIN, SH_END) == text


def test_a_blank_line_the_operator_put_above_a_top_block_is_kept():
    """A top block brought no line break before it: text the operator wrote above it later,
    blank line included, is theirs. A bottom block brought the blank line before it."""
    top = set_block("# Mine\n", MD_BEGIN, MD_END, "Use uv.", placement="top")
    above = "# Header\n\n" + top
    assert remove_block(above, MD_BEGIN, MD_END, placement="top") == "# Header\n\n# Mine\n"
    # not recorded (a manifest written before placement was): only a block that ends the file
    # takes the line break before it
    assert remove_block(above, MD_BEGIN, MD_END) == "# Header\n\n# Mine\n"
    bottom = set_block("alias ll='ls -l'\n", SH_BEGIN, SH_END, "x", placement="bottom")
    below = bottom + "export LATER=1\n"       # an installer appended after agentdeck's block
    assert remove_block(below, SH_BEGIN, SH_END, placement="bottom") == \
        "alias ll='ls -l'\nexport LATER=1\n"
    assert remove_block(bottom, SH_BEGIN, SH_END) == "alias ll='ls -l'\n"
