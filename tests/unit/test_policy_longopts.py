"""An abbreviated long option is the option it abbreviates (GNU getopt_long and git's
parse-options take any unambiguous prefix): the resolver spells it in full before any table
reads it (core/policy/longopts.py), and an abbreviation of several options is asked."""
from __future__ import annotations

import pytest

from agentdeck.core.policy import longopts as L
from agentdeck.core.policy import programs as P
from agentdeck.core.policy.rules import Context, evaluate_doc
from agentdeck.core.policy.fs import MemoryFS
from agentdeck.core.policy.vocabulary import tool_calls

HOME = "/home/me"
DOC = {"unresolved": "ask", "rules": [],
       "paths": [{"id": "keys", "paths": ["~/.ssh/id_*"], "except": ["~/.ssh/*.pub"],
                  "access": ["read", "write"], "decision": "deny", "reason": "keys"}]}
FS = MemoryFS({f"{HOME}/.ssh/id_rsa": "k", f"{HOME}/proj/a.txt": "a", f"{HOME}/proj/id_rsa": "x"})


def _decide(command: str):
    calls = tool_calls({"tool_name": "Bash", "tool_input": {"command": command}})
    return evaluate_doc(DOC, calls, Context(HOME, f"{HOME}/proj", {"HOME": HOME}, FS))


@pytest.mark.parametrize("command,decision", [
    ("sort --outp=$HOME/.ssh/id_rsa a.txt", "deny"), ("sort --o=$HOME/.ssh/id_rsa a.txt", "deny"),
    ("cp --targ=$HOME/.ssh id_rsa", "deny"), ("cp --target-d $HOME/.ssh id_rsa", "deny"),
    ("mv --targ ~/.ssh id_rsa", "deny"), ("tar --checkpoint-act=exec=sh -cf /tmp/a a.txt", "ask"),
    ("git grep --open=sh x", "ask"), ("git -C . grep --open-f x", "ask"),
    ("sort --compress-p=sh a.txt", "ask"), ("curl --outp x http://h", "ask"),
    ("sort --rev a.txt", "allow"), ("cp --verb a.txt /tmp/b", "allow"),
])
def test_an_abbreviated_long_option_is_judged_as_the_option(command, decision):
    v = _decide(command)
    assert v.decision == decision, v.reason


def test_expand_spells_unique_prefixes_and_says_ambiguous_ones():
    assert L.expand("sort", ["--outp=/x", "a"], "k:o:S:t:T:") == (["--output=/x", None], [])
    full, several = L.expand("curl", ["--outp", "x"], None)
    assert full == [None, None] and several == ["--outp"]
    # a value-taking option's next word is its value, not an option
    assert L.expand("sort", ["--outp", "--rev"], None)[0] == ["--output", None]
    # `+`: the first operand ends the options (env, xargs): the command's words are its own
    assert L.expand("env", ["--ignore-e", "sort", "--outp=x"], "+u:C:S:")[0] == [
        "--ignore-environment", None, None]
    # `--` ends the options
    assert L.expand("sort", ["--", "--outp=x"], None)[0] == [None, None]


def _named_long(table: dict) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for key, opts in table.items():
        flat = [o for x in (opts if isinstance(opts, tuple) else (opts,))
                for o in (x if isinstance(x, tuple) else (x,))]
        out.setdefault(key, set()).update(o for o in flat if o.startswith("--"))
    return out


@pytest.mark.parametrize("table", ["COMMAND_OPTIONS", "OUTPUT_OPTIONS", "FOLLOWS_LINKS",
                                   "SHELL_TEXT_OPTIONS"])
def test_the_tables_name_options_the_programs_have(table):
    """A long option a table names for a program longopts knows is one of that program's (an
    abbreviation is spelled in full only to an option the data lists)."""
    for key, named in _named_long(getattr(P, table)).items():
        if not L.table(key):
            continue
        missing = {o for o in named if o[2:] not in L.table(key)}
        assert not missing, f"{table}[{key}]: {sorted(missing)} not in longopts"
