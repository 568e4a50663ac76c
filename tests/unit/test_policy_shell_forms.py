"""Shell forms whose evaluation runs text the line does not show as a command (bash evaluates a
variable's value as an arithmetic expression, a prompt, a subscript of a name; substitutions
in defaults, subscripts, offsets, `<<-` heredocs, backquotes in heredocs, `mapfile -C`
callbacks; functions imported from the environment): walked where the text is on the line,
unresolved where a value is not a static number (core/policy/shellparse.py)."""
from __future__ import annotations

import pytest

from agentdeck.core.policy.fs import MemoryFS
from agentdeck.core.policy.rules import Context, evaluate_doc
from agentdeck.core.policy.vocabulary import tool_calls

H = "/home/me"
FS = MemoryFS({f"{H}/.ssh/id_rsa": "k", f"{H}/work/a.txt": "x"})
DOC = {"unresolved": "ask",
       "rules": [{"id": "rmrf", "tool": "shell", "command": ["rm"],
                  "args": ["-r|-R|--recursive", "-f|--force"], "decision": "deny", "reason": "no"}],
       "paths": [{"id": "keys", "paths": ["~/.ssh/id_*"], "access": ["read", "write"],
                  "decision": "deny", "reason": "keys"}]}


def decide(command: str):
    calls = tool_calls({"tool_name": "Bash", "tool_input": {"command": command}})
    return evaluate_doc(DOC, calls, Context(H, f"{H}/work", {"HOME": H}, FS))


@pytest.mark.parametrize("command", [
    "x='a[$(rm -rf x)]'; echo $((x))", "echo $(( $KEY + 1 ))",
    "x='a[$(rm -rf x)]'; echo $(( $x + 1 ))",
    "x='a[$(rm -rf x)]'; (( x ))", "x='a[$(rm -rf x)]'; let x", "x='a[$(rm -rf x)]'; let y=x+1",
    "x='a[$(rm -rf x)]'; [[ x -eq 0 ]]", "[[ 1 -lt $KEY ]]",
    "x='a[$(rm -rf x)]'; for ((i=x; i<1; i++)); do :; done", "echo $((KEY))",
    "(( i++ ))", "[[ $N -gt 3 ]] && echo big", "x='$(rm -rf x)'; echo \"${x@P}\"",
    "env 'BASH_FUNC_ls%%=() { rm -rf x; }' bash -c ls",
    "x='a[$(rm -rf x)]'; echo ${arr[x]}",
])
def test_a_value_evaluated_as_code_is_unresolved(command):
    v = decide(command)
    assert (v.decision, v.rule) == ("ask", "unresolved"), v.reason


@pytest.mark.parametrize("command", [
    "echo $(( a[$(rm -rf x)] ))", "declare -i n; n='a[$(rm -rf x)]'",
    "declare -i n='a[$(rm -rf x)]'", "test -v 'a[$(rm -rf x)]'", "[ -v 'a[$(rm -rf x)]' ]",
    "[[ -v a[$(rm -rf x)] ]]", "printf -v 'a[$(rm -rf x)]' %s 1", "read 'a[$(rm -rf x)]' <<< 1",
    "read -r -p hi 'a[$(rm -rf x)]' <<< 1", "unset 'a[$(rm -rf x)]'",
    "echo ${NOPE:-$(rm -rf x)}", "echo ${NOPE:=$(rm -rf x)}", "echo ${NOPE:+`rm -rf x`}",
    "cat <<-EOF\n\t$(rm -rf x)\n\tEOF", "tee /dev/null <<EOF\n`rm -rf x`\nEOF",
    "mapfile -C 'rm -rf x #' -c 1 arr <<< x", "readarray -tC 'rm -rf x #' -c 1 a <<< x",
    "a[$(rm -rf x)]=1", "declare -A m; m[$(rm -rf x)]=1", "echo ${a[$(rm -rf x)]}",
    "echo ${#a[$(rm -rf x)]}", "echo \"${a[@]:$(rm -rf x; echo 0)}\"",
    "for ((i=0; i<$(rm -rf x); i++)); do :; done", "x='a[$(rm -rf x)]'; [[ 1 -lt $x ]]",
])
def test_substitutions_in_evaluated_positions_are_walked(command):
    v = decide(command)
    assert (v.decision, v.rule) == ("deny", "rmrf"), v.reason


