"""A program that follows the symbolic links it meets while walking a folder (programs.FOLLOWS_LINKS:
`grep -R`, `find -L`, `cp -rL`, `tar -h`, zip by default) reaches what a link there points to: a
link in the folder to a protected file, or to a folder above one, is that file
(core/policy/paths.py PathRules._followed_below). The same walk without following runs, and a
folder too large to walk in time is not known (asked)."""
from __future__ import annotations

import os

import pytest

from agentdeck.core.policy import programs as P
from agentdeck.core.policy.fs import DiskFS
from agentdeck.core.policy.rules import Context, evaluate_doc
from agentdeck.core.policy.vocabulary import tool_calls

DOC = {"unresolved": "ask", "rules": [],
       "paths": [{"id": "keys", "paths": ["~/.ssh/id_*"], "except": ["~/.ssh/*.pub"],
                  "access": ["read", "write"], "decision": "deny", "reason": "keys"}]}
FOLLOWING = ["grep -R BEGIN P", "egrep -R BEGIN P", "rg -L BEGIN P", "rg --follow BEGIN P",
             "find -L P -name 'id_*' -exec cat {} +", "find P -follow -exec cat {} +",
             "cp -rL P /tmp/out", "cp -r --dereference P /tmp/out", "rsync -rL P /tmp/o",
             "tar -chf /tmp/a.tar P", "tar --dereference -cf /tmp/a.tar P", "zip -r /tmp/a.zip P",
             "diff -r P /tmp/other", "scp -r P host:", "ag --follow BEGIN P",
             # find does not follow, but what its -exec is given opens the link (round 8)
             "find P -exec cat {} +"]
NOT_FOLLOWING = ["grep -r BEGIN P", "rg BEGIN P", "find P -name '*.md' -exec cat {} +",
                 "find P -type l -exec ls -l {} +", "cp -r P /tmp/out",
                 "tar -cf /tmp/a.tar P", "zip -ry /tmp/a.zip P", "rsync -r P /tmp/o",
                 "diff -r --no-dereference P /tmp/other"]


def _decide(home: str, command: str, fs=None):
    calls = tool_calls({"tool_name": "Bash", "tool_input": {"command": command}})
    return evaluate_doc(DOC, calls, Context(home, home, {"HOME": home}, fs or DiskFS()))


@pytest.fixture(params=["to the key", "to its folder"])
def project(tmp_path, request):
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text("k")
    proj = tmp_path / "proj"
    (proj / "src").mkdir(parents=True)
    (proj / "src" / "a.py").write_text("x = 1\n")
    target = home / ".ssh" / "id_rsa" if request.param == "to the key" else home / ".ssh"
    os.symlink(target, proj / "src" / "k")
    return str(home), str(proj)


@pytest.mark.parametrize("command", FOLLOWING)
def test_a_walk_that_follows_links_reaches_the_key_a_link_points_to(project, command):
    home, proj = project
    v = _decide(home, command.replace("P", proj))
    assert (v.decision, v.rule) == ("deny", "keys"), v.reason


@pytest.mark.parametrize("command", NOT_FOLLOWING)
def test_a_walk_that_does_not_follow_links_runs(project, command):
    home, proj = project
    v = _decide(home, command.replace("P", proj))
    assert v.decision == "allow", v.reason


def test_every_following_program_is_in_the_table():
    names = {c.split()[0] for c in FOLLOWING} - {"find"}     # (find -L: the resolver's find)
    assert names <= set(P.FOLLOWS_LINKS)


class _Huge(DiskFS):
    def links_below(self, top, budget=0):
        return [], False            # more entries than a walk looks at in time


def test_a_folder_too_large_to_walk_in_time_is_asked(project):
    home, proj = project
    v = _decide(home, f"grep -R BEGIN {proj}", _Huge())
    assert v.decision == "ask", v.reason
    assert "follows the links" in v.reason
    assert _decide(home, f"grep -r BEGIN {proj}", _Huge()).decision == "allow"


def test_the_disk_walk_stops_at_its_budget(tmp_path):
    for i in range(30):
        (tmp_path / f"f{i}").write_text("x")
    os.symlink("/etc", tmp_path / "zz")
    links, complete = DiskFS().links_below(str(tmp_path), budget=10)
    assert not complete
    links, complete = DiskFS().links_below(str(tmp_path), budget=100)
    assert complete and links == [str(tmp_path / "zz")]
