"""Sourcing a virtual environment's activate script (`source .venv/bin/activate && pytest`) is
judged by its effect (core/policy/activate.py): the venv's bin/ first on PATH. The script must be
one a venv generator wrote; one extra line and it is resolved line by line, as any sourced file
(red team round 4: every CLI asked, and Codex denied, the ordinary activate line)."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from agentdeck.core.policy.activate import venv_dir
from agentdeck.core.policy.compiled import compile_policy
from agentdeck.core.policy.fs import MemoryFS
from agentdeck.core.policy.rules import Context, evaluate_doc
from agentdeck.core.policy.vocabulary import tool_calls

H = "/home/alice"
W = f"{H}/work/repo"
VENV = f"{W}/.venv"


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> str:
    """The activate script this Python's own venv module writes, as if made at VENV."""
    d = tmp_path_factory.mktemp("v") / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(d)], check=True)
    return (d / "bin" / "activate").read_text().replace(str(d), VENV)


#: the forms uv writes (its script is virtualenv's older one), in our own minimal spelling
UV_FORMS = """# sourced, never run
if ! [ -z "${SCRIPT_PATH+_}" ] ; then
    _OLD_SCRIPT_PATH="$SCRIPT_PATH"
fi
if [ -n "${BASH_VERSION:+x}" ] ; then
    SCRIPT_PATH="${BASH_SOURCE[0]}"
    if [ "$SCRIPT_PATH" = "$0" ]; then
        echo "source me: \\$ source $0" >&2
        exit 33
    fi
elif [ -n "${ZSH_VERSION:+x}" ] ; then
    SCRIPT_PATH="${(%):-%x}"
elif [ -n "${KSH_VERSION:+x}" ] ; then
    SCRIPT_PATH="${.sh.file}"
fi
deactivate () {
    unset -f pydoc >/dev/null 2>&1 || true
    if ! [ -z "${_OLD_VIRTUAL_PATH:+_}" ] ; then
        PATH="$_OLD_VIRTUAL_PATH"
        export PATH
        unset _OLD_VIRTUAL_PATH
    fi
    if ! [ -z "${_OLD_VIRTUAL_PYTHONHOME+_}" ] ; then
        PYTHONHOME="$_OLD_VIRTUAL_PYTHONHOME"
        export PYTHONHOME
    fi
    hash -r 2>/dev/null
    unset VIRTUAL_ENV
    if [ ! "${1-}" = "nondestructive" ] ; then
        unset -f deactivate
    fi
}
deactivate nondestructive
VIRTUAL_ENV='@VENV@'
if ([ "$OSTYPE" = "cygwin" ] || [ "$OSTYPE" = "msys" ]) && $(command -v cygpath &> /dev/null) ; then
    VIRTUAL_ENV=$(cygpath -u "$VIRTUAL_ENV")
fi
export VIRTUAL_ENV
_OLD_VIRTUAL_PATH="$PATH"
PATH="$VIRTUAL_ENV/bin:$PATH"
export PATH
VIRTUAL_ENV_PROMPT=$(basename "$VIRTUAL_ENV")
alias pydoc 2>/dev/null >/dev/null && unalias pydoc || true
pydoc () {
    python -m pydoc "$@"
}
hash -r 2>/dev/null || true
""".replace("@VENV@", VENV)


def _decide(command: str, activate: str, extra: dict | None = None):
    doc = json.loads(compile_policy({"unresolved": "ask", "rules": [
        {"id": "no-rm-rf", "tool": "shell", "command": ["rm"], "args": ["-r", "-f"],
         "decision": "deny"}]}, "claude", home=H))
    fs = MemoryFS({f"{VENV}/bin/activate": activate, f"{VENV}/pyvenv.cfg": "home = /usr/bin",
                   f"{VENV}/bin/pytest": "#!/home/alice/work/repo/.venv/bin/python\nimport pytest\n",
                   f"{W}/README.md": "x", **(extra or {})})
    calls = tool_calls({"tool_name": "Bash", "tool_input": {"command": command}})
    return evaluate_doc(doc, calls, Context(H, W, {"HOME": H}, fs))


def test_the_generators_scripts_are_recognised(generated):
    assert venv_dir(generated) == VENV
    assert venv_dir(UV_FORMS) == VENV


@pytest.mark.parametrize("form", ["source .venv/bin/activate", ". .venv/bin/activate && pytest -q",
                                  f"source {VENV}/bin/activate; python -m pytest"])
@pytest.mark.parametrize("which", ["generated", "uv"])
def test_activating_a_venv_runs(form, which, generated):
    v = _decide(form, generated if which == "generated" else UV_FORMS)
    assert v.decision == "allow", v.reason


@pytest.mark.parametrize("extra_line", [
    "rm -rf x", "PYTHONHOME=/tmp/evil; export PYTHONHOME", "PATH=/tmp/evil:$PATH",
    'PATH="$VIRTUAL_ENV/bin:$PATH"; rm -rf x', "hash -r \\\nrm -rf x", "PROMPT_COMMAND='rm -rf x'",
    "VIRTUAL_ENV=/tmp/other", "eval \"$X\""])
def test_a_script_with_one_line_more_is_read_as_any_other(extra_line, generated):
    tampered = generated + extra_line + "\n"
    assert venv_dir(tampered) is None
    assert _decide("source .venv/bin/activate", tampered).decision in ("ask", "deny")


def test_the_venvs_bin_is_first_on_path(generated):
    # a program in the venv's bin/ shadows the system's once activated: what it is counts
    extra = {f"{VENV}/bin/tool": "#!/bin/sh\nrm -rf x\n"}
    assert _decide("tool", generated, extra).decision == "allow"       # not on PATH: not this one
    v = _decide(". .venv/bin/activate && tool", generated, extra)
    assert v.decision == "deny", v.reason
    v = _decide("echo '#!/bin/sh' > .venv/bin/ls; source .venv/bin/activate; ls", generated)
    assert v.decision == "ask", v.reason


def test_deactivate_after_activating_is_asked(generated):
    v = _decide("source .venv/bin/activate; deactivate", generated)
    assert v.decision == "ask" and "deactivate" in (v.reason or ""), v.reason


def test_hash_minus_r_forgets_and_hash_minus_p_is_asked(generated):
    assert _decide("hash -r; ls", generated).decision == "allow"
    assert _decide("hash -p /tmp/x ls; ls", generated).decision == "ask"
    assert _decide('hash -p "$X" ls', generated).decision == "ask"
