"""Programs that run a command they are given (an option, a subcommand, their own language, a
heredoc, a variable a program runs), configuration that names a command written and then used
on the same line, and programs that take a session's typed input: judged by what they run."""
from __future__ import annotations

import json

import pytest

from agentdeck.core.policy import corpus as C
from agentdeck.core.policy import programs as P
from agentdeck.core.policy.compiled import compile_policy
from agentdeck.core.policy.fs import MemoryFS
from agentdeck.core.policy.rules import Context, evaluate_doc
from agentdeck.core.policy.vocabulary import Call

_DOC = json.loads(compile_policy(C.CORPUS_POLICY, "test", protect=C.PROTECT,
                                 mcp_servers=C.MCP_SERVERS))


def _decide(line: str, kind: str = "") -> tuple[str, str | None]:
    v = evaluate_doc(_DOC, [Call("shell", "Bash", [line], kind=kind)],
                     Context(C.HOME, C.CWD, {"HOME": C.HOME}, MemoryFS(C.TREE)))
    return v.decision, v.rule


@pytest.mark.parametrize("line", [
    "sqlite3 :memory: '.system rm -rf ../protected'", "tmux new -d 'rm -rf x'", "tmux -L s new -d 'rm -rf x'",
    "gdb -batch -ex 'shell rm -rf x'", "git rebase --exec 'rm -rf x' HEAD~1",
    "git bisect run rm -rf x", "git submodule foreach 'rm -rf x'", "socat - EXEC:'rm -rf x'",
    "at now <<< 'rm -rf x'", "screen -dmS s sh -c 'rm -rf x'", "vim -es -c '!rm -rf x' -c q",
    "GIT_EXTERNAL_DIFF='rm -rf x #' git diff", "PAGER='rm -rf x' man ls",
    "export GIT_SSH_COMMAND='rm -rf x'; git fetch", "env GIT_PAGER='rm -rf x' git log",
])
def test_a_command_given_to_a_program_is_judged(line: str) -> None:
    assert _decide(line) == ("deny", "no-recursive-force-rm")


def test_a_protected_path_in_a_carried_command_is_seen() -> None:
    assert _decide("sqlite3 :memory: '.system cat ../../.ssh/id_rsa'")[0] == "deny"
    assert _decide("gdb -batch -ex 'shell cat ../../.ssh/id_rsa'")[0] == "deny"


@pytest.mark.parametrize("line", [
    "make -f - <<< 'all:; rm -rf x'", "expect -c 'spawn rm -rf x'", "xargs -a args.txt rm",
    "git config alias.x '!rm -rf x' && git x",
    "git config core.fsmonitor 'rm -rf x' && git status",
    "echo 'x: ; rm -rf x' > GNUmakefile; make x",
    "printf '{}' > package.json && npm run x",
    "printf 'rm -rf x' > .git/hooks/post-checkout && git checkout -b t",
    "LD_PRELOAD=./x.so ls", "vim -es -c 'w! ../protected/a.txt' -c q",
])
def test_code_not_read_or_written_then_used_is_unresolved(line: str) -> None:
    assert _decide(line) == ("ask", "unresolved")


@pytest.mark.parametrize("line", [
    # (git rebase checks commits out into the work tree: asked, tests/unit/test_policy_git_tree.py)
    "make", "make clean",
    "timeout 5 ls", "xargs echo a b", "tmux new -d 'make test'", "sqlite3 db 'select 1'",
    "PAGER=cat git log", "git config user.name x && git commit -m x", "git log -x",
    "gdb -batch -ex run -ex bt ./a.out",
])
def test_the_same_programs_with_nothing_to_judge_run(line: str) -> None:
    assert _decide(line) == ("allow", None)


@pytest.mark.parametrize("line", ["socat STDIO EXEC:bash", "socat - SYSTEM:sh",
                                  "awk -f /dev/stdin", "tmux new bash"])
def test_a_session_that_starts_a_shell_on_its_input_is_unresolved(line: str) -> None:
    assert _decide(line, "session") == ("ask", "unresolved")
    assert _decide("tmux ls", "session") == ("allow", None)


def test_every_subcommand_carrier_is_read() -> None:
    """Each (program, subcommand) the table lists yields a command or a reason (not silence)."""
    for (prog, sub), (after, how) in P.SUBCOMMAND_CARRIERS.items():
        if prog == "screen":
            continue
        vals = [sub] + ([after] if after else []) + ["rm -rf x"]
        lines, argvs, why = P.carried(prog, vals, None, None)
        assert lines or argvs or why, (prog, sub)


@pytest.mark.parametrize("name,args", [
    ("tool_call", {"tool_name": "read_file", "params": {"file_path": "../.env"}}),
    ("tool_call", {"name": "read_file", "args": '{"file_path": "../.env"}'}),
    ("tool_call", {"name": "read_file", "arguments": {"file_path": "../.env"}}),
    ("read_file", {"absolute_path": "/home/u/project/.env"}),
])
def test_other_tool_shapes_are_judged_as_the_file_read_they_are(name, args) -> None:
    from agentdeck.core.policy.vocabulary import classify

    call = classify(name, args)
    assert call.cls == "read" and call.subjects and call.subjects[0].endswith(".env")


def test_a_legacy_search_name_is_a_search() -> None:
    from agentdeck.core.policy.vocabulary import classify

    call = classify("search_file_content", {"pattern": "API", "dir_path": "/home/u/project"})
    assert (call.cls, call.kind, call.subjects) == ("read", "search", ["/home/u/project"])


