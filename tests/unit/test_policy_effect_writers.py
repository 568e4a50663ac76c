"""Writers and readers judged by their effect (red team round 6): each decompressor writes the
name it strips (programs.DECOMPRESSORS), `python3 -m venv --clear` empties its folder, pip's
`--target` fills one with files not known, `python3 -m zipapp` reads a tree, `git merge-file`
and `git credential-store --file` write their file, `git add -A`/`commit -a` copy the tree into
git's store, and another commit's files under a folder are not known."""
from __future__ import annotations

import pytest

from agentdeck.core.policy import programs as P
from agentdeck.core.policy.fs import MemoryFS
from agentdeck.core.policy.rules import Context, evaluate_doc
from agentdeck.core.policy.vocabulary import tool_calls

HOME = "/home/me"
DOC = {"unresolved": "ask", "rules": [],
       "paths": [{"id": "keys", "paths": ["~/.ssh/id_*"], "except": ["~/.ssh/*.pub"],
                  "access": ["read", "write"], "decision": "deny", "reason": "keys"},
                 {"id": "hooks", "paths": ["~/.claude/settings.json"], "access": ["write"],
                  "decision": "deny", "reason": "hooks"},
                 {"id": "layers", "paths": ["**/.claude/settings.local.json"], "access": ["write"],
                  "decision": "deny", "reason": "layers"}]}
FS = MemoryFS({f"{HOME}/.ssh/id_rsa": "k", f"{HOME}/.claude/settings.json": "{}",
               f"{HOME}/proj/.git/HEAD": "ref", f"{HOME}/proj/src/a.py": "x", f"{HOME}/proj/logs.gz": "z"})


def _decide(command: str):
    calls = tool_calls({"tool_name": "Bash", "tool_input": {"command": command}})
    return evaluate_doc(DOC, calls, Context(HOME, f"{HOME}/proj", {"HOME": HOME}, FS))


@pytest.mark.parametrize("name", sorted(P.DECOMPRESSORS))
def test_each_decompressor_writes_the_name_it_strips(name):
    suffix = P.DECOMPRESSORS[name][0]
    assert _decide(f"{name} -f ~/.claude/settings.json{suffix}").rule == "hooks"
    assert _decide(f"{name} -c ~/.claude/settings.json{suffix}").decision == "allow"


@pytest.mark.parametrize("command,rule", [
    ("gzip -df ~/.claude/settings.json.gz", "hooks"), ("zstd -d ~/.claude/settings.json.zst", "hooks"),
    ("gunzip -Nf ~/.claude/notes.gz", "unresolved"),
    ("python3 -m venv --clear ~/.claude", "hooks"), ("pip install -t ~/.claude x.whl", "hooks"),
    ("python3 -m pip install --target=~/.claude x", "hooks"),
    ("python3 -m zipapp ~/.ssh -o /tmp/x.pyz", "keys"),
    ("git merge-file ~/.claude/settings.json ~/.claude/settings.json /tmp/e", "hooks"),
    ("git credential-store --file ~/.claude/settings.json store", "hooks"),
    ("GIT_INDEX_FILE=~/.claude/settings.json git read-tree HEAD", "unresolved"),
    ("git -C ~/.ssh init -q && git -C ~/.ssh add -A", "keys"),
    ("cd ~ && git init && git add .", "keys"), ("git -C ~/.ssh stash -u", "keys"),
    ("git checkout FETCH_HEAD -- ~/.claude", "hooks"), ("git checkout FETCH_HEAD -- .", "unresolved"),
    ("git restore -s FETCH_HEAD -W -- ~/.claude", "hooks"),
    ("yq -y -i '.a = 1' ~/.claude/settings.json", "hooks"),
    ("echo x | socat -u STDIN CREATE:$HOME/.claude/settings.json", "hooks"),
    ("openssl rand -writerand ~/.claude/settings.json 16", "hooks"),
    ("docker cp c:/settings.json ~/.claude/", "hooks"), ("docker cp ~/.ssh c:/tmp", "keys"),
    ("emacs --batch --eval '(shell-command \"id\")'", "unresolved"),
    ("uudecode /tmp/u.uu", "unresolved"),
])
def test_the_effect_is_judged(command, rule):
    assert _decide(command).rule == rule


@pytest.mark.parametrize("command", [
    "gunzip logs.gz", "python3 -m venv .venv", "python3 -m venv --clear .venv",
    "pip install requests", "git merge-file -p a b c", "git add -A", "git commit -am x",
    "git checkout -- .", "git restore src/a.py", "python3 -m zipapp src -o app.pyz",
    "yq '.a' ~/.claude/settings.json", "docker cp ./src c:/app", "uudecode -o out.bin in.uu",
])
def test_the_same_programs_on_the_project_run(command):
    assert _decide(command).decision == "allow"


@pytest.mark.parametrize("command,decision", [
    ("ssh localhost cat .ssh/id_rsa", "deny"),     # the path is the home's, not the cwd's
    ("ssh -p 22 -o BatchMode=yes -- 127.0.0.1 cp /tmp/x .claude/settings.json", "deny"),
    ("ssh -t host cat .ssh/id_rsa.pub", "allow"), ("ssh host", "allow"),
])
def test_ssh_runs_its_command_in_the_remote_home(command, decision):
    """ssh joins the words after its host into one line that the remote shell runs in the home;
    on `localhost` that is this machine, so the line is judged as one run here."""
    assert _decide(command).decision == decision
    assert P.ssh_command(["-o", "X=1", "h", "ls", "-l"]) == ["ls", "-l"]
