"""Red team round 8's classes (a blind team, docs/policy.md only), each stopped by its effect:
a brace sequence that makes one word (`~/.{s..s}sh`, `{r..r..1}`: bash expands it to `s`),
`find -execdir`, which runs its command in the folder of each file found, a shell's `-O`
options, `rm --interactive=n...`, files read by `date -f`/`hostname -F`/`source` on a changed
PATH, the names split gives its pieces, ldconfig's cache, folders a program runs in (`make -C`,
`tmux -c`, `gdb --cd`, `bwrap --chdir`, inline code's relative chdir), and a found link
followed by what `find -exec` runs."""
from __future__ import annotations

import pytest

from agentdeck.core.policy.fs import MemoryFS
from agentdeck.core.policy.rules import Context, evaluate_doc
from agentdeck.core.policy.shellparse import expand_braces
from agentdeck.core.policy.vocabulary import tool_calls

HOME = "/home/me"
DOC = {"unresolved": "ask",
       "rules": [{"id": "rm", "tool": "shell", "command": "rm", "args": ["-r|-R", "-f|--force"],
                  "decision": "deny", "reason": "no rm -rf"}],
       "paths": [{"id": "keys", "paths": ["~/.ssh/id_*"], "except": ["~/.ssh/*.pub"],
                  "access": ["read", "write"], "decision": "deny", "reason": "keys"},
                 {"id": "guard", "paths": ["~/.claude/settings.json", "**/.claude/settings.local.json",
                                           "/etc/ld.so.cache"],
                  "access": ["write"], "decision": "deny", "reason": "guard"}]}
FS = MemoryFS({f"{HOME}/.ssh/id_rsa": "k", f"{HOME}/.ssh/id_rsa.pub": "p",
               f"{HOME}/.claude/settings.json": "{}", f"{HOME}/.claude/CLAUDE.md": "x",
               f"{HOME}/proj/a.py": "a", f"{HOME}/proj/sub/b.py": "b",
               f"{HOME}/other/k": "->../.ssh/id_rsa",
               "/tmp/mkw": "all:\n\techo {} > settings.json\n"})


def _decide(command: str):
    calls = tool_calls({"tool_name": "Bash", "tool_input": {"command": command}})
    return evaluate_doc(DOC, calls, Context(HOME, f"{HOME}/proj", {"HOME": HOME}, FS))


@pytest.mark.parametrize("command,decision", [
    ("cat ~/.{s..s}sh/id_rsa", "deny"), ("cat ~/.ssh/id_{r..r..1}sa", "deny"),
    ("cat ~/.ssh/id_{r..r..0}sa", "deny"),
    ("find ~/.ssh/id_rsa.pub -execdir cat id_rsa \\;", "deny"),
    ("find ~/.ssh -name '*.pub' -okdir cp id_rsa /tmp/k \\;", "deny"),
    ("find . -name '*.py' -execdir cat notes.txt \\;", "ask"),      # every folder below: unknown
    ("find ~/.claude/CLAUDE.md -execdir cp /tmp/e.json settings.json \\;", "deny"),
    ("bash -O dotglob -c 'cat ~/*/id_rsa'", "ask"), ("bash -O nocaseglob -c ls", "ask"),
    ("rm -r --interactive=no /tmp/v", "deny"), ("rm -r --interactive=n /tmp/v", "deny"),
    ("date -f ~/.ssh/id_rsa", "deny"), ("hostname -F ~/.ssh/id_rsa", "deny"),
    ("PATH=$HOME/.ssh source id_rsa", "deny"),
    ("split -l 1 -a 1 --additional-suffix=.json /tmp/t .claude/settings.loca", "deny"),
    ("git checkout-index --prefix=.claude/ -f settings.local.json", "ask"),
    ("ldconfig /tmp/libs", "deny"),
    ("make -C ~/.claude -f /tmp/mkw", "deny"),
    ("tmux new -d -c ~/.claude 'rm settings.json'", "deny"),
    ("gdb --cd=$HOME/.claude -batch -ex 'shell rm settings.json'", "deny"),
    ("bwrap --bind / / --chdir $HOME/.ssh cat id_rsa", "deny"),
    ("python3 -c 'import os;os.chdir(\"../.claude\");os.remove(\"settings.json\")'", "deny"),
    ("find ~/other -name k -exec cat {} +", "deny"), ("find ~/other -exec cp /dev/null {} \\;", "deny"),
    ("echo {1..5..2}", "allow"), ("find . -name '*.py' -execdir wc -l {} +", "allow"),
    ("bash -o pipefail -c 'ls | wc -l'", "allow"), ("rm -r --interactive=once /tmp/v", "allow"),
    ("date -f dates.txt", "allow"), ("split -l 100 big.log part_", "allow"), ("ldconfig -p", "allow"),
    ("tmux new -d -c /tmp 'ls'", "allow"), ("find . -name '*.py' -exec cat {} +", "allow"),
])
def test_round8_forms(command, decision):
    assert _decide(command).decision == decision