@pytest.mark.parametrize("line", [
    "split --filter='rm -rf x' README.md", "tmux -L q new -d 'sleep 3' \\; run-shell 'rm -rf x'",
    "tmux new -d 'sleep 3' \\; split-window 'rm -rf x'",
    "su -s /tmp/in/evilsh root -c true", "python3 -m timeit -s 'import os; os.system(\"rm -rf x\")' pass",
    "python3 -m timeit 'import os; os.system(\"rm -rf x\")'", "python3 -m cProfile /tmp/in/evil.py",
    "python3 -m trace --trace /tmp/in/evil.py", "python3 -m unittest /tmp/in/evil.py",
    "python3 -m pdb -c continue /tmp/in/evil.py", "python3 -m profile -m cProfile /tmp/in/evil.py",
])
def test_a_command_or_code_given_as_an_argument_is_judged(line: str) -> None:
    assert _decide(line) == ("deny", "no-recursive-force-rm")


def test_a_protected_path_in_given_code_or_a_filter_is_seen() -> None:
    assert _decide("split -l 1 --filter='cat ../../.ssh/id_rsa' README.md")[0] == "deny"
    assert _decide("python3 -m doctest /tmp/in/leak.py")[0] == "deny"
    assert _decide("tmux new -d x \\; pipe-pane -o 'cat ../../.ssh/id_rsa'")[0] == "deny"


@pytest.mark.parametrize("line", [
    "strace -o '|rm -rf x' ls", "strace -fo '!rm -rf x' ls", "ltrace --output='|sh' ls",
    "dc -e '!rm -rf x'", "dc prog.dc", "m4 <<< 'syscmd(rm -rf x)'", "m4 defs.m4",
    "tmux display -p '#(rm -rf x)'", "ssh -F /tmp/in/sshcfg -G localhost", "ssh -F/tmp/x h",
    "scp -F /tmp/in/sshcfg a h:b", "GIT_SSH_COMMAND='ssh -F /tmp/x' git ls-remote origin",
])
def test_a_command_a_program_runs_from_text_not_read_is_unresolved(line: str) -> None:
    assert _decide(line) == ("ask", "unresolved")


@pytest.mark.parametrize("line", [
    "split --filter='gzip > $FILE.gz' -l 100 README.md", "strace -o trace.txt ls",
    "dc -e '2 3 + p'", "m4 --version", "tmux new -d 'make test' \\; split-window -h",
    "python3 -m timeit '1+1'", "python3 -m cProfile /tmp/in/ok.py", "python3 -m unittest tests.test_app",
    "ssh -F /dev/null -G localhost", "ssh -oForwardAgent=no host ls", "su -s /bin/bash -c 'ls' root",
])
def test_the_same_programs_given_harmless_commands_run(line: str) -> None:
    assert _decide(line) == ("allow", None)


def test_the_tables_name_programs_that_run_what_they_are_given() -> None:
    assert P.SHELL_TEXT_OPTIONS["split"] == ("--filter",)
    assert set(P.PROGRAM_MODULES) >= {"cProfile", "pdb", "doctest", "unittest", "trace"}
    assert P.tmux_commands(["new", "x", ";", "run", "y"]) == [["new", "x"], ["run", "y"]]


@pytest.mark.parametrize("line", [
    "git bundle create ../../protected/a.txt HEAD", "git format-patch -o ../../protected HEAD~1",
    "git archive -o ../../protected/a.txt HEAD", "git archive --output=../../protected/a.txt HEAD",
    "git config -f ../../protected/a.txt x.y z", "git fast-export --export-marks=../../protected/a.txt HEAD",
    "git pack-objects ../../protected/p < /dev/null", "history -w ../../protected/a.txt",
    "GIT_TRACE=/home/policy-test/protected/a.txt git status",
    "env GIT_TRACE2_EVENT=/home/policy-test/protected/a.txt git status",
    "export GIT_TRACE=/home/policy-test/protected/a.txt; git status",
])
def test_a_file_written_through_an_output_option_or_variable_is_judged(line: str) -> None:
    assert _decide(line)[0] == "deny"


@pytest.mark.parametrize("line", [
    "git archive -o ../out.tar HEAD", "git format-patch -o /tmp/patches HEAD~3",
    "git bundle create /tmp/repo.bundle --all", "GIT_TRACE=1 git status",
    "GIT_TRACE=/tmp/trace.txt git status", "git config -f ../../protected/a.txt --list",
    "history -w /tmp/h",
])
def test_output_options_and_variables_outside_protected_paths_run(line: str) -> None:
    assert _decide(line) == ("allow", None)


@pytest.mark.parametrize("line, expected", [
    ("make MAKEFILES=/tmp/in/Makefile", ("deny", "no-recursive-force-rm")),
    ("make -n MAKEFILES='/tmp/in/Makefile.ok /tmp/in/Makefile'", ("deny", "no-recursive-force-rm")),
    ("ninja -f /tmp/in/b.ninja", ("ask", "unresolved")), ("ctest -S /tmp/in/x.cmake", ("ask", "unresolved")),
    ("cmake -P /tmp/in/x.cmake", ("ask", "unresolved")), ("cmake -C /tmp/c.cmake -B b", ("ask", "unresolved")),
    ("cmake --toolchain=/tmp/t.cmake -B b", ("ask", "unresolved")),
    ("cmake -D CMAKE_PROJECT_INCLUDE=/tmp/x.cmake -B b", ("ask", "unresolved")),
    ("echo 'rule x' > build.ninja; ninja", ("ask", "unresolved")),
    ("make MAKEFILES=/tmp/in/Makefile.ok", ("allow", None)), ("ninja -C build", ("allow", None)),
    ("cmake -S . -B build -DCMAKE_BUILD_TYPE=Release", ("allow", None)),
])
def test_build_files_a_build_tool_reads_are_judged_or_unresolved(line: str, expected: tuple) -> None:
    assert _decide(line) == expected
