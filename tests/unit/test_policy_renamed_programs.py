"""A program renamed or copied on PATH is judged by what it is (core/policy/shellparse.py
Resolver._record_made and _program_run): a program word the command line made as a copy or
link of a program runs that program; one under a folder the line fills with files it cannot
list, a name a PATH changed in the line finds where the line writes, or a PATH not known, is
unresolved."""
from __future__ import annotations

import pytest

from agentdeck.core.policy.fs import MemoryFS
from agentdeck.core.policy.rules import Context, evaluate_doc
from agentdeck.core.policy.vocabulary import tool_calls

H = "/home/me"
W = f"{H}/work"
FS = MemoryFS({"/usr/bin/rm": "\x7fELF\0", "/bin/rm": "->/usr/bin/rm", "/usr/bin/cat": "\x7fELF\0",
               f"{H}/.ssh/id_rsa": "k", f"{W}/a.txt": "x", f"{W}/ok.sh": "echo hi\n",
               f"{W}/tools/ls": "->/usr/bin/rm", "/tmp/a.tgz": "archive:\nrun\n"})
DOC = {"unresolved": "ask",
       "rules": [{"id": "rmrf", "tool": "shell", "command": ["rm"],
                  "args": ["-r|-R|--recursive", "-f|--force"], "decision": "deny"}],
       "paths": [{"id": "keys", "paths": ["~/.ssh/id_*"], "access": ["read", "write"],
                  "decision": "deny"}]}


def decide(command: str):
    calls = tool_calls({"tool_name": "Bash", "tool_input": {"command": command}})
    v = evaluate_doc(DOC, calls, Context(H, W, {"HOME": H}, FS))
    return v.decision, v.rule


@pytest.mark.parametrize("make", ["cp /bin/rm {}", "cp /usr/bin/rm {}", "ln -s /bin/rm {}",
                                  "ln /usr/bin/rm {}", "install -m 755 /bin/rm {}",
                                  "cp -p /bin/rm {}"])
@pytest.mark.parametrize("run", ["./x", "x", f"{W}/x", "sudo ./x", "env ./x"])
def test_a_copy_or_link_of_a_program_made_in_the_line_is_that_program(make, run):
    assert decide(make.format("./x") + "; " + run + " -rf y") == ("deny", "rmrf")


@pytest.mark.parametrize("command", [
    "mkdir b && cp /bin/rm b/ && b/rm -rf y", "cp -t b /bin/rm; b/rm -rf y",
    "ln -s /bin/rm ~/bin/del; del -rf y", "cp /usr/bin/cat ./c; ./c ~/.ssh/id_rsa",
])
def test_into_a_folder_or_by_its_name(command):
    assert decide(command)[0] == "deny"


@pytest.mark.parametrize("command", [
    "PATH=./tools:$PATH ls -rf y", "PATH=./tools:$PATH; ls -rf y",
    "export PATH=/home/me/work/tools:$PATH; ls -rf y", "PATH=./b:$PATH; cp /bin/rm b/ls; ls -rf y",
    "PATH=\"$HOME/work/tools:$PATH\" ls -rf y",
])
def test_a_name_a_changed_path_finds_is_the_program_it_finds(command):
    assert decide(command) == ("deny", "rmrf")


@pytest.mark.parametrize("command", [
    "PATH=$(cat dirs):$PATH ls", "PATH=$D ls",
    "tar xzf /tmp/a.tgz; ./run", "tar xzf /tmp/a.tgz -C out; out/run",
    "git checkout evil && ./bin/tool", "cp -r /tmp/d ./d && ./d/tool",
    "PATH=./out:$PATH; unzip /tmp/x.zip -d out; tool",
    "echo 'rm -rf y' > del; chmod +x del; del", "cp /tmp/none ./t.sh; ./t.sh",
    "echo x > /tmp/e; cp /tmp/e ./x; ./x",
])
def test_a_program_the_line_may_have_made_is_unresolved(command):
    assert decide(command) == ("ask", "unresolved")


@pytest.mark.parametrize("command", [
    "cp /usr/bin/cat ./c; ./c a.txt", "export PATH=\"$HOME/.local/bin:$PATH\"; pip install x",
    "PATH=/usr/local/go/bin:$PATH go build ./...", "cp ok.sh t.sh; ./t.sh",
    "python3 -m venv .venv && .venv/bin/pip install -e .", "make -j4 && ./bin/app --help",
    "echo hi > out.txt; ./ok.sh", "PATH=./tools:$PATH; cd src; echo ok",
])
def test_ordinary_paths_and_copies_run(command):
    assert decide(command)[0] == "allow"


def test_what_the_line_wrote_is_looked_up_not_rescanned_per_command():
    """Many files written, then many commands: each command asks what was written before it
    without walking every write (the whole line stays well inside the decision budget)."""
    import time

    from agentdeck.core.policy.shellparse import resolve

    line = ("touch " + " ".join(f"f{i}" for i in range(4900)) + "; "
            + "x; ./y; tar xf a -C d; " * 600)
    start = time.monotonic()
    parsed = resolve(line, W, {"HOME": H}, MemoryFS({}), H)
    assert len(parsed.commands) > 1800
    assert time.monotonic() - start < 5.0
