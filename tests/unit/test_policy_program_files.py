"""A program read from a file (core/policy/programs.py PROGRAM_FILES: sed -f, awk -f, make -f
and the makefile make finds, python3/perl/node/... FILE, a script's #! interpreter, a shell's
script) is judged as the same program given inline; one the resolver cannot read at decision
time (written earlier in the line, missing while an earlier command of the line may have made
it, a device, a name that is not static, too long) is unresolved, never allowed."""
from __future__ import annotations

import pytest

from agentdeck.core.policy import programs
from agentdeck.core.policy.fs import MemoryFS
from agentdeck.core.policy.rules import Context, evaluate_doc
from agentdeck.core.policy.shellparse import MAX_SCRIPT
from agentdeck.core.policy.vocabulary import tool_calls

H = "/home/me"
W = f"{H}/work"
DOC = {"unresolved": "ask",
       "rules": [{"id": "rmrf", "tool": "shell", "command": ["rm"],
                  "args": ["-r|-R|--recursive", "-f|--force"], "decision": "deny"}],
       "paths": [{"id": "keys", "paths": ["~/.ssh/id_*"], "access": ["read", "write"],
                  "decision": "deny"},
                 {"id": "layer", "paths": ["**/.claude/settings.local.json"],
                  "access": ["write"], "decision": "deny"}]}
#: a program text every interpreter's judge reads as running `rm -rf x`
SPAWN = 'system("rm -rf x")\n'
FILES = {f"{W}/README.md": "x", f"{W}/evil.code": SPAWN, f"{W}/ok.code": "print(1)\n",
         f"{W}/leak.code": f"open('{H}/.ssh/id_rsa')\n",
         f"{W}/e.sed": "1e rm -rf x\n", f"{W}/w.sed": "w .claude/settings.local.json\n",
         f"{W}/ok.sed": "s/a/b/\n", f"{W}/evil.awk": SPAWN.join(["BEGIN{", "}"]),
         f"{W}/ok.awk": "{print $1}\n", f"{W}/evil.mk": "all:\n\t@rm -rf x\n",
         f"{W}/ok.mk": "all:\n\t$(CC) -o app app.c\n", f"{W}/big.code": "#" * (MAX_SCRIPT + 10),
         f"{W}/mk/Makefile": "clean:\n\t$(RM) -r build; rm -rf x\n",
         f"{W}/tool": "#!/usr/bin/env python3\n" + SPAWN}
FS = MemoryFS(FILES)


def decide(command: str):
    calls = tool_calls({"tool_name": "Bash", "tool_input": {"command": command}})
    v = evaluate_doc(DOC, calls, Context(H, W, {"HOME": H}, FS))
    return v.decision, v.rule


def _how(name: str, f: str) -> str:
    """`name` told to read its program from file `f`, as the table says it takes one."""
    opts, _, operand, _ = programs.PROGRAM_FILES[name]
    return f"{name} {f}" if operand else f"{name} {opts[0]} {f}"


_BY_LANGUAGE = {"code": ("evil.code", "ok.code"), "sed": ("e.sed", "ok.sed"),
                "awk": ("evil.awk", "ok.awk"), "make": ("evil.mk", "ok.mk")}


@pytest.mark.parametrize("name", sorted(programs.PROGRAM_FILES))
def test_a_program_file_that_runs_a_denied_command_is_denied(name):
    bad, _ = _BY_LANGUAGE[programs.program_language(name)]
    assert decide(_how(name, bad)) == ("deny", "rmrf")


@pytest.mark.parametrize("name", sorted(programs.PROGRAM_FILES))
def test_a_harmless_program_file_runs(name):
    _, good = _BY_LANGUAGE[programs.program_language(name)]
    assert decide(_how(name, good))[0] == "allow"


@pytest.mark.parametrize("name", sorted(programs.PROGRAM_FILES))
@pytest.mark.parametrize("before", ["echo x > new.f; ", "cp /tmp/y new.f && ",
                                    "python3 -c 'open(1)'; "])
def test_a_program_file_written_earlier_in_the_line_is_unresolved(name, before):
    assert decide(before + _how(name, "new.f")) == ("ask", "unresolved")


@pytest.mark.parametrize("name", sorted(programs.PROGRAM_FILES))
@pytest.mark.parametrize("f", ["$F", "/dev/fd/3", "big.code"])
def test_a_program_file_that_cannot_be_read_is_unresolved(name, f):
    assert decide(_how(name, f)) == ("ask", "unresolved")


@pytest.mark.parametrize("command", ["bash new.sh", "sh < new.sh", "source new.sh"])
def test_a_shell_script_missing_after_a_command_that_may_make_it_is_unresolved(command):
    assert decide("pip download x; " + command) == ("ask", "unresolved")


@pytest.mark.parametrize("command", ["bash new.sh", "source new.sh", "python3 new.py",
                                     "cd src; sed -f new.sed README.md"])
def test_a_missing_program_file_nothing_in_the_line_made_runs_nothing(command):
    assert decide(command)[0] == "allow"


@pytest.mark.parametrize("command,expected", [
    ("python3 leak.code", ("deny", "keys")), ("./tool", ("deny", "rmrf")),
    ("make -C mk clean", ("deny", "rmrf")), ("cd mk && make", ("deny", "rmrf")),
    ("echo 'all:; rm -rf x' > Makefile; make", ("ask", "unresolved")),
    ("sed -f w.sed README.md", ("deny", "layer")),
    ("sed 's/a/b/w .claude/settings.local.json' README.md", ("deny", "layer")),
    ("sed -n '1r /home/me/.ssh/id_rsa' README.md", ("deny", "keys")),
    ("python3 -m json.tool README.md", ("allow", None)), ("perl -ne print README.md", ("allow", None)),
    ("node server.js", ("allow", None)), ("sed -n '/a/w out.txt' README.md", ("allow", None)),
])
def test_program_files_by_effect(command, expected):
    assert decide(command) == expected


@pytest.mark.parametrize("name,words,expected", [
    ("sed", ["-f", "s", "f"], ["s"]), ("sed", ["-nf", "s"], ["s"]), ("sed", ["--file=s"], ["s"]),
    ("sed", ["-n", "p", "f"], []), ("awk", ["-fp.awk"], ["p.awk"]), ("awk", ["{print}", "f"], []),
    ("python3", ["-W", "ignore", "t.py", "a"], ["t.py"]), ("python3", ["-m", "x", "t.py"], []),
    ("python3", ["-c", "x", "t.py"], []), ("python3", ["-"], []), ("python3", [None], [None]),
    ("perl", ["-ne", "print", "f"], []), ("make", ["-C", "d", "-f", "Mk"], ["Mk"]),
    ("make", [], []), ("php", ["-f", "x.php"], ["x.php"]),
])
def test_program_files_reads_the_options(name, words, expected):
    assert programs.program_files(name, words) == expected