@pytest.mark.parametrize("command", [
    "cat <<-EOF\n\t$(cat ~/.ssh/id_rsa)\n\tEOF", "echo ${NOPE:-$(cat ~/.ssh/id_rsa)}",
    "x='a[$(cat ~/.ssh/id_rsa)]'; a[1]=1; echo ${a[1]}; read 'a[$(cat ~/.ssh/id_rsa)]' <<< 1",
])
def test_key_reads_in_evaluated_positions_are_denied(command):
    v = decide(command)
    assert (v.decision, v.rule) == ("deny", "keys"), v.reason


@pytest.mark.parametrize("command", [
    "echo $((1+2))", "i=0; (( i++ )); echo $i", "for ((i=0; i<3; i++)); do echo $i; done",
    "n=3; echo $((n * 2 + RANDOM % 2))", "let n=1+2", "[[ 3 -gt 2 ]] && echo y",
    "declare -i n=4; n=n+1", "declare -A m; m[key]=1; echo ${m[key]}",
    "a=(1 2 3); echo ${a[1]} ${a[@]:1} ${#a[@]}", "echo ${NOPE:-default}",
    "cat <<-EOF\n\thello $HOME\n\tEOF", "mapfile -t lines < a.txt", "printf -v out %s hi",
    "read -r line <<< hi; echo $line", "test -v HOME && echo set", "i=1; a[i]=2; echo ${a[i]}",
    "x=5; (( x > 3 )) && echo big", "echo $(( $# + 1 ))",
])
def test_arithmetic_on_static_numbers_runs(command):
    v = decide(command)
    assert v.decision == "allow", v.reason


@pytest.mark.parametrize("command", [
    "echo ${PATH#$(rm -rf x)}", "echo ${HOME,,$(rm -rf x)}", "echo ${PWD%%`rm -rf x`}",
    "a=($(rm -rf x))", "a=(y $(rm -rf x))", "a=([$(rm -rf x)]=1)", "a=([1]=$(rm -rf x))",
    "declare -A m=([$(rm -rf x)]=1)", "a+=([0]=\"$(rm -rf x)\")",
])
def test_substitutions_in_patterns_and_compound_arrays_are_walked(command):
    v = decide(command)
    assert (v.decision, v.rule) == ("deny", "rmrf"), v.reason


@pytest.mark.parametrize("command", [
    "x='a[$(rm -rf x)]'; arr+=([x]=1)", "a=([$KEY]=1)",
])
def test_an_indexed_compound_subscript_is_arithmetic(command):
    v = decide(command)
    assert (v.decision, v.rule) == ("ask", "unresolved"), v.reason


@pytest.mark.parametrize("command", [
    "a=([0]=x [1]=y); echo ${a[@]}", "declare -A m=([k]=v [j]=\"a b\"); echo ${m[k]}",
    "echo \"${PATH#*:}\" ${PWD##*/} ${HOME,,}", "a=([1]='$(rm -rf x)')", "a=(1 2 3); i=1; a+=([i]=4)",
])
def test_static_patterns_and_compound_arrays_run(command):
    v = decide(command)
    assert v.decision == "allow", v.reason


@pytest.mark.parametrize("command", [
    "echo $(( $(cat F) ))", "(( $(cat F) ))", "echo $(( `cat F` ))", "sleep $(( $(cat F) ))",
    "echo ${a[$(cat F)]}", "a[$(cat F)]=1", "s=abc; echo ${s:$(cat F)}",
    "echo $(( $(wc -l F) ))", "x=$(cat F); echo ${!x}", "echo ${!KEY}",
])
def test_output_or_names_evaluated_as_code_are_unresolved(command):
    v = decide(command)
    assert (v.decision, v.rule) == ("ask", "unresolved"), v.reason


def test_an_indirect_name_s_subscript_is_walked():
    v = decide("x='a[$(rm -rf x)]'; echo ${!x}")
    assert (v.decision, v.rule) == ("deny", "rmrf"), v.reason


@pytest.mark.parametrize("command", [
    "echo $(( $(nproc) + 1 ))", "n=$(( $(wc -l < a.txt) + 1 ))", "echo $(( $(echo 3) * 2 ))",
    "x=HOME; echo ${!x}", "echo ${!a[@]} ${!BASH*}", "make -j$(nproc)",
])
def test_known_output_and_static_indirection_run(command):
    v = decide(command)
    assert v.decision == "allow", v.reason


@pytest.mark.parametrize("command", [
    "cat <<EOF\nx\nEO\\\nF\nrm -rf x\nEOF", "x=$(cat <<EOF\nEO\\\nF\nrm -rf x\nEOF\n)",
    "cat <<-EOF\n\tEO\\\nF\nrm -rf x\n\tEOF", "cat <<END\nE\\\nN\\\nD\ncat ~/.ssh/id_rsa\nEND",
])
def test_a_heredoc_delimiter_spelled_by_continuations_ends_the_body(command):
    """bash joins backslash-newline in an unquoted heredoc's body before it looks for the
    delimiter: what follows `EO\\` + `F` runs, and is judged."""
    v = decide(command)
    assert v.decision == "deny", v.reason


