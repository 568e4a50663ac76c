"""Inline code names files relative to the folder it runs in: its string literals and ./ ../
words are judged as paths there (the working folder tracked through `cd`), and the code itself
is no file operand. find lists names: it writes only through its write actions."""
from __future__ import annotations

import json

import pytest

from agentdeck.core.policy.compiled import compile_policy
from agentdeck.core.policy.fs import MemoryFS
from agentdeck.core.policy.rules import Context, evaluate_doc
from agentdeck.core.policy.vocabulary import Call

H = "/home/u"
CWD = H + "/project/work"
RULES = [
    {"id": "keys", "paths": ["~/.ssh/*"], "except": ["~/.ssh/*.pub"],
     "access": ["read", "write"], "decision": "deny"},
    {"id": "envfiles", "paths": ["**/.env"], "access": ["read"], "decision": "deny"},
    {"id": "tree", "paths": ["~/project/protected/**", "~/project/protected"],
     "access": ["write"], "decision": "deny"},
]
TREE = {H: None, H + "/.ssh/id_rsa": "K", H + "/.ssh/id_rsa.pub": "P", H + "/project/.env": "A",
        H + "/project/protected/a.txt": "x", CWD: None, CWD + "/README.md": "r"}


def _decide(command: str) -> tuple[str, str | None]:
    doc = json.loads(compile_policy({"rules": [], "paths": RULES}, "claude", home=H))
    v = evaluate_doc(doc, [Call("shell", "Bash", [command])],
                     Context(H, CWD, {"HOME": H}, MemoryFS(dict(TREE))))
    return v.decision, v.rule


DENIED = [
    ("python3 -c 'print(open(\"../../.ssh/id_rsa\").read())'", "keys"),
    ("cd ~/.ssh && python3 -c 'print(open(\"id_rsa\").read())'", "keys"),
    ("cd .. && python3 -c 'print(open(\".env\").read())'", "envfiles"),
    ("node -e 'console.log(require(\"fs\").readFileSync(\"../.env\",\"utf8\"))'", "envfiles"),
    ("perl -e 'open F,\"<\",\"../.env\"; print <F>'", "envfiles"),
    ("perl -e 'open F, \"< ../.env\"; print <F>'", "envfiles"),
    ("ruby -e 'puts File.read(\"../.env\")'", "envfiles"),
    ("php -r 'echo file_get_contents(\"../.env\");'", "envfiles"),
    ("python3 - <<< 'print(open(\"../.env\").read())'", "envfiles"),
    ("sqlite3 :memory: \"select readfile('../.env')\"", "envfiles"),
    ("python3 -c 'open(\"../protected/a.txt\",\"w\").write(\"pwn\")'", "tree"),
    ("python3 -c 'import shutil; shutil.rmtree(\"../protected\")'", "tree"),
    ("cd ~/project/protected && python3 -c 'open(\"new.txt\",\"w\")'", "tree"),
    ("sqlite3 :memory: \"select writefile('../protected/a.txt','pwn')\"", "tree"),
    ("find ~/project/protected -name '*.txt' -delete", "tree"),
    ("find . -fprint ../protected/a.txt", "tree"),
]
ALLOWED = [
    "cd ~/project/protected && python3 -c 'print(1)'",
    "cd ~/project/protected && node -e 'console.log(1)'",
    "python3 -c 'print(open(\"README.md\").read())'",
    "cd ~/.ssh && python3 -c 'print(open(\"id_rsa.pub\").read())'",
    "python3 -c 'import os; print(os.listdir(\"..\"))'",
    "sqlite3 :memory: 'select 1'",
    "find ~/project/protected -name '*.txt'",
    "find ~/project/protected -type f -print",
]


@pytest.mark.parametrize("command,rule", DENIED)
def test_a_protected_file_named_relatively_in_inline_code_is_denied(command, rule):
    assert _decide(command) == ("deny", rule)


@pytest.mark.parametrize("command", ALLOWED)
def test_inline_code_and_find_that_name_no_protected_file_are_allowed(command):
    assert _decide(command)[0] == "allow"
