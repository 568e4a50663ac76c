"""A tool no vocabulary knows is judged by the paths it is given (docs/policy.md), and a tool
that takes several paths or globs gives them as a list (`read_many_files {"include": [...]}`,
which a red team sent to Gemini CLI's and Qwen Code's hooks): each string of a top-level list is
a path too, in every dialect's payload shape."""
from __future__ import annotations

import json

import pytest

from agentdeck.core.policy import corpus as C
from agentdeck.core.policy.compiled import compile_policy
from agentdeck.core.policy.fs import MemoryFS
from agentdeck.core.policy.payloads import pre_tool
from agentdeck.core.policy.selftest import run_case

DOC = json.loads(compile_policy(C.CORPUS_POLICY, "test", protect=[]))
TEMPLATES = sorted(pre_tool().items())


def _decide(label: str, args: dict) -> tuple[str | None, str | None]:
    t = dict(TEMPLATES)[label]
    payload = dict(t.build("read_many_files_9", args))
    if "cwd" in payload:
        payload["cwd"] = C.CWD
    record, *_ = run_case(DOC, t.caller, t.event, payload, {"HOME": C.HOME}, fs=MemoryFS(C.TREE))
    return record.get("decision"), record.get("rule")


@pytest.mark.parametrize("label", [k for k, _ in TEMPLATES])
def test_a_listed_glob_or_path_of_an_unknown_tool_is_judged(label):
    assert _decide(label, {"include": ["../../.ssh/id_*"]}) == ("deny", "private-keys")
    assert _decide(label, {"files": ["README.md", "../../.aws/credentials"]}) == (
        "deny", "cloud-credentials")


@pytest.mark.parametrize("label", [k for k, _ in TEMPLATES])
def test_listed_ordinary_files_of_an_unknown_tool_are_allowed(label):
    assert _decide(label, {"include": ["src/*.py", "./README.md"]})[0] == "allow"
