"""An option's value glued to it or inside a cluster (`make -fmk`, `sed -nfs.sed`, `tar -T../k`,
`cp -t../d x`, `xargs -aF`, `grep -fF`, `ssh-keygen -lfF`) is the same option getopt reads: the
resolver splits clusters by the program's option table (programs.SHORT_OPTIONS) before any
other table reads the words, and for a program whose options are not known a rest of a cluster
that names a file is judged as an operand."""
from __future__ import annotations

import json

import pytest

from agentdeck.core.policy import programs as P
from agentdeck.core.policy.compiled import compile_policy
from agentdeck.core.policy.fs import MemoryFS
from agentdeck.core.policy.rules import Context, evaluate_doc
from agentdeck.core.policy.vocabulary import tool_calls

H = "/home/alice"
W = f"{H}/work/repo"
TREE = {f"{H}/.ssh/id_rsa": "K", f"{H}/.ssh/id_rsa.pub": "P", f"{H}/protected/a.txt": "x",
        f"{W}/mk": "all:\n\trm -rf x\n", f"{W}/s.sed": "1e rm -rf x\n", f"{W}/README.md": "x",
        f"{W}/ok.sed": "s/a/b/\n", "/tmp/layer.patch":
        "--- a/.claude/settings.local.json\n+++ b/.claude/settings.local.json\n@@ -0,0 +1 @@\n+{}\n"}


def _decide(command: str):
    doc = json.loads(compile_policy({"unresolved": "ask", "rules": [
        {"id": "no-rf", "tool": "shell", "command": ["rm"], "args": ["-r|-R", "-f"],
         "decision": "deny"}], "paths": [
        {"id": "keys", "paths": ["~/.ssh/id_*"], "except": ["~/.ssh/*.pub"],
         "access": ["read", "write"], "decision": "deny"},
        {"id": "tree", "paths": ["~/protected/**"], "access": ["write"], "decision": "deny"}]},
        "claude", home=H, protect=["**/.claude/settings.local.json"]))
    calls = tool_calls({"tool_name": "Bash", "tool_input": {"command": command}})
    return evaluate_doc(doc, calls, Context(H, W, {"HOME": H}, MemoryFS(TREE)))


@pytest.mark.parametrize("command", [
    "make -fmk", "make -sfmk", "sed -nfs.sed README.md", "awk -f../../.ssh/id_rsa",
    "tar -T../../.ssh/id_rsa -cf -", "tar -cf- -T../../.ssh/id_rsa", "tar -cvf../../protected/a.txt .",
    "cp -t../../protected README.md", "cp -at../../protected README.md",
    "mv -t../../protected README.md", "install -t../../protected README.md",
    "xargs -a../../.ssh/id_rsa echo", "grep -E -f../../.ssh/id_rsa -r .",
    "ssh -i../../.ssh/id_rsa localhost true", "ssh-keygen -lf../../.ssh/id_rsa",
    "ssh-keygen -q -N '' -f../../protected/k", "sort -o../../protected/a.txt README.md",
    "sed -ne s/a/b/w../../protected/a.txt README.md", "patch -p 1 < /tmp/layer.patch",
    "ls | xargs -i rm -rf {}", "python3 -c'import os; os.system(\"rm -rf x\")'",
    "frobnicate -xf../../.ssh/id_rsa", "frobnicate -o../../protected/a.txt"])
def test_a_glued_value_is_judged_as_the_separate_one(command):
    v = _decide(command)
    assert v.decision == "deny", (command, v.reason)


@pytest.mark.parametrize("command", [
    "head -n5 README.md", "sed -i.bak s/a/b/ README.md", "cut -d, -f1 README.md",
    "sort -t: -k2 README.md", "sed -nfok.sed README.md", "frobnicate -n5 -o.. README.md",
    "python3 -m http.server -d src 8000", "perl -lane 'print $F[0]' README.md",
    "tar -czf /tmp/src.tgz -C src .", "ssh-keygen -lf ../../.ssh/id_rsa.pub"])
def test_everyday_clusters_still_run(command):
    v = _decide(command)
    assert v.decision == "allow", (command, v.reason)


def test_split_short_reads_a_cluster_as_getopt_does():
    split = P.split_short
    assert split(P.short_options("sed"), ["-nfs.sed", "x"]) == [(["-n", "-f"], "s.sed"), None]
    assert split(P.short_options("tar"), ["-xvf", "a.tgz", "-C", "d"]) == [
        (["-x", "-v", "-f"], None), None, None, None]
    assert split(P.short_options("tar"), ["-cf-"]) == [(["-c", "-f"], "-")]
    # an optional value stays glued; a value word is not split; + stops at the command
    assert split(P.short_options("sed"), ["-ni.bak"]) == [(["-n", "-i.bak"], None)]
    assert split(P.short_options("grep"), ["-e", "-fx"]) == [None, None]
    assert split(P.short_options("python3"), ["-m", "mod", "-fx"]) == [None, None, None]
    assert split(P.short_options("env"), ["-iC../d", "cat", "-nA"]) == [
        (["-i", "-C"], "../d"), None, None]


def test_every_program_with_an_option_table_splits():
    # a table entry that is not valid getopt notation would split wrongly everywhere
    for name, spec in P.SHORT_OPTIONS.items():
        body = spec.lstrip("+").split("|")[0]
        assert all(c.isalnum() or c == ":" for c in body), name
        assert P.short_options(name) == spec
