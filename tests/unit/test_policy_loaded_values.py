"""What a program is given besides its operands, judged by its effect (core/policy/programs.py
tables, read by shellparse.py and paths.py): a value in its environment or an assignment among its
arguments that names a path, variables that make it load code or configuration, make's command
variables, programs that stand for an archiver or a server, files a program uses by default, and
code that imports agentdeck's own package."""
from __future__ import annotations

import json

import pytest

from agentdeck.core.policy import corpus as C
from agentdeck.core.policy import programs as P
from agentdeck.core.policy.compiled import SELF_COMMAND_RULE, compile_policy
from agentdeck.core.policy.fs import MemoryFS
from agentdeck.core.policy.rules import Context, evaluate_doc
from agentdeck.core.policy.vocabulary import tool_calls

H = "/home/me"
W = f"{H}/work/repo"
FS = MemoryFS({f"{H}/.ssh/id_rsa": "k", f"{H}/.ssh/id_rsa.pub": "p", f"{H}/prot/a.txt": "x",
               f"{W}/README.md": "x", f"{W}/src/app.py": "x",
               "/tmp/in/settings.zip": "archive:\n.claude/settings.json",
               "/tmp/in/docs.zip": "archive:\ndocs/a.md"})
DOC = {"unresolved": "ask",
       "rules": [{"id": "rmrf", "tool": "shell", "command": ["rm"],
                  "args": ["-r|-R|--recursive", "-f|--force"], "decision": "deny", "reason": "no"}],
       "paths": [{"id": "keys", "paths": ["~/.ssh/id_*"], "except": ["~/.ssh/*.pub"],
                  "access": ["read", "write"], "decision": "deny", "reason": "keys"},
                 {"id": "tree", "paths": ["~/prot/**"], "access": ["write"], "decision": "deny",
                  "reason": "tree"},
                 {"id": "layer", "paths": ["**/.claude/settings.json"], "access": ["write"],
                  "decision": "deny", "reason": "layer"}]}


def decide(command: str, doc: dict = DOC, fs=FS, cwd: str = W):
    calls = tool_calls({"tool_name": "Bash", "tool_input": {"command": command}})
    return evaluate_doc(doc, calls, Context(H, cwd, {"HOME": H}, fs))


@pytest.mark.parametrize("command,rule", [
    ("X=../../.ssh/id_rsa python3 -c 'import os; print(open(os.environ[\"X\"]).read())'", "keys"),
    ("export X=../../.ssh/id_rsa; node -e 'require(\"fs\").readFileSync(process.env.X)'", "keys"),
    ("X=../../.ssh/id_rsa; export X; perl -e 'open F, $ENV{X}; print <F>'", "keys"),
    ("env X=../../.ssh/id_rsa ruby -e 'puts File.read(ENV[\"X\"])'", "keys"),
    ("HISTFILE=../../.ssh/id_rsa bash -i -c 'history -r; history'", "keys"),
    ("X=~/.ssh/id_rsa bash -c 'cat $X'", "keys"),
    ("awk -v f=../../.ssh/id_rsa 'BEGIN { while ((getline l < f) > 0) print l }'", "keys"),
    ("awk '{ print }' f=../../.ssh/id_rsa", "keys"),
    ("git -c core.excludesFile=../../.ssh/id_rsa status --ignored", "keys"),
    ("D=../../prot python3 -c 'import os, shutil; shutil.rmtree(os.environ[\"D\"])'", "tree"),
    ("X=../../prot/a.txt python3 -c 'import os; open(os.environ[\"X\"], \"w\")'", "tree"),
])
def test_a_value_given_to_a_program_that_names_a_protected_path_is_access(command, rule):
    v = decide(command)
    assert (v.decision, v.rule) == ("deny", rule), v.reason


