"""Red team round 7's classes (a blind team, docs/policy.md only), each stopped by its effect:
a `$"..."` glued inside a word, bash's command table (BASH_CMDS), backups and `cp --parents`,
in-place backups named with `*`, options that take names from elsewhere (archive renames, a
config file, the server), git keys that run commands, `SHELL=`, `mount -o bind`, list files
that are read, `rm --interactive=never`. Each with a neighbour that still runs."""
from __future__ import annotations

import pytest

from agentdeck.core.policy import programs as P
from agentdeck.core.policy.fs import MemoryFS
from agentdeck.core.policy.rules import Context, evaluate_doc
from agentdeck.core.policy.vocabulary import tool_calls

HOME = "/home/me"
DOC = {"unresolved": "ask",
       "rules": [{"id": "rm", "tool": "shell", "command": "rm", "args": ["-r|-R", "-f|--force"],
                  "decision": "deny", "reason": "no rm -rf"}],
       "paths": [{"id": "keys", "paths": ["~/.ssh/id_*"], "except": ["~/.ssh/*.pub"],
                  "access": ["read", "write"], "decision": "deny", "reason": "keys"},
                 {"id": "hooks", "paths": ["~/.claude/settings.json"], "access": ["write"],
                  "decision": "deny", "reason": "hooks"}]}
FS = MemoryFS({f"{HOME}/.ssh/id_rsa": "k", f"{HOME}/.ssh/id_rsa.pub": "p",
               f"{HOME}/.claude/settings.json": "{}", f"{HOME}/proj/a.txt": "a",
               "/tmp/e/settings.json": "{}", "/tmp/e/id_rsa": "x"})


def _decide(command: str):
    calls = tool_calls({"tool_name": "Bash", "tool_input": {"command": command}})
    return evaluate_doc(DOC, calls, Context(HOME, f"{HOME}/proj", {"HOME": HOME}, FS))


STOPPED = [
    # $"..." (a locale string) glued inside a word: bash drops the $
    ('cat ~/$".ssh"/id_rsa', "keys"), ('cat ~/.ssh/$"id"_rsa', "keys"),
    ('echo x > ~/$".claude"/settings.json', "hooks"), ('rm -r$"f" /tmp/v', "unresolved"),
    # bash's table of the program each name runs
    ("declare -A BASH_CMDS=([ls]=/bin/cat); ls ~/.ssh/id_rsa", "unresolved"),
    ("BASH_ALIASES=([ll]='rm -rf'); ll /tmp/v", "unresolved"),
    # where a copy lands: its path kept, a backup of what was there
    ("cd /tmp/e && cp --parents .ssh/id_rsa ~/", "keys"),
    ("cp --backup=simple --suffix=.json /tmp/a ~/.claude/settings", "hooks"),
    ("SIMPLE_BACKUP_SUFFIX=.json cp -b /tmp/a ~/.claude/settings", "hooks"),
    ("cp -b -S _rsa /tmp/a ~/.ssh/id", "keys"), ("ln -f -b -S .json /tmp/a ~/.claude/settings", "hooks"),
    ("rsync -R /tmp/e/./.claude/settings.json ~/", "hooks"),
    ("cd /tmp/e && sed -i'/home/me/.claude/*' -n p settings.json", "hooks"),
    ("cd /tmp/e && perl -pi'/home/me/.ssh/*' -e 1 id_rsa", "keys"),
    ("sed -i.json -n p ~/.claude/settings", "hooks"),
    # names that are not on the line
    ("tar -xPf /tmp/s.tar --transform='s,^,/home/me/.claude/,'", "unresolved"),
    ("curl -K - http://x", "unresolved"), ("curl -OJ http://x/y", "unresolved"),
    ("wget -e output_document=/home/me/.claude/settings.json http://x", "unresolved"),
    ("patch -b -B /home/me/.claude/ settings.json < /tmp/p.diff", "unresolved"),
    ("git hash-object -w --stdin-paths <<< .ssh/id_rsa", "unresolved"),
    # git keys that run commands
    ("git -c trailer.s.command='rm -rf /tmp/v' commit -m x --trailer s=1", "rm"),
    ("git -c core.alternateRefsCommand='rm -rf /tmp/v' fetch /tmp/o", "rm"),
    ("git -c man.viewer=x -c man.x.cmd='cat ~/.ssh/id_rsa' help status", "keys"),
    ("git -c gpg.ssh.defaultKeyCommand='rm -rf /tmp/v' commit -S -m x", "rm"),
    # the shell programs run their -c text with
    ("SHELL='rm -rf /tmp/v' flock /tmp/l -c true", "rm"),
    # a bind mount spelled with -o, reads through other options
    ("mount -o bind ~/.ssh /tmp/m", "keys"), ("grep --directories=recurse . ~/.ssh", "keys"),
    ("git diff --no-index /tmp/e ~/.ssh", "keys"), ("du --files0-from=/home/me/.ssh/id_rsa", "keys"),
    # the option whose effect is --force
    ("rm -r --interactive=never /tmp/v", "rm"),
]
NEIGHBOURS = ['echo $"hello"', "declare -A m=([a]=1); echo ${m[a]}", "cp --parents a.txt /tmp/b/",
              "cp -b a.txt b.txt", "sed -i.bak s/a/b/ a.txt", "curl -O http://x/a.tgz",
              "wget -e robots=off -O /tmp/a http://x/", "git commit -m x --trailer 'Acked-by: a'",
              "SHELL=/bin/bash flock /tmp/l -c true", "mount -t tmpfs none /tmp/x",
              "grep --directories=skip x a.txt", "git diff --no-index a.txt /tmp/e/id_rsa",
              "rm -r --interactive=once /tmp/v", "ssh-keygen -y -f /tmp/e/id_rsa"]


