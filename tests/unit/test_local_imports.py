"""Every function-local import in core/ and app/ says why it is local: a comment on its line
(or on the comment line just above it), e.g. `# local: tomlkit loads only for a TOML file`.
An import belongs at the module's top unless start-up cost demands otherwise (the hook
handler's hot path, the CLI without Textual, a heavy module only one command needs); the
comment names that reason, so the next reader does not hoist it, nor add one without cause.

PENDING lists the files that still hold unexplained local imports, with the most each may
hold: a file may only go down, a file not listed may hold none. So the rule holds for every
new import now, and the list says what is left.
"""
from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

#: file -> most function-local imports without a reason it may still hold
PENDING: dict[str, int] = {
    "app/screens/doctor.py": 7,
    "core/org/drill.py": 7,
    "core/policy/compiled.py": 6,
    "core/doctor/live.py": 6,
    "core/doctor/isolated.py": 5,
    "core/drill/report.py": 5,
    "core/policy/selftest.py": 5,
    "core/views/policy.py": 5,
    "core/doctor/runner.py": 4,
    "core/hooks_health.py": 4,
    "core/policy/fs.py": 4,
    "core/policy/rules.py": 4,
    "core/targets/checks/files.py": 4,
    "core/targets/codex/adapter.py": 4,
    "core/targets/copilot/repo.py": 4,
    "core/targets/repo.py": 4,
    "core/targets/takeover.py": 4,
    "app/screens/repo.py": 3,
    "core/drill/command.py": 3,
    "core/facts/__init__.py": 3,
    "core/facts/org.py": 3,
    "core/installed.py": 3,
    "core/org/handler.py": 3,
    "core/org/targets.py": 3,
    "core/plan.py": 3,
    "core/policy/shellparse.py": 3,
    "core/targets/claude/adapter.py": 3,
    "app/screens/activity.py": 2,
    "core/drill/ready.py": 2,
    "core/facts/known_tools.py": 2,
    "core/targets/claude/policy.py": 2,
    "core/targets/codex/hooks.py": 2,
    "core/targets/codex/policy.py": 2,
    "core/targets/copilot/adapter.py": 2,
    "core/targets/copilot/drill.py": 2,
    "core/targets/dialects.py": 2,
    "core/targets/qwen/org.py": 2,
    "app/screens/keys.py": 1,
    "app/widgets/hooks_pane.py": 1,
    "app/widgets/keys_pane.py": 1,
    "app/widgets/plan_tree.py": 1,
    "core/activity.py": 1,
    "core/apply.py": 1,
    "core/doctor/__init__.py": 1,
    "core/drill/findings.py": 1,
    "core/facts/hook_channels.py": 1,
    "core/native_layers.py": 1,
    "core/org/scope.py": 1,
    "core/policy/enforcement.py": 1,
    "core/policy/vocabulary.py": 1,
    "core/targets/checks/secret_files.py": 1,
    "core/targets/claude/doctor.py": 1,
    "core/targets/claude/org.py": 1,
    "core/targets/codex/drill.py": 1,
    "core/targets/codex/health.py": 1,
    "core/targets/codex/mcp.py": 1,
    "core/targets/codex/org.py": 1,
    "core/targets/codex/probes.py": 1,
    "core/targets/copilot/hooks.py": 1,
    "core/targets/copilot/policy.py": 1,
    "core/targets/copilot/probes.py": 1,
    "core/views/activity.py": 1,
    "core/views/org.py": 1,
    "core/views/status.py": 1,
}


def unexplained(source: str) -> list[int]:
    """Line numbers of the imports inside a function body of `source` with no comment on
    their lines nor a comment line just above."""
    lines = source.splitlines()
    found = set()
    for fn in ast.walk(ast.parse(source)):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(fn):
            if not isinstance(node, (ast.Import, ast.ImportFrom)):
                continue
            own = lines[node.lineno - 1:node.end_lineno or node.lineno]
            above = lines[node.lineno - 2].strip() if node.lineno >= 2 else ""
            if not any("#" in line for line in own) and not above.startswith("#"):
                found.add(node.lineno)
    return sorted(found)


def _scan() -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for root in ("core", "app"):
        for path in sorted((REPO / root).rglob("*.py")):
            lines = unexplained(path.read_text())
            if lines:
                out[str(path.relative_to(REPO))] = lines
    return out


def test_every_local_import_says_why():
    found = _scan()
    over = {f: (len(lines), PENDING.get(f, 0), lines[:8]) for f, lines in found.items()
            if len(lines) > PENDING.get(f, 0)}
    assert not over, ("function-local imports with no reason beside them "
                      f"(file: (found, allowed, lines)): {over}")


def test_pending_only_lists_what_is_left():
    found = _scan()
    stale = {f: (len(found.get(f, [])), n) for f, n in PENDING.items()
             if len(found.get(f, [])) < n}
    assert not stale, f"lower PENDING to what is left (file: (found, listed)): {stale}"


def test_the_scan_finds_what_it_must():
    source = (
        "import os\n"                                   # 1: module level: not local
        "def f():\n"
        "    import json\n"                             # 3: no reason
        "    import tomlkit  # local: only for TOML\n"  # 4: reason on its line
        "    # local: rich only for the report\n"
        "    from rich import print\n"                  # 6: reason just above
        "    x = 1  # a comment, not about the next line\n"
        "    from a import b\n"                         # 8: no reason (the line above is code)
        "    from c import (\n"
        "        d,  # local: d is heavy\n"             # 10: reason inside the statement
        "    )\n"
        "class K:\n"
        "    async def g(self):\n"
        "        def inner():\n"
        "            import yaml\n"                     # 15: nested, no reason
        "        return inner\n"
    )
    assert unexplained(source) == [3, 8, 15]
