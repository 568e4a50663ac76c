"""A glob's bracket expressions as bash reads them (POSIX classes, `^` and `!` negation,
equivalence classes), in any folder of the glob: expanded against the disk at decision time
(core/policy/fs.py shell_pattern), so `cat ../../.[[:lower:]]sh/id_rsa` reads the key and
`cd` to such a glob changes to the folder it matches. Checked against bash itself: exactly,
except that a POSIX or equivalence class is the locale's (a locale made for it puts `_` in
`upper`: red team round 11), so an expression holding one matches at least what bash matches
here, and any one character."""
from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from agentdeck.core.policy.compiled import compile_policy
from agentdeck.core.policy.fs import DiskFS, MemoryFS
from agentdeck.core.policy.rules import Context, evaluate_doc
from agentdeck.core.policy.vocabulary import tool_calls

H = "/home/alice"
W = f"{H}/work/repo"

PATTERNS = [".[[:lower:]]sh", ".ss[[:alnum:]]", ".[^A-Z]sh", ".[!A-Z]sh", ".[[=s=]]sh",
            ".[[.s.]]sh", "protect[[:alpha:]]d", "pro[[:lower:]][[:lower:]]cted", "[.]ssh",
            "[[:punct:]]ssh", ".[[:upper:]]sh", "[]a]", "[!]]", "a[b", "[[:digit:]]x",
            "[![:digit:]]x", "[a-c]x", ".?sh", "[[:punct:]]x", "[[:space:]]x", "[\\]]"]
NAMES = [".ssh", "protected", "]", "a", "a[b", "1x", "bx", "!x", " x", "Ssh"]


@pytest.mark.parametrize("pattern", PATTERNS)
def test_a_bracket_pattern_matches_what_bash_matches(tmp_path, pattern):
    bash = shutil.which("bash")
    if bash is None:
        pytest.skip("bash is not installed")
    for n in NAMES:
        (tmp_path / n).mkdir()
    got = sorted(p.rsplit("/", 1)[1] for p in DiskFS().glob(str(tmp_path) + "/" + pattern))
    out = subprocess.run([bash, "-c", f"shopt -s nullglob; for f in {pattern}; do printf '%s\\n' \"$f\"; done"],
                         cwd=tmp_path, capture_output=True, text=True, check=True).stdout
    if "[:" in pattern or "[=" in pattern:
        assert set(out.splitlines()) <= set(got), pattern
    else:
        assert got == sorted(out.splitlines()), pattern


def _decide(command: str, cwd: str = W):
    doc = json.loads(compile_policy({"unresolved": "ask", "paths": [
        {"id": "keys", "paths": ["~/.ssh/id_*"], "except": ["~/.ssh/*.pub"],
         "access": ["read", "write"], "decision": "deny"},
        {"id": "tree", "paths": ["~/protected/**"], "access": ["write"], "decision": "deny"}]},
        "claude", home=H))
    fs = MemoryFS({f"{H}/.ssh/id_rsa": "K", f"{H}/.ssh/id_rsa.pub": "P", f"{H}/protected/a.txt": "x",
                   f"{W}/README.md": "x"})
    calls = tool_calls({"tool_name": "Bash", "tool_input": {"command": command}})
    return evaluate_doc(doc, calls, Context(H, cwd, {"HOME": H}, fs))


@pytest.mark.parametrize("command", [
    "cat ../../.[[:lower:]]sh/id_rsa", "cat ../../.ss[[:alnum:]]/id_rsa", "cat ../../.[^A-Z]sh/id_rsa",
    "cat ../../.[!A-Z]sh/id_rsa", "cd ../../.[[:lower:]]sh && cat id_rsa",
    "rm -r ../../protect[[:alpha:]]d", "echo pwn > ../../protecte[[:alpha:]]/a.txt",
    "cat ../../.[[:upper:]]sh/id_rsa"])
def test_a_class_in_a_folder_of_a_glob_reaches_the_protected_file(command):
    v = _decide(command)
    assert v.decision == "deny", (command, v.reason)


@pytest.mark.parametrize("command", [
    "cat ../../.[[:lower:]]sh/id_rsa.pub", "cat ../../[.]ssh/id_rsa", "cat ../../[[:punct:]]ssh/id_rsa",
    "cd ../../.[[:lower:]]sh && cat id_rsa.pub"])
def test_what_the_class_does_not_match_stays_allowed(command):
    v = _decide(command)
    assert v.decision == "allow", (command, v.reason)
