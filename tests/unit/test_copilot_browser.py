"""browserCommand / suppressBrowserLaunch resolution with a fake host: WSL or not, each
candidate present or absent, an explicit command missing, explorer.exe, non-string values."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from agentdeck.core.targets.copilot import browser
from tests.target_homes import target_home


@pytest.fixture
def fake(host, monkeypatch):
    """host with controllable WSL-ness, PATH lookups and /mnt/c files."""
    state = {"wsl": False, "which": {}, "files": set()}

    def which(name):
        return state["which"].get(name)

    def exists(path):
        return str(path) in state["files"]

    monkeypatch.setattr(host, "which", which)
    monkeypatch.setattr(host, "exists", exists)

    def set_wsl(on: bool):
        if on:
            host.env["WSL_DISTRO_NAME"] = "Ubuntu"
        else:
            host.env.pop("WSL_DISTRO_NAME", None)
    state["set_wsl"] = set_wsl
    return state


def res(host, value, suppress=False):
    return browser.resolve(host, value, suppress, target_home(host, "copilot"))


def test_absent_writes_nothing(host, fake):
    r = res(host, None)
    assert r.argv is None and r.env_value is None and not r.warnings


@pytest.mark.parametrize("present, expected", [
    ({"wslview": "/usr/bin/wslview", browser.CHROME: 1, browser.CHROME_X86: 1, browser.EDGE: 1},
     "/usr/bin/wslview"),
    ({browser.CHROME: 1, browser.CHROME_X86: 1, browser.EDGE: 1}, browser.CHROME),
    ({browser.CHROME_X86: 1, browser.EDGE: 1}, browser.CHROME_X86),
    ({browser.EDGE: 1}, browser.EDGE),
])
def test_auto_under_wsl_probes_in_order(host, fake, present, expected):
    fake["set_wsl"](True)
    for k in present:
        if k == "wslview":
            fake["which"]["wslview"] = present[k]
        else:
            fake["files"].add(k)
    r = res(host, "auto")
    assert r.argv == [expected]
    assert json.loads(r.env_value) == [expected]
    assert r.source == "browserCommand" and not r.warnings
    # candidates are reported up to the one that was found, in order
    names = [c["name"] for c in r.candidates]
    assert names == ["wslview", "Chrome", "Chrome (x86)", "Edge"][: len(names)]
    assert r.candidates[-1]["found"] and not any(c["found"] for c in r.candidates[:-1])


def test_auto_under_wsl_none_found_warns_and_writes_nothing(host, fake):
    fake["set_wsl"](True)
    r = res(host, "auto")
    assert r.argv is None
    assert len(r.candidates) == 4 and not any(c["found"] for c in r.candidates)
    assert "wslview" in r.warnings[0] and "wslu" in r.warnings[0]


def test_auto_never_picks_explorer(host, fake):
    fake["set_wsl"](True)
    fake["which"]["explorer.exe"] = "/mnt/c/Windows/explorer.exe"
    r = res(host, "auto")
    assert r.argv is None


def test_auto_outside_wsl_writes_nothing(host, fake):
    fake["which"]["wslview"] = "/usr/bin/wslview"
    r = res(host, "auto")
    assert r.argv is None and not r.warnings and r.candidates == []
    assert "not WSL" in r.notes[0]


def test_explicit_command_is_split_and_written_when_it_resolves(host, fake):
    fake["set_wsl"](True)
    fake["files"].add(browser.CHROME)
    r = res(host, f'"{browser.CHROME}" --new-tab')
    assert r.argv == [browser.CHROME, "--new-tab"]
    fake["which"]["firefox"] = "/usr/bin/firefox"
    assert res(host, "firefox --private-window").argv == ["firefox", "--private-window"]


def test_explicit_command_missing_is_dropped(host, fake):
    r = res(host, "nosuchbrowser --x")
    assert r.argv is None and "not found" in r.warnings[0]
    r = res(host, '"/mnt/c/nope/chrome.exe"')
    assert r.argv is None and "not found" in r.warnings[0]


@pytest.mark.parametrize("value", ["explorer.exe", "/mnt/c/Windows/explorer.exe",
                                   ["explorer.exe"], ["C:\\Windows\\explorer.exe", "x"]])
def test_explorer_is_refused(host, fake, value):
    fake["set_wsl"](True)
    fake["which"]["explorer.exe"] = "/mnt/c/Windows/explorer.exe"
    fake["files"].add("/mnt/c/Windows/explorer.exe")
    r = res(host, value)
    assert r.argv is None and "explorer.exe" in r.warnings[0]


def test_array_passes_through(host, fake):
    r = res(host, ["/opt/b/browser", "--flag"])
    assert r.argv == ["/opt/b/browser", "--flag"]
    assert r.env_value == '["/opt/b/browser", "--flag"]'


@pytest.mark.parametrize("value", [42, True, {"cmd": "x"}, [], ["ok", 3], [""], "   "])
def test_non_string_values_are_dropped_with_a_warning(host, fake, value):
    r = res(host, value)
    assert r.argv is None and r.warnings


def test_suppress_sink(host, fake):
    r = res(host, None, suppress=True)
    sink = str(target_home(host, "copilot") / "pending-oauth-urls.txt")
    assert r.argv == ["sh", "-c", browser.SINK_SCRIPT, sink] and r.source == "suppressBrowserLaunch"
    assert r.sink_file == sink
    assert not any(a == "%s" or "%s" in a for a in r.argv)


def test_sink_really_appends_the_url(host, fake, tmp_path):
    import subprocess
    r = res(host, None, suppress=True)
    target_home(host, "copilot").mkdir()      # Copilot's home exists whenever Copilot runs
    url = "https://login.example/authorize?a=1&b=2&redirect=x"
    subprocess.run(r.argv + [url], check=True)
    subprocess.run(r.argv + [url + "2"], check=True)
    assert Path(r.sink_file).read_text() == f"{url}\n{url}2\n"


def test_browser_command_wins_over_suppress(host, fake):
    fake["which"]["firefox"] = "/usr/bin/firefox"
    r = res(host, "firefox", suppress=True)
    assert r.argv == ["firefox"] and any("wins" in n for n in r.notes)


def test_suppress_applies_when_browser_command_yields_nothing(host, fake):
    r = res(host, "auto", suppress=True)      # not WSL: auto writes nothing
    assert r.source == "suppressBrowserLaunch"


def test_the_typed_report(host, fake):
    fake["set_wsl"](True)
    fake["files"].add(browser.EDGE)
    r = res(host, "auto")
    info = r.typed()
    assert info.wsl is True and dict(info.env) == {"COPILOT_DEBUG_BROWSER": json.dumps([browser.EDGE])}
    assert info.argv == (browser.EDGE,) and info.source == r.source
    assert [c.name for c in info.candidates] == [c["name"] for c in r.candidates]
    assert [c.found for c in info.candidates] == [c["found"] for c in r.candidates]
