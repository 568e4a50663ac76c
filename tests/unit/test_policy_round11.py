"""Red team round 11's classes, each judged by its effect. The common root: a variable is what
bash has when the command runs, not the last assignment in the text. bash's integer variables
(`RANDOM`, `OPTIND`, ...) and a `declare -i` one evaluate what they are given; what a branch, a
loop or a command after `&&` assigns may not have run; a job in the background keeps its
assignments; `+=` appends, `declare -l/-u` converts, `unset` empties, `shift` and `set --`
move the positional parameters. Besides: `$'...'` ends at a NUL, a glob's class is the
locale's, response files (`gcc @F`), a function defined in a sourced file, and `.` itself."""
from __future__ import annotations

import pytest

from agentdeck.core.policy import programs as P
from agentdeck.core.policy.fs import MemoryFS, shell_pattern
from agentdeck.core.policy.shellparse import INT_SPECIALS
from agentdeck.core.policy.vocabulary import SELF_RULE

from tests.policy_kit import HOME, decide

FS = MemoryFS({f"{HOME}/.ssh/id_rsa": "k", f"{HOME}/.ssh/id_rsa.pub": "p",
               f"{HOME}/.claude/settings.json": "{}", f"{HOME}/proj/a.py": "a",
               f"{HOME}/proj/fn.sh": 'echo() { command cat "$1"; }\n'})


def _decide(command: str):
    return decide(FS, command)


@pytest.mark.parametrize("var", sorted(INT_SPECIALS))
def test_bash_s_integer_variables_evaluate_what_they_are_given(var):
    for command in (f"{var}='a[$(cat ~/.ssh/id_rsa)]'", f"export {var}='a[$(rm -rf /tmp/v)]'",
                    f"x='a[$(id)]'; {var}=$x", f"read {var} <<< 'a[$(id)]'",
                    f"for {var} in 'a[$(id)]'; do :; done",
                    f"printf -v {var} %s 'a[$(id)]'"):
        assert _decide(command).decision in ("ask", "deny"), command
    assert _decide(f"{var}=3; echo ${var}").decision == "allow"


@pytest.mark.parametrize("command", [
    "declare -i v; read v <<< 'a[$(id)]'", "declare -i v; for v in 'a[$(id)]'; do :; done",
    "declare -i v; mapfile -t v <<< 'a[$(id)]'",
])
def test_an_integer_variable_given_input_is_unresolved(command):
    v = _decide(command)
    assert v.decision == "ask" and "integer variable" in v.reason or "arithmetic" in v.reason


@pytest.mark.parametrize("command", [
    "if true; then x=~/.ssh; else x=/tmp; fi; cat $x/id_rsa",
    "x=~/.ssh; false && x=/tmp; cat $x/id_rsa",
    "x=~/.ssh; true || x=/tmp; cat $x/id_rsa",
    "x=~/.ssh; while false; do x=/tmp; done; cat $x/id_rsa",
    "x=~/.ssh; case a in b) x=/tmp;; esac; cat $x/id_rsa",
    "for d in ~/.ssh /tmp; do break; done; cat $d/id_rsa",
    "x=~/.ssh; for ((i=0; i<0; i++)); do x=/tmp; done; cat $x/id_rsa",
    "if :; then f=-rf; else f=-r; fi; rm $f /tmp/v",
])
def test_a_value_a_branch_or_loop_may_have_assigned_is_not_known_after_it(command):
    v = _decide(command)
    assert v.decision == "ask" and "not known" in v.reason, (command, v.reason)


@pytest.mark.parametrize("command,decision", [
    ("x=~/.ssh; x=/tmp & cat $x/id_rsa", "deny"),       # the job's x is its own
    ("x=.s; x+=sh; cat ~/$x/id_rsa", "deny"), ("f=-r; f+=f; rm $f /tmp/v", "deny"),
    ("declare -l x=.SSH; cat ~/$x/id_rsa", "deny"), ("typeset -l x; x=.SSH; cat ~/$x/id_rsa", "deny"),
    ("declare -u f; f=-rf; rm $f /tmp/v", "allow"),    # -RF: rm's options are case-sensitive
    ("declare -l f=-RF; rm $f /tmp/v", "deny"),
    ("x=/tmp; unset x; cat ${x:-~/.ssh}/id_rsa", "ask"),
    ('f() { shift; cat "$1"/id_rsa; }; f /tmp ~/.ssh', "deny"),
    ('f() { shift 2; cat "$1"; }; f a b ~/.ssh/id_rsa', "deny"),
    ('f() { set -- ~/.ssh; cat "$1"/id_rsa; }; f /tmp', "deny"),
    ('set -- ~/.ssh/id_rsa; cat "$1"', "deny"), ('set -- a.py; cat "$1"', "allow"),
    ("x=a.py; cd /tmp && cat $x", "allow"), ("if [ -f a.py ]; then cat a.py; fi", "allow"),
    ("set -e; set -o pipefail; ls", "allow"),
])
def test_variables_are_what_bash_has_when_the_command_runs(command, decision):
    assert _decide(command).decision == decision, command


@pytest.mark.parametrize("nul", ["\\0", "\\x00", "\\u0000", "\\c@", "\\000"])
def test_a_dollar_quote_ends_at_a_nul(nul):
    assert _decide(f"cat ~/$'.ssh{nul}x'/id_rsa").decision == "deny", nul


@pytest.mark.parametrize("cls", ["upper", "lower", "alpha", "punct", "alnum"])
def test_a_glob_class_may_hold_any_character(cls):
    assert shell_pattern(f"id[[:{cls}:]]rsa") == "id?rsa"
    assert shell_pattern(f"id[![:{cls}:]]rsa") == "id?rsa"
    assert _decide(f"cat ~/.ssh/id[[:{cls}:]]rsa").decision == "deny"


@pytest.mark.parametrize("program", sorted(P.RESPONSE_FILES))
def test_a_response_file_is_not_read(program):
    v = _decide(f"{program} @/tmp/rsp")
    assert v.decision == "ask" and "@/tmp/rsp" in v.reason, (program, v.reason)


@pytest.mark.parametrize("command", [". fn.sh; echo ~/.ssh/id_rsa", "source fn.sh; echo ~/.ssh/id_rsa",
                                     "eval 'echo() { cat \"$1\"; }'; echo ~/.ssh/id_rsa"])
def test_a_function_defined_in_a_sourced_file_is_the_caller_s(command):
    assert _decide(command).decision == "deny", command


def test_dot_is_source_not_a_program_found_on_path():
    # `.` found on PATH is a folder (`/usr/bin/.`): it was read as a program named `bin`
    fs = MemoryFS({**FS.entries, "/usr/bin/cat": "x", f"{HOME}/proj/leak.sh": "cat ~/.ssh/id_rsa\n"})
    v = decide(fs, ". leak.sh", env={"PATH": "/usr/bin"})
    assert v.decision == "deny", v.reason


def test_locale_data_is_unresolved_and_guarded():
    assert _decide("LOCPATH=/tmp/loc bash -c 'echo hi'").decision == "ask"
    for path in ("/etc/nsswitch.conf", "/usr/lib/x86_64-linux-gnu/libnss_x.so.2",
                 "/usr/lib/locale/w/LC_CTYPE"):
        v = _decide(f"echo x > {path}")
        assert v.decision == "deny" and v.rule == SELF_RULE, path