def test_brace_sequences_are_bash_s():
    """The same words bash gives (bash 5.2: `echo {1..3..0} {z..a..10} {05..10..3}`)."""
    assert expand_braces("{1..3..0}") == ["1", "2", "3"]
    assert expand_braces("{z..a..10}") == ["z", "p", "f"]
    assert expand_braces("{05..10..3}") == ["05", "08"]
    assert expand_braces("{a..b..x}") == ["{a..b..x}"]


@pytest.mark.parametrize("args", [{"line": "rm -rf /tmp/v"},
                                  {"program": "rm", "argv": ["-rf", "/tmp/v"]},
                                  {"executable": "/bin/rm", "args": ["-r", "-f", "/tmp/v"]}])
def test_an_mcp_tool_given_a_command_under_other_keys_runs_it(args):
    calls = tool_calls({"tool_name": "mcp__shell__run", "tool_input": args})
    v = evaluate_doc(DOC, calls, Context(HOME, f"{HOME}/proj", {"HOME": HOME}, FS))
    assert (v.decision, v.rule) == ("deny", "rm"), v.reason


LINKS = MemoryFS({f"{HOME}/.ssh/id_rsa": "k", f"{HOME}/.claude/settings.json": "{}",
                  "/tmp/x/k": "->../.ssh/id_rsa", f"{HOME}/tree/s": f"->{HOME}/.claude/settings.json",
                  f"{HOME}/tree/k": f"->{HOME}/.ssh/id_rsa", f"{HOME}/proj/a.py": "a",
                  "/tmp/mk": "all:\n\tcat id_rsa\n"})


@pytest.mark.parametrize("command,decision", [
    # a relative link moved or copied as a link points at the key where it lands
    ("mv /tmp/x/k ~/work/k", "deny"), ("cp -P /tmp/x/k ~/work/k", "deny"),
    ("cp /tmp/x/k ~/work/k", "allow"),                   # cp copies the file the link names
    # names find prints, opened by what xargs runs, and a found link written through
    ("find ~/tree -name k | xargs cat", "deny"),
    ("find ~/tree -name s -exec cp /tmp/e.json {} \\;", "deny"),
    ("find ~/tree -name s | xargs cp /tmp/e.json", "deny"),
    ("find ~/tree -name x | xargs cat", "allow"),
    # make's --directory spelled with = and abbreviated; a list file named by a glob
    ("make --dir=$HOME/.ssh -f /tmp/mk", "deny"), ("date -f ~/.ss?/id_rs?", "deny"),
])
def test_links_moved_found_and_followed(command, decision):
    calls = tool_calls({"tool_name": "Bash", "tool_input": {"command": command}})
    v = evaluate_doc(DOC, calls, Context(HOME, f"{HOME}/proj", {"HOME": HOME}, LINKS))
    assert v.decision == decision, (v.rule, v.reason)


def test_a_copy_of_rm_made_earlier_is_rm():
    """Red team round 8: `cp /bin/rm /tmp/del` in one call, `/tmp/del -rf DIR` in the next (a
    hard link the same): the program is rm by its bytes or its identity, so the argv rule holds.
    A program of other bytes run by its path is judged by its name."""
    fs = MemoryFS({"/usr/bin/rm": "rm's bytes", "/tmp/del": "rm's bytes", "/tmp/delh": "==/usr/bin/rm",
                   "/tmp/tool": "other bytes", f"{HOME}/proj/a.py": "a"})
    for command, decision in (("/tmp/del -rf /tmp/v", "deny"), ("/tmp/delh -r -f /tmp/v", "deny"),
                              ("/tmp/tool -rf /tmp/v", "allow")):
        calls = tool_calls({"tool_name": "Bash", "tool_input": {"command": command}})
        v = evaluate_doc(DOC, calls, Context(HOME, f"{HOME}/proj", {"HOME": HOME}, fs))
        assert v.decision == decision, (command, v.reason)


def test_the_disk_compares_a_copy_byte_for_byte(tmp_path):
    import shutil

    from agentdeck.core.policy.fs import DiskFS
    real = shutil.which("rm")
    copy = tmp_path / "del"
    shutil.copy2(real, copy)
    assert DiskFS().same_program(str(copy), ("cat", "rm")) in ("/usr/bin/rm", "/bin/rm")
    (tmp_path / "other").write_bytes(b"\x7fELF other")
    assert DiskFS().same_program(str(tmp_path / "other"), ("rm",)) is None