@pytest.mark.parametrize("command", [
    "X=src python3 -c 'import os; print(os.listdir(os.environ[\"X\"]))'",
    "awk -v n=3 '{ print $n }' README.md", "git -c user.name=me commit -m x",
    "export X=../../.ssh/id_rsa.pub; python3 -c 'print(1)'", "LANG=C python3 -c 'print(1)'",
])
def test_a_value_that_names_no_protected_path_runs(command):
    assert decide(command).decision == "allow"


@pytest.mark.parametrize("var", sorted(P.CODE_VARS))
def test_every_variable_that_makes_programs_load_code_or_configuration_is_unresolved(var):
    v = decide(f"{var}=/tmp/x git status")
    assert (v.decision, v.rule) == ("ask", "unresolved"), (var, v.reason)


@pytest.mark.parametrize("var", sorted(P.LOAD_PATH_VARS))
def test_a_load_path_outside_the_working_folder_or_written_in_the_line_is_unresolved(var):
    assert decide(f"{var}=/tmp/py python3 -c 1").decision == "ask"
    assert decide(f"echo x > src/json.py; {var}=src python3 -c 1").decision == "ask"
    assert decide(f"{var}=src:. python3 -c 1").decision == "allow"


@pytest.mark.parametrize("var", sorted(P.MAKE_COMMAND_VARS))
def test_a_make_variable_its_rules_run_is_resolved_as_a_command(var):
    for command in (f"{var}='rm -rf x' make hello", f"make {var}='rm -rf x' hello",
                    f"export {var}='rm -rf x'; make"):
        v = decide(command)
        assert (v.decision, v.rule) == ("deny", "rmrf"), (command, v.reason)


def test_shell_syntax_in_any_make_variable_is_resolved_and_plain_values_run():
    assert decide("make CFLAGS='-O2; rm -rf x'").rule == "rmrf"
    assert decide("CFLAGS='$(rm -rf x)' make").rule == "rmrf"
    assert decide("make CC=gcc CFLAGS=-O2 all").decision == "allow"
    assert decide("CC=clang make").decision == "allow"


@pytest.mark.parametrize("command,rule", [
    ("python3 -m zipfile -c /tmp/k.zip ../../.ssh", "keys"),
    ("python3 -m tarfile -c /tmp/k.tar ../../.ssh", "keys"),
    ("python3 -m http.server -d ~/.ssh 8000", "keys"), ("cmake -E tar cf /tmp/k ~/.ssh", "keys"),
    ("cmake -E copy_directory ~/.ssh /tmp/s", "keys"), ("cmake -E rm -rf x", "rmrf"),
    ("gzip -rc ../../.ssh", "keys"), ("bsdtar -cf /tmp/k.tar ~/.ssh", "keys"),
    ("find ~/.ssh | cpio -o > /tmp/k.cpio", "keys"), ("cpio -o <<< ../../.ssh/id_rsa", "keys"),
    ("find ~/.ssh | cpio -pdl /tmp/c", "keys"),
    ("python3 -m zipfile -e /tmp/in/settings.zip .", "layer"),
    ("python3 -m tarfile -e /tmp/in/settings.zip", "layer"),
    ("dpkg-deb -x /tmp/x.deb ~/prot", "tree"), ("unrar x /tmp/x.rar ~/prot/", "tree"),
    ("php -S 0:8000 -t ~/.ssh", "keys"), ("cd ~/.ssh && php -S 0:8000", "keys"),
    ("npx http-server ~/.ssh -p 8081", "keys"), ("busybox httpd -f -h ~/.ssh", "keys"),
    ("ruby -run -e httpd ~/.ssh", "keys"), ("caddy file-server --root ~/.ssh", "keys"),
])
def test_programs_that_stand_for_an_archiver_or_a_server_are_judged_as_it(command, rule):
    v = decide(command)
    assert (v.decision, v.rule) == ("deny", rule), v.reason