@pytest.mark.parametrize("command", [
    "cat ~/.ss\\\nh/id_rsa", "echo \"$\\\n(cat ~/.ssh/id_rsa)\"", "r\\\nm -rf x",
    "rm -r\\\nf x", "echo \"`rm -r\\\nf x`\"", "cat <<EOF\n$\\\n(rm -rf x)\nEOF",
])
def test_a_backslash_newline_inside_a_word_joins_it_as_bash_does(command):
    v = decide(command)
    assert v.decision == "deny", v.reason


@pytest.mark.parametrize("command", [
    "cat \\\n  a.txt", "echo 'rm -r\\\nf x'", "echo $'rm -r\\\nf x'",
    "# rm -r\\\necho f x", "cat <<'EOF'\nrm -r\\\nf x\nEOF", "echo rm -r\\\\\nf x",
])
def test_a_backslash_newline_that_bash_keeps_or_ends_a_line_with_stays(command):
    v = decide(command)
    assert v.decision == "allow", v.reason


@pytest.mark.parametrize("command", [
    "PWD=~/.ssh; cat ~+/id_rsa", "OLDPWD=~/.ssh; cd -; cat id_rsa", "export PWD=/x; ls",
    "set -k; env x BASH_ENV=run.sh", "set -o keyword; ls", "set -ek; ls",
    "setarch x86_64 rm -r -f x", "linux64 /bin/rm -rf x", "pyenv exec rm -rf x",
    "runner 'rm -rf x'", "runner --flag \"cd x && rm -rf .\"",
])
def test_state_and_runners_the_resolver_does_not_follow_are_unresolved(command):
    v = decide(command)
    assert (v.decision, v.rule) == ("ask", "unresolved"), v.reason


@pytest.mark.parametrize("command,decision", [
    # fed a text that is not known: the word is not known
    ("ls | xargs -I% rm -r% x", "ask"), ("touch f; find f -exec rm -r{} x \\;", "ask"),
    ("ls | xargs -I{} {} -rf x", "ask"), ("ls | xargs -i rm -r{} x", "ask"),
    ("ls | xargs --replace rm -r{} x", "ask"),
    # fed a known text: each command xargs runs is that text put in (red team round 10)
    ("echo f | xargs -I% rm -r% x", "deny"), ("echo rm | xargs -I{} {} -rf x", "deny"),
    ("echo f | xargs -i rm -r{} x", "deny"), ("echo f | xargs --replace rm -r{} x", "deny"),
    ("echo id_rsa | xargs -I@ cat ~/.ssh/@", "deny"),
    ("touch f; find f -execdir cat ~/.ssh/id_{} \\;", "deny"),
])
def test_a_word_xargs_or_find_fills_in_is_not_taken_literally(command, decision):
    v = decide(command)
    assert v.decision == decision, v.reason


@pytest.mark.parametrize("command,rule", [
    ("bash -s x <<< 'rm -rf x'", "rmrf"), ("echo 'rm -rf x' | bash -s x", "rmrf"),
    ("dash -s x <<< 'cat ~/.ssh/id_rsa'", "keys"), ("bash -c -e 'rm -rf x'", "rmrf"),
    ("bash -c -- 'rm -rf x'", "rmrf"), ("bash -c +o posix 'cat ~/.ssh/id_rsa'", "keys"),
    ("bash - x <<< 'rm -rf x'", "rmrf"), ("cat <<EOF | sh\nrm -rf x\nEOF", "rmrf"),
    ("cat <<EOF && rm -rf x\nbody\nEOF", "rmrf"), ("cat <<EOF || cat ~/.ssh/id_rsa\nb\nEOF", "keys"),
    ("cat <<'EOF' | bash\ncat ~/.ssh/id_rsa\nEOF", "keys"), ("echo 'rm -rf x' | sh", "rmrf"),
])
def test_what_a_shell_runs_is_read_as_it_reads_it(command, rule):
    v = decide(command)
    assert (v.decision, v.rule) == ("deny", rule), v.reason


