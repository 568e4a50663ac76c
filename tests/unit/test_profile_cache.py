"""The profile schema is declared once (core/schema.py, pydantic); an unchanged profile loads from
the cache (core/profilecache.py) without importing pydantic, and a changed, damaged or forged
cache is a miss: the profile is validated again, never trusted, never a crash."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from agentdeck.core.targets import registry

from agentdeck.core import cli, model, profile_dirs, profilecache, profiles
from agentdeck.core.errors import UserError

REPO = Path(__file__).resolve().parents[2]


def fresh(host, name="default"):
    """The profile as pydantic validates it now, in its runtime form (no cache involved)."""
    return model.decode(model.encode(profiles.resolve_validated(host, name)))


def operator_profile(host, name="mine", toml=None, files=None) -> Path:
    d = host.config_dir / "profiles" / name
    d.mkdir(parents=True)
    (d / "profile.toml").write_text(toml or ('[profile]\nextends = ["default"]\ndescription = "mine"\n'
                                             '[hooks]\ntimeout = 12\n'))
    for rel, text in (files or {}).items():
        (d / rel).parent.mkdir(parents=True, exist_ok=True)
        (d / rel).write_text(text)
    return d


def cached(host, name):
    """Resolve and save, as an apply does; the state-dir entry must now exist."""
    prof = profiles.resolve(host, name)
    profilecache.save(host)
    assert profilecache.state_path(host, name).exists()
    return prof


def test_plan_path_does_not_import_pydantic():
    """A fresh home and the bundled default profile: planning loads the shipped cache and never
    imports pydantic (nor textual or rich)."""
    code = ("import sys, tempfile, io, contextlib\n"
            "from agentdeck.core.cli import main\n"
            "with tempfile.TemporaryDirectory() as h, contextlib.redirect_stdout(io.StringIO()):\n"
            "    main(['plan', '--json', '--home', h])\n"
            "print([m for m in ('pydantic', 'textual', 'rich') if m in sys.modules])\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO,
                       env={"PATH": "/usr/bin:/bin", "HOME": "/nonexistent"})
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[]"


def test_shipped_cache_is_current(tmp_path):
    """profiles/_resolved.json is what the bundled profiles and the schema give today. When this
    fails: python -m agentdeck.core.profiles"""
    from agentdeck.core.host import Host
    host = Host.from_environment(tmp_path, env={"PATH": "/usr/bin:/bin"})
    assert profilecache.shipped_path().read_text(encoding="utf-8") == profiles.shipped_cache_text(host), (
        "profiles/_resolved.json is stale: run `python -m agentdeck.core.profiles`")


@pytest.mark.parametrize("name", ["default", "_base"])
def test_shipped_entry_is_the_validated_profile(host, name):
    got = profilecache.load(host, name)
    assert got is not None, "the shipped cache does not hold on a fresh home"
    want = fresh(host, name)
    assert got == want and got.model_dump() == want.model_dump()
    assert got.model_dump(exclude_unset=True) == want.model_dump(exclude_unset=True)


def test_state_cache_hit_is_the_validated_profile(host):
    operator_profile(host, files={"rules/style.md": "be brief\n",
                                  "mcp.json": '{"mcpServers": {"x": {"command": "npx", "x-native": {"a": [1, 2.5]}}}}'})
    first = cached(host, "mine")
    assert profilecache.load(host, "mine") is not None
    again = profiles.resolve(host, "mine")
    assert again == first == fresh(host, "mine")
    assert again.hooks.timeout == 12 and again.rules["style"] == "be brief\n"
    assert again.mcp_servers["x"].model_extra == {"x-native": {"a": [1, 2.5]}}
    assert again.mcp_servers["x"].transport == "stdio"
    assert isinstance(again.personas[0], tuple)
    assert os.stat(profilecache.state_path(host, "mine")).st_mode & 0o777 == 0o600


def test_plan_writes_no_cache_apply_does(home, capsys, handler_on_path):
    from agentdeck.core.host import Host
    host = Host.from_environment(home)
    operator_profile(host)
    assert cli.main(["plan", "--home", str(home), "--profile", "mine", "--target", "copilot"]) == 2
    assert not profilecache.state_path(host, "mine").exists()
    assert cli.main(["apply", "--home", str(home), "--profile", "mine", "--target", "copilot",
                     "--yes"]) == 0
    assert profilecache.state_path(host, "mine").exists()
    capsys.readouterr()


@pytest.mark.parametrize("change", ["edit", "add-rule", "remove-rule", "shadow-base"])
def test_a_changed_source_is_validated_again(host, change):
    d = operator_profile(host, files={"rules/a.md": "one\n"})
    cached(host, "mine")
    if change == "edit":
        (d / "profile.toml").write_text('[profile]\nextends = ["default"]\n[hooks]\ntimeout = 0\n')
        with pytest.raises(UserError) as e:
            profiles.resolve(host, "mine")
        assert "greater than or equal to 1" in str(e.value)
        assert str(e.value).startswith(f"{d / 'profile.toml'}:4:")
        return
    if change == "add-rule":
        (d / "rules" / "b.md").write_text("two\n")
    elif change == "remove-rule":
        (d / "rules" / "a.md").unlink()
    else:
        operator_profile(host, "_base", toml='[profile]\ndescription = "my base"\n')
    got = profiles.resolve(host, "mine")
    assert got == fresh(host, "mine")
    if change == "add-rule":
        assert got.rules["a"] == "one\n" and got.rules["b"] == "two\n"
    elif change == "remove-rule":
        assert "a" not in got.rules
    else:
        assert got.origins["_base"].startswith("operator:")


def _entry(host, name="mine"):
    return json.loads(profilecache.state_path(host, name).read_text())


def _write(host, entry, name="mine", digest=True):
    if digest:
        entry["digest"] = profilecache._digest(entry)
    profilecache.state_path(host, name).write_text(json.dumps(entry))


def _forge_timeout(e):
    e["profile"]["v"]["hooks"]["v"]["timeout"] = 999


def _forge_field(e):
    e["profile"]["v"]["hooks"]["v"]["extra_field"] = 1


def _forge_class(e):
    e["profile"]["v"]["hooks"]["m"] = "Profile"


def _forge_leaf(e):
    e["profile"]["v"]["hooks"]["v"]["timeout"] = {"d": {"x": {"nested": [1]}}}


def _forge_input(e):
    e["inputs"] = []


def _forge_code(e):
    e["code"] = "0" * 64


@pytest.mark.parametrize("damage", [
    "garbage", "truncated", "empty", "array", "null-bytes", "wrong-name", "timeout-no-digest",
    "timeout", "field", "class", "leaf", "inputs", "code", "directory"])
def test_a_damaged_or_forged_cache_is_a_miss(host, damage):
    operator_profile(host)
    cached(host, "mine")
    path = profilecache.state_path(host, "mine")
    e = _entry(host)
    if damage == "garbage":
        path.write_text("{not json")
    elif damage == "truncated":
        path.write_text(path.read_text()[:200])
    elif damage == "empty":
        path.write_text("")
    elif damage == "array":
        path.write_text("[1, 2]")
    elif damage == "null-bytes":
        path.write_bytes(b"\0" * 64)
    elif damage == "wrong-name":
        e["name"] = "other"
        _write(host, e)
    elif damage == "timeout-no-digest":
        _forge_timeout(e)
        _write(host, e, digest=False)
    elif damage == "directory":
        path.unlink()
        path.mkdir()
    else:
        {"timeout": _forge_timeout, "field": _forge_field, "class": _forge_class,
         "leaf": _forge_leaf, "inputs": _forge_input, "code": _forge_code}[damage](e)
        _write(host, e)
    if damage == "timeout":
        # the limit, stated: a value changed by hand with the digest recomputed and the shape
        # kept is not detected (the file is the operator's own, 0600, like the profile itself)
        assert profilecache.load(host, "mine").hooks.timeout == 999
        return
    assert profilecache.load(host, "mine") is None
    got = profiles.resolve(host, "mine")
    assert got == fresh(host, "mine") and got.hooks.timeout == 12


def test_a_forged_shipped_cache_is_a_miss(host, monkeypatch, tmp_path):
    fake = tmp_path / "bundled"
    import shutil
    shutil.copytree(profiles.bundled_dir(), fake)
    monkeypatch.setattr(profile_dirs, "bundled_dir", lambda: fake)
    data = json.loads((fake / "_resolved.json").read_text())
    data["entries"]["default"]["profile"]["v"]["targets"] = "oops"
    (fake / "_resolved.json").write_text(json.dumps(data))
    assert profilecache.load(host, "default") is None
    assert profiles.resolve(host, "default").targets is None     # the bundled ones name none
    # the bundled profiles elsewhere on disk: the other entries still hold (relative paths)
    assert profilecache.load(host, "_base") is not None


def test_a_value_json_cannot_hold_is_used_not_cached(host):
    operator_profile(host, files={"codex/config.toml": "when = 1979-05-27T07:32:00Z\n"})
    prof = profiles.resolve(host, "mine")
    assert str(prof.native["codex/config.toml"]["when"]).startswith("1979-05-27")
    profilecache.save(host)
    assert not profilecache.state_path(host, "mine").exists()


def test_runtime_classes_keep_pydantic_reading_api():
    srv = model.McpServer.model_validate({"command": "npx", "args": ["-y"], "x-native": {"a": [1]}})
    assert srv.model_extra == {"x-native": {"a": [1]}} and srv.model_fields_set == {"command", "args", "x-native"}
    assert srv.model_dump(exclude_none=True) == {"command": "npx", "args": ["-y"], "env": {},
                                                 "headers": {}, "x-native": {"a": [1]}}
    deep = srv.model_copy(deep=True)
    assert deep == srv and deep.model_extra["x-native"] is not srv.model_extra["x-native"]
    deep.args.append("more")
    assert srv.args == ["-y"]
    d = model.Directives()
    d.mcpAlwaysEnabled = ["memory"]
    assert "mcpAlwaysEnabled" in d.model_fields_set
    with pytest.raises(ValueError):
        d.nope = 1
    with pytest.raises(model.ValidationError):
        model.McpServer.model_validate({"type": "ftp"})
    p = model.Profile(name="p", chain=["p"], mcp_servers={"s": srv})
    assert p.mcp_servers["s"] == srv and p.targets is None    # not named: core.scopes.COVERAGE


def test_the_schema_is_declared_once():
    """core/model.py declares no fields: every field of every model comes from core/schema.py."""
    from agentdeck.core import schema
    text = (REPO / "core" / "model.py").read_text()
    for name, cls in vars(schema).items():
        if isinstance(cls, type) and issubclass(cls, schema.BaseModel) and cls.__module__ == schema.__name__:
            for field in cls.model_fields:
                assert f"    {field}:" not in text, (name, field)
    assert not (REPO / "core" / "model_pydantic.py").exists()