@pytest.mark.parametrize("command", [
    "python3 -m zipfile -l /tmp/in/settings.zip", "python3 -m zipfile -c /tmp/s.zip src",
    "python3 -m http.server 8000", "python3 -m http.server -d src", "gzip -r src",
    "find src | cpio -o > /tmp/s.cpio", "cmake -E echo hi", "cmake --build build",
    "python3 -m tarfile -e /tmp/in/docs.zip /tmp/out", "python3 -m zipfile -e /tmp/in/docs.zip .",
    "php -S 0:8000 -t src", "npx serve src", "php artisan serve", "caddy run",
])
def test_the_same_programs_on_the_projects_own_files_run(command):
    assert decide(command).decision == "allow"


@pytest.mark.parametrize("prog,sub", sorted(P.DEFAULT_FILES))
def test_every_default_file_a_program_uses_is_judged_as_named(prog, sub):
    files, acc = P.DEFAULT_FILES[(prog, sub)]
    doc = {"unresolved": "ask", "rules": [],
           "paths": [{"id": "d", "paths": [files[0]], "access": ["read", "write"],
                      "decision": "deny", "reason": "default"}]}
    v = decide(f"{prog} {sub}", doc=doc)
    assert (v.decision, v.rule) == ("deny", "d"), v.reason
    expected = {"read": "read", "write": "write", "rw": "read/write"}[acc]
    assert f"({expected} " in v.reason
    # an option that names another file: that file is the one used (an operand like any other)
    assert decide(f"{prog} {sub} --file /tmp/other", doc=doc).decision == "allow"


def test_ssh_keygen_with_no_file_uses_the_default_identity():
    for command in ("printf '\\ny\\n' | ssh-keygen -q -t rsa -N ''", "ssh-keygen -p -N '' -P ''",
                    "ssh-keygen -y"):
        assert decide(command).rule == "keys", command
    for command in ("ssh-keygen -t ed25519 -N '' -f ./deploy_key", "ssh-keygen -lf k.pub",
                    "ssh-keygen -t ed25519 -N '' -f /tmp/k"):
        assert decide(command).decision == "allow", command


def _self_doc() -> dict:
    return json.loads(compile_policy(C.CORPUS_POLICY, "test", protect=C.PROTECT))


@pytest.mark.parametrize("command", [
    "python3 -c 'from agentdeck.core.entry import main; main([\"uninstall\", \"--yes\"])'",
    "python3 -c 'import agentdeck.core.entry as e; e.main(argv)'",
    "python3 -c '__import__(\"agentdeck.core.entry\").core.entry.main()'",
    "python3 - <<'EOF'\nimport importlib\nimportlib.import_module('agentdeck.core.entry')\nEOF",
    "python3 -m agentdeck uninstall --yes", "python3 -m agentdeck.core.entry apply",
])
def test_code_that_imports_agentdeck_is_its_guard_commands(command):
    v = decide(command, doc=_self_doc(), fs=MemoryFS(C.TREE))
    assert (v.decision, v.rule) == ("deny", SELF_COMMAND_RULE), v.reason


def test_the_self_command_rule_names_the_commands_imported_code_is_judged_to_run():
    rule = next(r for r in _self_doc()["rules"] if r["id"] == SELF_COMMAND_RULE)
    assert rule["args"] == ["|".join(P.OWN_GUARD_COMMANDS)]
    for cmd in ("python3 -m agentdeck status", "python3 -c 'import agentdeck_tools'",
                "python3 -c 'print(\"agentdeck uninstall\")'"):
        assert decide(cmd, doc=_self_doc(), fs=MemoryFS(C.TREE)).decision == "allow", cmd


def test_an_install_by_the_handlers_own_pip_writes_its_environment():
    doc, fs = _self_doc(), MemoryFS(C.TREE)
    for cmd in ("/opt/agentdeck/venv/bin/pip install requests",
                "/opt/agentdeck/venv/bin/python3 -m pip install /tmp/x.whl"):
        assert decide(cmd, doc=doc, fs=fs).decision == "deny", cmd
    for cmd in (".venv/bin/pip install requests", "pip install requests"):
        assert decide(cmd, doc=doc, fs=fs).decision == "allow", cmd