@pytest.mark.parametrize("command", [
    "bash -eo pipefail -c 'ls'", "cat <<EOF | grep x\nbody\nEOF", "echo ls | sh",
    "cat <<EOF && echo done\nbody\nEOF", "bash -c 'echo hi' arg0 a",
])
def test_shell_inputs_that_run_harmless_text_run(command):
    v = decide(command)
    assert v.decision == "allow", v.reason


@pytest.mark.parametrize("command", [
    "builtin cd ~/.ssh; cat id_rsa", "command cd ~/.ssh && cat id_rsa", "eval cd ~/.ssh; cat id_rsa",
    "time cd ~/.ssh; cat id_rsa", "f(){ cd ~/.ssh; }; f; cat id_rsa",
    "cd() { builtin cd ~/.ssh; }; cd /tmp; cat id_rsa", "pushd ~/.ssh >/dev/null; popd -n; cat id_rsa",
    "cd ~/.ssh; cd /nonexistent 2>/dev/null; cat id_rsa", "cd ~/.ssh; false && cd /tmp; cat id_rsa",
    "cd ~/.ssh; while false; do cd /tmp; done; cat id_rsa",
])
def test_a_later_command_is_judged_in_every_folder_the_line_went_to(command):
    """A cd that fails, one in a branch that does not run, in a function or after a wrapper
    builtin: the resolver cannot be sure which folder is current, so it judges them all."""
    v = decide(command)
    assert (v.decision, v.rule) == ("deny", "keys"), v.reason


@pytest.mark.parametrize("command", [
    "cd /tmp && cat a.txt; cd - && ls", "cd ~/work; cat a.txt; cd ..; ls",
])
def test_changing_folder_among_harmless_files_runs(command):
    v = decide(command)
    assert v.decision == "allow", v.reason


@pytest.mark.parametrize("command", [
    "cd ~/.ssh && cat *", "cd ~/.ssh; x=*; base64 $x", "cd ~/.ssh && cat **",
    "cd ~/.ssh && tar cf - *",
])
def test_a_bare_star_names_every_file_of_the_folder(command):
    v = decide(command)
    assert (v.decision, v.rule) == ("deny", "keys"), v.reason


@pytest.mark.parametrize("command", [
    "cd ~/.ssh && cat $(ls)", "cd ~/.ssh && ls | xargs cat", "cd ~/.ssh && ls | sort | xargs head",
    "cd ~/.ssh && f() { cat \"$1\"; }; f x", "cd ~/.ssh && for f in *; do cat \"$f\"; done",
])
def test_a_word_whose_value_is_not_known_may_be_any_name_of_the_folder(command):
    v = decide(command)
    assert (v.decision, v.rule) == ("ask", "unresolved"), v.reason


@pytest.mark.parametrize("command", [
    "cat *", "wc -l *", "ls | xargs cat", "f() { cat \"$1\"; }; f a.txt",
    "find . -name '*.o' | xargs rm -f",
])
def test_stars_and_unknown_words_in_a_folder_with_nothing_protected_run(command):
    v = decide(command)
    assert v.decision == "allow", v.reason


@pytest.mark.parametrize("command", [
    "indexer ~/.ssh", "indexer --root=~/.ssh", "cd ~/.ssh && indexer .", "indexer ~",
    "indexer /", "indexer -v ~/.ssh/",
])
def test_a_folder_holding_a_protected_path_given_to_an_unmodelled_program_is_unresolved(command):
    """The program may walk the folder (read or rewrite what is below it): agentdeck cannot
    tell, so it asks, and says which protected path is there."""
    v = decide(command)
    assert (v.decision, v.rule) == ("ask", "unresolved"), v.reason
    assert "id_rsa" in v.reason and "indexer" in v.reason


@pytest.mark.parametrize("command", [
    "indexer .", "indexer --root=.", "indexer ~/work", "indexer ~/work/a.txt", "du -sh ~",
    "ls ~/.ssh",
])
def test_a_folder_with_nothing_protected_below_or_a_modelled_program_runs(command):
    v = decide(command)
    assert v.decision == "allow", v.reason


@pytest.mark.parametrize("command", [
    "set -euo pipefail; ls", "set -x; ls", "set -- -k", "setarch x86_64 make",
    "git rm -r -f --cached x", "git commit -m 'rm -rf x'", "echo rm -rf x", "man rm",
    "runner rm x", "cd /tmp && cd - && ls",
])
def test_options_and_mentions_next_to_those_run(command):
    v = decide(command)
    assert v.decision == "allow", v.reason


@pytest.mark.parametrize("command", [
    "cat <<EOF\nhello \\\nworld\nEOF", "cat <<'EOF'\nEO\\\nF\nEOF",
    "cat <<EOF\na $HOME \\\nb\nEOF",
])
def test_heredocs_with_continuations_elsewhere_run(command):
    v = decide(command)
    assert v.decision == "allow", v.reason


