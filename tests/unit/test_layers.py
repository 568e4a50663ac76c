"""The files each CLI reads that can switch agentdeck's hooks off (core/targets/layers.py; issue
30.2), over the registry: every layer is guarded by agentdeck-self against a write in each
spelling (file tools, shell forms, a link), and the doctor and status report one that exists."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from agentdeck.core.host import Host
from agentdeck.core.policy import corpus as C
from agentdeck.core.policy.compiled import compile_policy, self_protection
from agentdeck.core.policy.fs import MemoryFS
from agentdeck.core.policy.payloads import shapes, tool_shapes
from agentdeck.core.policy.selftest import run_case
from agentdeck.core.targets import registry
from tests import layer_kit

EVERY = layer_kit.every()
IDS = [f"{t}:{layer.path}" for t, layer in EVERY]


def test_every_target_with_a_policy_part_lists_its_layers():
    """Each CLI agentdeck guards names the files beyond its home's that can switch its hooks
    off, each with the version it was verified for."""
    for spec in registry.TARGETS:
        if not registry.has_part(spec.name, "policy"):
            continue
        found = [layer for t, layer in EVERY if t == spec.name]
        assert found, f"{spec.name}: no LAYERS"
        for layer in found:
            assert layer.verified and layer.how in ("observed", "documented"), layer
            assert layer.kind in ("json", "env", "toml"), layer


def _home_host() -> Host:
    h = Host.from_environment(Path(C.HOME), env={"HOME": C.HOME})
    h.cwd = Path(C.CWD)
    return h


def _doc() -> dict:
    host = _home_host()
    protect = self_protection(host, registry.TARGETS[0].name)
    return json.loads(compile_policy(C.CORPUS_POLICY, "test", protect=protect))


def _spellings(target: str, layer) -> list[tuple[str, str]]:
    """(cwd, path as written) for the layer's file: home layers by ~ and absolute path, project
    layers relative, absolute, from a subfolder (the parent's file), and through a link."""
    if not layer.project:
        home = registry.BY_NAME[target].home_dirname
        return [(C.CWD, f"~/{home}/{layer.path}"), (C.CWD, f"{C.HOME}/{home}/{layer.path}"),
                (C.CWD, f"homelink/{home}/{layer.path}")]
    rel = layer.path[3:]
    return [(C.CWD, rel), (C.CWD, f"./{rel}"), (C.CWD, f"{C.CWD}/{rel}"),
            (C.CWD + "/src", f"../{rel}"), (C.CWD, f"../../{rel}"), (C.CWD, f"repolink/{rel}")]


def _fs() -> MemoryFS:
    return MemoryFS({**C.TREE, f"{C.CWD}/src": None, f"{C.CWD}/homelink": f"->{C.HOME}",
                     f"{C.CWD}/repolink": f"->{C.CWD}"})


def _decide(doc, fs, forms, cwd) -> list[tuple[str, str]]:
    out = []
    for label, target, event, payload in forms:
        payload = dict(payload)
        if "cwd" in payload:
            payload["cwd"] = cwd
        record, code, _, _ = run_case(doc, target, event, payload, {"HOME": C.HOME}, fs=fs)
        out.append((label, record.get("decision")))
    return out


@pytest.mark.parametrize("target,layer", EVERY, ids=IDS)
def test_a_write_to_the_layer_is_denied_in_every_spelling(target, layer):
    doc, fs = _doc(), _fs()
    for cwd, path in _spellings(target, layer):
        forms = list(tool_shapes("write", path))
        for cmd in (f"echo x > {path}", f"echo x | tee {path}", f"cp /tmp/x {path}",
                    f"sed -i s/a/b/ {path}", f"printf x >> {path}", f"ln -sf /tmp/x {path}"):
            forms += list(shapes("shell", cmd))
        got = _decide(doc, fs, forms, cwd)
        assert got and all(d == "deny" for _, d in got), (path, [g for g in got if g[1] != "deny"])
        # the agentdeck-self rule, not another one
        reads = _decide(doc, fs, list(shapes("shell", f"cat {path}")), cwd)
        assert all(d == "allow" for _, d in reads), (path, reads)


def test_the_guard_names_every_layer_for_every_target():
    """Every target's compiled policy carries every CLI's layers (a repository's
    .claude/settings.json is read by Copilot CLI as well as Claude Code)."""
    host = _home_host()
    for spec in registry.TARGETS:
        protect = self_protection(host, spec.name)
        for target, layer in EVERY:
            want = layer.path if layer.project else \
                f"~/{registry.BY_NAME[target].home_dirname}/{layer.path}"
            assert want in protect, (spec.name, want)


def _status_reasons(host, target, events):
    """What status says of `target`'s hooks registered on disk for `events`, beyond the wrapper
    (core/hooks_health.reasons, which `status` and the plan read)."""
    from agentdeck.core import hooks_health
    from agentdeck.core.targets.output import HookEventInfo, HooksInfo

    hooks = HooksInfo(file="", wrapper="", handler=None, events=tuple(
        HookEventInfo(event=e, command="", timeout=None, registered_now=True) for e in events))
    return [r for r in hooks_health.reasons(host, target, hooks, None)
            if r.code == "layer-switch"]


@pytest.mark.parametrize("target,layer", layer_kit.reported(),
                         ids=[f"{t}:{layer.path}" for t, layer in layer_kit.reported()])
def test_status_reports_a_layer_that_switches_the_hooks_off(host, target, layer):
    layer_switches = _status_reasons

    host.cwd = host.home / "proj"
    assert layer_switches(host, target, ["e"]) == []
    text, names = layer_kit.trigger(layer)
    p = host.home / layer_kit.file_of(target, layer)
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text)
    found = layer_switches(host, target, ["e"])
    assert [r.code for r in found] == ["layer-switch"] and names in found[0].reason, found


@pytest.mark.parametrize("target,layer", [(t, l) for t, l in layer_kit.reported()
                                          if l.project and l.parents],
                         ids=lambda x: getattr(x, "path", x))
def test_a_parent_folders_file_is_reported_too(host, target, layer):
    layer_switches = _status_reasons

    host.cwd = host.home / "proj" / "sub"
    text, names = layer_kit.trigger(layer)
    p = host.home / layer_kit.file_of(target, layer)
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text)
    assert [r.code for r in layer_switches(host, target, ["e"])] == ["layer-switch"]


LOADING = [(t, layer) for t, layer in layer_kit.reported() if "LD_PRELOAD" in layer.vars]


def test_some_layers_report_loader_variables():
    """The .env and settings files whose variables reach the hooks' environment (Codex's and
    Gemini CLI's .env, Claude Code's settings.local.json `env`) name loader variables."""
    assert LOADING


@pytest.mark.parametrize("target,layer", LOADING, ids=[f"{t}:{layer.path}" for t, layer in LOADING])
def test_a_loader_variable_in_a_layer_is_reported(host, target, layer):
    from agentdeck.core.targets.layers import holds

    p = host.home / layer_kit.file_of(target, layer)
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text('{"env": {"LD_PRELOAD": "/tmp/x.so", "NODE_OPTIONS": "--require /tmp/x.js"}}'
                 if layer.kind == "json" else "LD_PRELOAD=/tmp/x.so\nNODE_OPTIONS=-r/tmp/x.js\n")
    got = " ".join(holds(host, p, layer))
    assert "LD_PRELOAD" in got and "NODE_OPTIONS" in got, got