@pytest.mark.parametrize("command,rule", STOPPED)
def test_each_round7_form_is_stopped_by_its_effect(command, rule):
    v = _decide(command)
    assert (v.decision != "allow", v.rule) == (True, rule), (v.decision, v.rule, v.reason)


@pytest.mark.parametrize("command", NEIGHBOURS)
def test_their_neighbours_run(command):
    v = _decide(command)
    assert v.decision == "allow", v.reason


def test_the_tables_name_what_the_resolver_reads():
    assert P.same_effect("rm", "--interactive=never") == "--force"
    assert P.same_effect("rm", "--interactive=n") == "--force"   # argmatch: never|no|none
    assert P.same_effect("rm", "--interactive=o") == ""
    assert "--transform" in P.UNSEEN_OPTIONS["tar"]
    assert P._inplace_backups("sed", ["-i/x/*", "p"], ["p", "f.json"])[-1] == "/x/f.json"


SSH_HOME = {f"{HOME}/.ssh/id_rsa": "k", f"{HOME}/proj/a.txt": "a",
            f"{HOME}/.ssh/config": "Host jump\n  ProxyCommand ssh -W %h:%p bastion\n"
                                   "Host evil\n  ProxyCommand=cat ~/.ssh/id_rsa\n",
            "/etc/ssh/ssh_config": "Include /etc/ssh/ssh_config.d/*.conf\nHost *\n  SendEnv LANG\n",
            "/etc/ssh/ssh_config.d/z.conf": 'Match host x exec "rm -rf /tmp/v"\n'}


@pytest.mark.parametrize("command", ["ssh -G x", "scp a.txt h:b", "git push origin main",
                                     "rsync -a a.txt h:b"])
def test_what_ssh_s_configuration_runs_is_judged_when_it_runs(command):
    """Red team round 7: a `Match exec` line in /etc/ssh/ssh_config.d (or ~/.ssh/config's
    ProxyCommand) ran a command in every later ssh, scp or git over ssh."""
    calls = tool_calls({"tool_name": "Bash", "tool_input": {"command": command}})
    ctx = Context(HOME, f"{HOME}/proj", {"HOME": HOME}, MemoryFS(SSH_HOME))
    v = evaluate_doc(DOC, calls, ctx)
    assert v.decision == "deny" and v.rule in ("rm", "keys"), (v.decision, v.rule, v.reason)
    clean = {k: t for k, t in SSH_HOME.items() if "z.conf" not in k}
    clean[f"{HOME}/.ssh/config"] = "Host jump\n  ProxyCommand ssh -W %h:%p bastion\n"
    v = evaluate_doc(DOC, calls, Context(HOME, f"{HOME}/proj", {"HOME": HOME}, MemoryFS(clean)))
    assert v.decision == "allow", v.reason
