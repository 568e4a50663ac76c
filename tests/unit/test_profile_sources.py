"""A profile's content files (rules/, agents/, commands/, skills/<name>/SKILL.md) that are not
regular files: a FIFO, a device or a socket is one-line error naming it, never silently skipped
(a rule or command that is a pipe would otherwise be "not installed" without a word) and never
read in a way that blocks. A directory or a dangling link named x.md stays ignored."""
from __future__ import annotations

import os
import socket
import time

import pytest

from agentdeck.core import cli


def _profile(home):
    d = home / ".config" / "agentdeck" / "profiles" / "mine"
    d.mkdir(parents=True)
    (d / "profile.toml").write_text('[profile]\nextends = ["default"]\n')
    return d


@pytest.mark.parametrize("rel", ["rules/x.md", "agents/g.md", "commands/c.md", "skills/s1/SKILL.md"])
@pytest.mark.parametrize("kind", ["fifo", "device", "socket"])
def test_a_non_regular_profile_file_is_one_line_error(home, capsys, tmp_path, rel, kind):
    d = _profile(home)
    p = d / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    if kind == "fifo":
        os.mkfifo(p)
    elif kind == "device":
        os.symlink("/dev/zero", p)
    else:
        sock_path = tmp_path / "s.sock"      # AF_UNIX paths are short: bind outside, link in
        s = socket.socket(socket.AF_UNIX)
        s.bind(str(sock_path))
        os.symlink(sock_path, p)
    t0 = time.monotonic()
    rc = cli.main(["plan", "--home", str(home), "--profile", "mine"])
    assert time.monotonic() - t0 < 30      # a blocking open would hang here, not be slow
    out, err = capsys.readouterr()
    lines = [line for line in err.splitlines() if line.strip()]
    assert rc == 1 and out == "", (rc, out, err)
    assert len(lines) == 1 and str(p) in lines[0] and "not a regular file" in lines[0], err
    for cli_home in (".copilot", ".codex", ".claude", ".claude.json", ".agents"):
        assert not (home / cli_home).exists(), cli_home     # nothing written


def test_a_directory_or_a_dangling_link_named_md_is_still_ignored(home, capsys):
    d = _profile(home)
    (d / "rules" / "notes.md").mkdir(parents=True)
    os.symlink(d / "missing", d / "rules" / "gone.md")
    (d / "rules" / "real.md").write_text("Always say please.\n")
    assert cli.main(["plan", "--home", str(home), "--profile", "mine", "--target", "claude"]) == 2
    out = capsys.readouterr().out
    assert "Plan:" in out
    from agentdeck.core.host import Host
    from agentdeck.core.profiles import resolve
    prof = resolve(Host.from_environment(home, env={"HOME": str(home)}), "mine")
    assert "real" in prof.rules and "notes" not in prof.rules and "gone" not in prof.rules
