"""`agentdeck doctor --export FILE`: one self-contained HTML page, read back by a real headless
browser (Debian's chromium, as .ci/run installs it): the verdict per CLI with its mark, the
problem with its fix, no script and nothing fetched from the network; and the file refusals."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from agentdeck.core import cli, engine
from agentdeck.core.targets import registry

from test_doctor_checks import install, make_host
from tests.ci_rule import missing_tool

TARGETS = tuple(registry.NAMES)


def chromium() -> str:
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if exe is None:
        missing_tool("chromium is not installed (.ci/run installs it with apt-get)")
    return exe


def dom(page: Path, tmp_path: Path) -> str:
    """The page as the browser parsed it (--dump-dom), headless, offline, a fresh profile."""
    r = subprocess.run([chromium(), "--headless", "--no-sandbox", "--disable-gpu",
                        "--disable-background-networking", "--disable-component-update",
                        "--disable-sync", "--no-first-run", "--disable-quic",
                        f"--user-data-dir={tmp_path / 'chromium-profile'}", "--dump-dom",
                        page.as_uri()],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    assert "<body" in r.stdout, r.stderr[-2000:]
    return r.stdout


class Rows(HTMLParser):
    """The verdict rows (data-target, data-mark) and every text of the parsed DOM."""

    def __init__(self) -> None:
        super().__init__()
        self.verdicts: dict[str, str] = {}
        self.text: list[str] = []
        self.fetches: list[str] = []
        self.scripts = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "tr" and "data-target" in a:
            self.verdicts[a["data-target"]] = a.get("data-mark", "")
        if tag == "script":
            self.scripts += 1
        for k in ("src", "href"):
            if a.get(k):
                self.fetches.append(a[k])

    def handle_data(self, data):
        self.text.append(data)


def _cli(host, *args, capsys) -> int:
    old = dict(os.environ)
    os.environ.clear()
    os.environ.update(host.env)
    try:
        return cli.main([*args, "--home", str(host.home)])
    finally:
        os.environ.clear()
        os.environ.update(old)


@pytest.mark.parametrize("target", TARGETS)
def test_the_export_shows_the_verdicts_and_the_problem_in_a_browser(tmp_path, target, capsys):
    home = tmp_path / "home"
    home.mkdir()
    host = make_host(home)
    install(host)
    plan = engine.build_plan(host, "default", [target])
    Path(plan.output[target].hooks.wrapper).chmod(0o644)       # the one problem
    out = tmp_path / "report.html"
    rc = _cli(host, "doctor", "--export", str(out), capsys=capsys)
    assert rc == 1
    assert (out.stat().st_mode & 0o777) == 0o600
    parsed = Rows()
    parsed.feed(dom(out, tmp_path))
    assert parsed.verdicts[target] == "error", parsed.verdicts
    assert all(parsed.verdicts[t] == "ok" for t in TARGETS if t != target), parsed.verdicts
    text = re.sub(r"\s+", " ", " ".join(parsed.text))
    assert "hooks INERT" in text and "Problems (" in text
    assert "Layers: where each setting comes from" in text
    assert str(home) not in text and "~/" in text
    assert parsed.scripts == 0 and parsed.fetches == [], parsed.fetches


def test_the_export_refuses_a_folder_or_a_link_and_a_missing_folder(tmp_path, capsys):
    home = tmp_path / "home"
    home.mkdir()
    host = make_host(home)
    (tmp_path / "dir.html").mkdir()
    (tmp_path / "link.html").symlink_to(tmp_path / "elsewhere.html")
    for bad in ("dir.html", "link.html", "missing/r.html"):
        rc = _cli(host, "doctor", "--export", str(tmp_path / bad), capsys=capsys)
        err = capsys.readouterr().err
        assert rc != 0 and "--export" in err and "Traceback" not in err, err
    assert not (tmp_path / "elsewhere.html").exists()
