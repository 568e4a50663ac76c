"""The layers that switch hooks off (core/targets/layers.py; issue 30.2), in real offline turns:
a model writes each of the CLI's layer files (its project and local settings, the `.env` files
it loads) through the shell and, where the CLI has one, its own file tool (its drill part's
RUNNER.file_tool: Claude Code's Write, Qwen Code's write_file); agentdeck-self denies each, no
file appears, and -- the issue's route -- the next turn in that folder still runs agentdeck's
hook (its call is in the audit log).

The home is installed by agentdeck with the evasion profile (tests/clients/
test_policy_evasion_real.py: any rule turns self-protection on)."""
from __future__ import annotations

from pathlib import Path

import pytest

from offline_turn import run_turn
from scripted_model import ScriptedModel
from test_policy_evasion_real import REASONS, SELF_RULE, _activity, _install

from agentdeck.core.drill import runners
from agentdeck.core.targets import registry
from agentdeck.core.targets.layers import layers
from tests import layer_kit
from tests.registry_kit import shell_payload
from tests.target_homes import target_home

pytestmark = pytest.mark.clients

#: each CLI's own file-writing tool, where its turn offers one: (name, path argument, content
#: argument), its drill part's RUNNER.file_tool
FILE_TOOL = {n: r.file_tool for n in registry.NAMES
             if (r := runners.runner(n)) is not None and r.file_tool}
MARK = "next-turn-ran"
#: the line each layer call writes, by its label
PLANTED: dict[str, str] = {}


def _line(layer) -> str:
    text, _ = layer_kit.trigger(layer)
    return [ln for ln in text.splitlines() if ln and not ln.startswith("#")][0]


def _calls(target: str, work: Path, home: Path, host) -> list[tuple[str, object, Path]]:
    """(label, call, the file that must not appear) per layer of the target."""
    out: list[tuple[str, object, Path]] = []
    for layer in layers(target):
        line = _line(layer).replace("export ", "")
        PLANTED[f"shell {layer.path[3:].replace('**', 'off.json')}"] = line
        PLANTED[f"shell ~/{layer.path}"] = line
        if layer.project:
            # a folder layer (OpenCode's .opencode/**): a file in it
            rel = layer.path[3:].replace("**", "off.json")
            path = work / rel
            folder = str(Path(rel).parent)
            mk = f"mkdir -p {folder} && " if folder != "." else ""
            out.append((f"shell {rel}", f"{mk}echo '{line}' > {rel}", path))
            if target in FILE_TOOL:
                name, p, c = FILE_TOOL[target]
                out.append((f"{name} {rel}", (name, {p: str(path), c: line + "\n"}), path))
                PLANTED[f"{name} {rel}"] = line
        else:
            path = home / layer.path
            out.append((f"shell ~/{layer.path}", f"echo '{line}' >> {path}", path))
    return out + _starts_calls(target, work, home, host)


def _starts_calls(target: str, work: Path, home: Path, host) -> list[tuple[str, object, Path]]:
    """A write to each file the CLI starts programs from (its policy part's STARTS and
    guarded_paths: MCP server files, plugin and extension folders); the system-wide ones under
    /etc are left to the unit tests (a real turn that got through would write the machine's)."""
    part = registry.part(target, "policy")
    paths: list[Path] = []
    for entry in getattr(part, "STARTS", ()):
        if entry.startswith("/"):
            continue
        rel = entry.removesuffix("/**")
        base = work / rel[3:] if entry.startswith("**/") else home / rel
        if entry.endswith("/**"):
            paths.append(base / "x.js")
        elif not any(e == entry + "/**" for e in part.STARTS):     # a folder named bare
            paths.append(base)
    at = getattr(part, "guarded_paths", None)
    paths += at(host) if at else []
    out: list[tuple[str, object, Path]] = []
    for path in dict.fromkeys(paths):
        mk = f"mkdir -p {path.parent} && " if path.parent != work else ""
        out.append((f"starts: shell {path}", f"{mk}echo '{{}}' > {path}", path))
    return out


def _call(target: str, call):
    if target == "qwen" and isinstance(call, str):
        return "run_shell_command", {"command": call}
    return call


TARGETS = [s.name for s in registry.TARGETS if layers(s.name)]


@pytest.mark.parametrize("target", TARGETS)
def test_a_layer_write_is_denied_and_the_next_turn_still_has_the_hook(scratch_env, need, tmp_path,
                                                                       target):
    need(target)
    host = scratch_env
    _install(host, target)
    work = tmp_path / "work"
    work.mkdir()
    home = target_home(host, target)
    calls = _calls(target, work, home, host)
    before = {p: p.read_bytes() for p in home.rglob("*") if p.is_file()}
    before.update({path: path.read_bytes() for _, _, path in calls if path.is_file()})
    # the file tool allowed beside the shell (Claude as root runs only the tools it is given)
    grant = (FILE_TOOL[target][0],) if target in FILE_TOOL else ()
    with ScriptedModel(command="", calls=[_call(target, c) for _, c, _ in calls]) as m:
        r = run_turn(host, target, m.url, "write the settings", work, None, timeout=300,
                     allow=grant)
        assert r.returncode == 0, r.stderr[-2000:]
        results = m.tool_results()
        offered = m.offered()
    assert not grant or grant[0] in offered, f"{target} offers no {grant[0]}: {sorted(offered)}"
    assert len(results) == len(calls), results
    for (label, _, path), res in zip(calls, results):
        assert REASONS[SELF_RULE] in res, f"{target} {label}: not refused: {res[:300]}"
        if label.startswith("starts:"):      # the CLI may rewrite its own file (.claude.json)
            assert not path.is_file() or path.read_bytes() != b"{}\n", f"{target} {label}"
        elif path in before:
            assert path.read_bytes() == before[path], f"{target} {label}: {path} changed"
        else:              # (a file the CLI writes itself, Copilot's config.json, may appear)
            assert not path.exists() or PLANTED[label].encode() not in path.read_bytes(), \
                f"{target} {label}: {path} written"
    pre = [x for x in _activity(host) if x.get("event") == "pre_tool_use"]
    assert [(x.get("decision"), x.get("rule")) for x in pre] == \
        [("deny", SELF_RULE)] * len(calls), pre

    # the next turn in that folder: agentdeck's hook still runs (the total-bypass route)
    with ScriptedModel(command="", calls=[_call(target, f"echo {MARK}")]) as m:
        r = run_turn(host, target, m.url, "go on", work, None, timeout=300)
        assert r.returncode == 0, r.stderr[-2000:]
        results = m.tool_results()
    assert results and MARK in results[0], results
    pre = [x for x in _activity(host) if x.get("event") == "pre_tool_use"]
    shell = shell_payload(target, MARK)[1]               # its shell tool's name, as sent
    assert len(pre) == len(calls) + 1 \
        and pre[-1].get("tool_name") == (shell.get("tool_name") or shell.get("toolName")) \
        and pre[-1].get("decision") == "allow", pre[-1:]
