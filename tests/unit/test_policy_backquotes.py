"""Backquoted substitutions and bash's own numbers in tests (core/policy/shellparse.py):
`` `< F` `` reads F like `$(< F)`, a redirection with no command still opens its file,
`` `echo \\`CMD\\`` `` runs CMD (bash drops the backslash before parsing the inner text), and
`[[ $? -ne 0 ]]` / `[[ ${#a[@]} -eq 0 ]]` compare numbers bash sets itself."""
from __future__ import annotations

import pytest

from tests.unit.test_policy_shell_forms import decide   # the same rules, home and disk


@pytest.mark.parametrize("command", [
    "echo `< ~/.ssh/id_rsa`", "echo `<../.ssh/id_rsa`", "x=`< ~/.ssh/id_rsa`; echo $x",
    "echo \"`< ~/.ss*/id_rsa`\"", "< ~/.ssh/id_rsa", "> ~/.ssh/id_rsa",
    "echo `echo \\`cat ~/.ssh/id_rsa\\``", "echo \"`echo \\`cat ~/.ssh/id_rsa\\``\"",
    "echo `echo \"\\`cat ~/.ssh/id_rsa\\`\"`",
])
def test_a_backquoted_read_or_a_bare_redirection_is_judged(command):
    v = decide(command)
    assert (v.decision, v.rule) == ("deny", "keys"), v.reason


@pytest.mark.parametrize("command", [
    "echo `echo \\`rm -rf x\\``", "echo `echo \\`echo \\\\\\`rm -rf x\\\\\\`\\``",
    "[[ ${#a[$(rm -rf x)]} -eq 0 ]]", "x='a[$(rm -rf x)]'; [[ $x -eq 0 ]]",
    "x='a[$(rm -rf x)]'; [[ ${x} -eq 0 ]]",
])
def test_a_nested_backquoted_command_is_judged(command):
    v = decide(command)
    assert (v.decision, v.rule) == ("deny", "rmrf"), v.reason


@pytest.mark.parametrize("command", [
    "echo `< a.txt`", "echo `echo \\`echo hi\\``", "echo `echo \\$HOME`",
    "[[ $? -ne 0 ]] && echo fail", "make; [[ $? -eq 0 ]] && echo ok", "[[ $# -gt 0 ]]",
    "[[ $RANDOM -gt 5 ]]", "if [[ ${#files[@]} -eq 0 ]]; then echo none; fi",
    "[[ ${#PATH} -gt 1 ]]", "(( $# > 0 ))", "echo $(( ${#PATH} + 1 ))",
])
def test_benign_look_alikes_run(command):
    v = decide(command)
    assert v.decision == "allow", v.reason


@pytest.mark.parametrize("command", [
    "[[ $KEY -eq 0 ]]", "[[ ${KEY:-1} -eq 0 ]]", "[[ ${!KEY} -eq 0 ]]",
])
def test_a_test_over_a_value_not_known_stays_unresolved(command):
    v = decide(command)
    assert (v.decision, v.rule) == ("ask", "unresolved"), v.reason