@pytest.mark.parametrize("command", [
    "env BASH_ENV=/tmp/z.sh bash -c :", "env 'PS4=$(rm -rf x)' bash -xc :",
    "env -i SHELLOPTS=xtrace bash -c :", "export 'PS4=$(rm -rf x)'; bash -xc :",
    "declare -x 'PS4=x'; bash -xc :", "export \"ENV=$F\"; sh -c :", "export 'PROMPT_COMMAND=x'",
])
def test_start_up_variables_given_by_env_or_quoted_are_unresolved(command):
    v = decide(command)
    assert (v.decision, v.rule) == ("ask", "unresolved"), v.reason


@pytest.mark.parametrize("command", [
    "export 'PAGER=rm -rf x'; git log", "declare 'a[$(rm -rf x)]=1'",
])
def test_a_quoted_declaration_is_judged_as_an_assignment(command):
    v = decide(command)
    assert (v.decision, v.rule) == ("deny", "rmrf"), v.reason


@pytest.mark.parametrize("command", [
    "export 'FOO=bar'; echo $FOO", "env FOO=1 make", "export \"PATH=$PATH:/opt/bin\"; ls",
])
def test_ordinary_quoted_exports_and_env_run(command):
    v = decide(command)
    assert v.decision == "allow", v.reason


@pytest.mark.parametrize("command", [
    "ls ~/.ssh/id_rsa >/dev/null; cat \"$_\"", "echo ~/.ssh/id_rsa; cat $_",
    "pushd ~/.ssh >/dev/null; pushd /tmp >/dev/null; cat ~1/id_rsa", "cat ~+1/id_rsa",
    "cat ~-2/id_rsa", "set -o history\necho rm -rf x\nfc -s echo=", "set -H; echo rm -rf x; !!",
    "set -eo histexpand", "fc -s", "set -o pipefail -H",
])
def test_last_word_dirstack_and_history_are_unresolved(command):
    v = decide(command)
    assert (v.decision, v.rule) == ("ask", "unresolved"), v.reason


@pytest.mark.parametrize("command", [
    "echo $_", "cat ~+/a.txt", "pushd /tmp && ls && popd", "set -euo pipefail; ls", "fc -l",
    "set +o history; set -- -H x; ls", "set -x; ls",
])
def test_ordinary_set_pushd_and_last_word_run(command):
    v = decide(command)
    assert v.decision == "allow", v.reason


def test_wait_p_evaluates_the_subscript_of_the_name_it_sets():
    v = decide("sleep 1 & wait -n -p 'a[$(rm -rf x)]'")
    assert v.decision == "deny", v.reason
    assert decide("sleep 1 & wait -n -p pid; echo $pid").decision == "allow"


@pytest.mark.parametrize("command", [
    "((x=1)); x=$(cat a.txt); echo $((x))", "((x=1)); read x < a.txt; echo $((x + 1))",
    "((x=1)); for x in $(cat a.txt); do echo $((x)); done",
    "n=$(wc -l < a.txt; cat a.txt); echo $((n))", "n=x$(wc -l < a.txt); echo $((n))",
])
def test_a_number_overwritten_by_text_is_evaluated_again(command):
    v = decide(command)
    assert (v.decision, v.rule) == ("ask", "unresolved"), v.reason


@pytest.mark.parametrize("command", [
    "count=$(wc -l < a.txt); echo $((count + 1))", "n=$(nproc); make -j$((n + 1))",
    'n="$(wc -l < a.txt)"; [[ $n -gt 3 ]] && echo big',
])
def test_a_count_a_number_printer_gave_is_a_number(command):
    v = decide(command)
    assert v.decision == "allow", v.reason


@pytest.mark.parametrize("command", [
    "xargs cat <<< ~/.ssh/id_rsa", "xargs -I{} cp {} /tmp/ <<< ~/.ssh/id_rsa",
    "xargs cat <<EOF\n/home/me/.ssh/id_rsa\nEOF", "xargs rm -f <<< '-r x'",
])
def test_xargs_appends_the_words_of_a_here_string_or_heredoc(command):
    v = decide(command)
    assert v.decision == "deny", v.reason


def test_xargs_fed_a_here_string_of_plain_words_runs():
    assert decide("xargs -n1 echo <<< 'a b c'").decision == "allow"
    v = decide('xargs cat <<< "$F"')
    assert (v.decision, v.rule) == ("ask", "unresolved"), v.reason
