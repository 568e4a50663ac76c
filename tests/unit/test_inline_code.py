"""[policy] inline_code (issue 30.7): "allow" (the default) judges an interpreter's inline
program by what it names, as before; "ask" asks every inline program (python -c, perl -e,
node -e, awk '...'), whatever it names. A program file run by the interpreter is not inline."""
from __future__ import annotations

import json

import pytest

from agentdeck.core.policy.compiled import compile_policy
from agentdeck.core.policy.fs import MemoryFS
from agentdeck.core.policy.rules import Context, evaluate_doc
from agentdeck.core.policy.vocabulary import Call

H = "/home/u"
KEYS = {"id": "keys", "paths": ["~/.ssh/id_*"], "access": ["read"], "decision": "deny"}


def _decide(command: str, inline: str | None):
    pol = {"rules": [], "paths": [KEYS]}
    if inline:
        pol["inline_code"] = inline
    doc = json.loads(compile_policy(pol, "claude", home=H))
    v = evaluate_doc(doc, [Call("shell", "Bash", [command])], Context(H, H, {"HOME": H}, MemoryFS({H: None})))
    return v.decision, v.rule


INLINE = ["python3 -c 'print(1)'", "perl -e 'print 1'", "node -e 'console.log(1)'",
          "awk 'BEGIN{print 1}'", "ruby -e 'p 1'", "php -r 'echo 1;'", "python3 -c'import os'"]
NOT_INLINE = ["python3 script.py", "node app.js", "awk -f prog.awk data", "perl -w script.pl",
              "echo python3 -c x"]


@pytest.mark.parametrize("command", INLINE)
def test_ask_asks_every_inline_program(command):
    assert _decide(command, "ask") == ("ask", "inline-code")
    assert _decide(command, None)[0] == "allow"          # the default judges what it names


@pytest.mark.parametrize("command", NOT_INLINE)
def test_a_program_file_is_not_inline(command):
    assert _decide(command, "ask")[0] == "allow"


def test_a_denied_path_in_inline_code_is_denied_either_way():
    cmd = "python3 -c 'open(\"/home/u/.ssh/id_rsa\").read()'"
    assert _decide(cmd, "ask")[0] == "deny" and _decide(cmd, None)[0] == "deny"


def test_the_schema_takes_it_and_the_compiled_policy_carries_it(tmp_path):
    from agentdeck.core import profiles
    from agentdeck.core.host import Host
    from agentdeck.core.policy.compiled import policy_of

    host = Host.from_environment(tmp_path, env={"HOME": str(tmp_path)})
    d = host.config_dir / "profiles" / "p"
    d.mkdir(parents=True)
    (d / "profile.toml").write_text('[profile]\nextends = ["default"]\n[policy]\ninline_code = "ask"\n')
    pol = policy_of(profiles.resolve(host, "p"))
    assert pol["inline_code"] == "ask"
    assert json.loads(compile_policy(pol, "claude", home=str(tmp_path)))["inline_code"] == "ask"
    (d / "profile.toml").write_text('[profile]\n[policy]\ninline_code = "sometimes"\n')
    with pytest.raises(Exception, match="inline_code"):
        profiles.resolve(host, "p")
