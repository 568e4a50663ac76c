"""Inline code that finds the home folder at run time (`os.environ["HOME"]`, `Path.home()`,
`os.homedir()`, `$ENV{HOME}`, perl's bare `chdir`) and joins literals to it names the file those
literals make below the home (core/policy/paths.py PathRules._home_joined)."""
from __future__ import annotations

import pytest

from agentdeck.core.policy.fs import MemoryFS
from agentdeck.core.policy.rules import Context, evaluate_doc
from agentdeck.core.policy.vocabulary import tool_calls

HOME = "/home/me"
DOC = {"unresolved": "ask", "rules": [],
       "paths": [{"id": "keys", "paths": ["~/.ssh/id_*"], "except": ["~/.ssh/*.pub"],
                  "access": ["read", "write"], "decision": "deny", "reason": "keys"}]}
FS = MemoryFS({f"{HOME}/.ssh/id_rsa": "k", f"{HOME}/proj/README.md": "r"})


def _decide(command: str):
    calls = tool_calls({"tool_name": "Bash", "tool_input": {"command": command}})
    return evaluate_doc(DOC, calls, Context(HOME, f"{HOME}/proj", {"HOME": HOME}, FS))


@pytest.mark.parametrize("command", [
    """python3 -c 'import os;print(open(os.environ["HOME"]+"/.ssh/id_rsa").read())'""",
    """python3 -c 'import os;print(open(os.getenv("HOME")+"/.ssh/id_rsa").read())'""",
    """python3 -c 'import os;print(open(os.path.join(os.path.expanduser("~"),".ssh","id_rsa")).read())'""",
    """python3 -c 'from pathlib import Path;print((Path.home()/".ssh"/"id_rsa").read_text())'""",
    f"""python3 -c 'import os;os.chdir("{HOME}");print(open(".ssh/id_rsa").read())'""",
    """node -e 'console.log(require("fs").readFileSync(require("os").homedir()+"/.ssh/id_rsa"))'""",
    """node -e 'console.log(`${process.env.HOME}/.ssh/id_rsa`)'""",
    """perl -e 'open F,"$ENV{HOME}/.ssh/id_rsa";print <F>'""",
    """perl -e 'chdir;open F,".ssh/id_rsa";print <F>'""",
    """ruby -e 'puts File.read(Dir.home+"/.ssh/id_rsa")'""",
    """ruby -e 'puts File.read("#{Dir.home}/.ssh/id_rsa")'""",
    """php -r 'echo file_get_contents(getenv("HOME")."/.ssh/id_rsa");'""",
    """awk 'BEGIN{f=ENVIRON["HOME"]"/.ssh/id_rsa"; while((getline l < f)>0)print l}'""",
])
def test_code_that_joins_a_name_to_the_home_it_finds_is_judged_there(command):
    v = _decide(command)
    assert (v.decision, v.rule) == ("deny", "keys"), v.reason


@pytest.mark.parametrize("command", [
    """python3 -c 'from pathlib import Path; print(Path.home()/".ssh"/"id_rsa.pub")'""",
    """python3 -c 'import os;print(os.environ["HOME"], open("README.md").read())'""",
    """python3 -c 'print(open(".ssh/id_rsa").read())'""",        # the project's own .ssh
])
def test_the_home_with_other_names_runs(command):
    assert _decide(command).decision == "allow"
