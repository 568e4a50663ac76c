"""The _agentdeck directives that become environment variables, the env file, the ~/.bashrc
block, settings.json key validation, and the persona."""
from __future__ import annotations

from agentdeck.core.disk import DiskView
import json
import os
import subprocess

import pytest

from agentdeck.core import engine, profiles
from agentdeck.core.formats.envfile import parse_env
from agentdeck.core.model import Directives
from agentdeck.core.targets.copilot import directives
from agentdeck.core.targets.copilot.adapter import CopilotTarget
from agentdeck.core.targets.copilot.settings import check_setting
from agentdeck.core.targets.persona import PERSONA_MARKERS
from tests.target_homes import target_home


def with_directives(host, monkeypatch, **kw):
    real = profiles.resolve

    def patched(h, name):
        p = real(h, name)
        p.directives = Directives.model_validate({**p.directives.model_dump(), **kw})
        return p
    monkeypatch.setattr(profiles, "resolve", patched)


def env_of(value_fn):
    env = directives.EnvPlan()
    value_fn(env)
    return env


@pytest.mark.parametrize("value, written, warned", [
    (True, "true", False), ("true", "true", False), (False, None, False), (None, None, False),
    (1, None, True), ("1", None, True), ("yes", None, True), (2, None, True),
])
def test_allow_all(value, written, warned):
    env = env_of(lambda e: directives.allow_all(value, e))
    assert dict(env.variables).get("COPILOT_ALLOW_ALL") == written
    assert bool(env.warnings) == warned
    if value in (1, "1") and value is not True:
        assert "literal true" in env.warnings[0]


@pytest.mark.parametrize("value, written", [
    (["brain", "amygdala"], "brain,amygdala"), ("brain, amygdala,,brain", "brain,amygdala"),
    ([], None), ("", None),
])
def test_channels(value, written):
    env = env_of(lambda e: directives.channels(value, e))
    assert dict(env.variables).get("AGENTDECK_CHANNELS") == written and not env.warnings


@pytest.mark.parametrize("value", [3, {"a": 1}, ["ok", 1]])
def test_channels_bad_type_warns(value):
    env = env_of(lambda e: directives.channels(value, e))
    assert not env.variables and env.warnings


def test_env_file_and_bashrc_block(host, monkeypatch):
    with_directives(host, monkeypatch, allowAll=True, channels="a,b", suppressBrowserLaunch=True,
                    browserCommand=None)
    plan = engine.build_plan(host, "default", ["copilot"])
    env_item = next(i for i in plan.items if i.label == "directives env file")
    assert env_item.path == str(host.state_dir / "copilot.env") and env_item.secret
    block = next(i for i in plan.items if i.group == "env" and i.kind == "block")
    assert block.path == str(host.home / ".bashrc")
    notes = " ".join(n.message for n in plan.notices["copilot"])
    assert "does not see them" in notes
    info = plan.output["copilot"].env
    assert info is not None
    assert set(info.variables) == {"COPILOT_ALLOW_ALL", "AGENTDECK_CHANNELS", "COPILOT_DEBUG_BROWSER"}
    assert info.variables["COPILOT_DEBUG_BROWSER"].directive == "suppressBrowserLaunch"
    assert "interactive" in info.caveat
    (host.home / ".bashrc").write_text("# mine\nexport EDITOR=vi\n")
    plan = engine.build_plan(host, "default", ["copilot"])
    engine.apply_plan(host, plan)
    envfile = host.state_dir / "copilot.env"
    assert os.stat(envfile).st_mode & 0o777 == 0o600
    vals = parse_env(envfile.read_text())
    assert vals["COPILOT_ALLOW_ALL"] == "true" and vals["AGENTDECK_CHANNELS"] == "a,b"
    assert json.loads(vals["COPILOT_DEBUG_BROWSER"])[:2] == ["sh", "-c"]
    bashrc = (host.home / ".bashrc").read_text()
    assert bashrc.startswith("# mine\nexport EDITOR=vi\n")       # the block goes at the bottom
    assert bashrc.rstrip().endswith(directives.BASHRC_MARKERS[1])
    # an interactive shell sourcing ~/.bashrc sees the variables (and the JSON array survives)
    out = subprocess.run(["bash", "-c", f". {host.home / '.bashrc'}; "
                                        "printf '%s\\n' \"$COPILOT_ALLOW_ALL\" \"$COPILOT_DEBUG_BROWSER\""],
                         capture_output=True, text=True, env={"PATH": "/usr/bin:/bin"}).stdout.splitlines()
    assert out[0] == "true" and json.loads(out[1])[0] == "sh"
    assert not engine.build_plan(host, "default", ["copilot"]).has_work


def test_no_directives_no_env_items(host):
    st = CopilotTarget().desired(profiles.resolve(host, "default"), DiskView(host))
    assert not [i for i in st.items if i.group == "env"]
    assert st.output.env is not None and dict(st.output.env.variables) == {}


def test_wsl_auto_browser_lands_in_the_env_file(host, monkeypatch):
    host.env["WSL_DISTRO_NAME"] = "Ubuntu"
    monkeypatch.setattr(host, "which", lambda n: "/usr/bin/wslview" if n == "wslview" else None)
    st = CopilotTarget().desired(profiles.resolve(host, "default"), DiskView(host))
    env_item = next(i for i in st.items if i.label == "directives env file")
    from agentdeck.core.formats.envfile import parse_env
    assert parse_env(env_item.value)["COPILOT_DEBUG_BROWSER"] == '["/usr/bin/wslview"]'
    assert st.output.browser is not None and st.output.browser.argv == ("/usr/bin/wslview",)


# ---- settings.json keys ----------------------------------------------------------------------------

@pytest.mark.parametrize("key, value, ok", [
    ("disableAllHooks", False, True), ("disableAllHooks", "no", False),
    ("model", "gpt-5", True), ("model", 5, False),
    ("disabledMcpServers", ["a"], True), ("disabledMcpServers", "a", False),
    ("statusLine", {"type": "command", "command": "x"}, True), ("statusLine", {"type": "x"}, False),
    ("trustedFolders", ["/x"], False), ("notAKey", 1, False), ("colorMode", "dark", True),
])
def test_check_setting(key, value, ok):
    assert (check_setting(key, value) is None) == ok


def test_invalid_profile_settings_are_not_written(host, monkeypatch):
    real = profiles.resolve

    def patched(h, name):
        p = real(h, name)
        p.native["copilot/settings.json"] = {
            "model": 5, "madeUp": True, "theme": "dark", "trustedFolders": ["/x"],
            "statusLine": "my-statusline --short", "disableAllHooks": True}
        return p
    monkeypatch.setattr(profiles, "resolve", patched)
    st = CopilotTarget().desired(profiles.resolve(host, "default"), DiskView(host))
    keys = {i.key[0]: i.value for i in st.items if i.kind == "key" and len(i.key) == 1}
    assert keys["theme"] == "dark" and "model" not in keys and "madeUp" not in keys
    assert "trustedFolders" not in keys and keys["disableAllHooks"] is False
    assert keys["statusLine"] == {"type": "command", "command": "my-statusline --short"}
    text = " ".join(n.message for n in st.notices)
    for needle in ("'model' is not written", "'madeUp' is not written", "config.json",
                   "disableAllHooks True is ignored"):
        assert needle in text, needle


# ---- persona ----------------------------------------------------------------------------------------------

def test_persona_wraps_an_existing_file_and_is_byte_stable(host):
    mine = "# My notes\n\nBritish English, please.\n"
    target_home(host, "copilot").mkdir(parents=True)
    p = target_home(host, "copilot") / "copilot-instructions.md"
    p.write_text(mine)
    engine.apply_plan(host, engine.build_plan(host, "default", ["copilot"]))
    text = p.read_text()
    assert text.startswith(PERSONA_MARKERS[0]) and text.endswith(mine)
    assert "### secrets" in text and "## Working style" in text
    # operator text added after the block later survives a re-run byte for byte
    p.write_text(text + "\nMore of mine.\n")
    plan = engine.build_plan(host, "default", ["copilot"])
    assert not plan.has_work
    assert p.read_text() == text + "\nMore of mine.\n"
