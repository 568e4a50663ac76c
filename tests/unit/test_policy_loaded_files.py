"""Programs that load and run a file they are given as an option or find on their module path
(a debugger's or an editor's command file, node's preloaded modules, deno's and bun's script, a
makefile another includes, the module `python3 -m` or an import finds): the file's program is
judged when it can be read, and the command is unresolved when the file was written earlier in
the same line (core/policy/programs.py PROGRAM_FILES, MODULE_PATHS, RUNS_FROM_FILES,
OPTION_CARRIERS; core/policy/shellparse.py `program_files`, `modules`, `_make_includes`)."""
from __future__ import annotations

import json

import pytest

from agentdeck.core.policy import corpus as C
from agentdeck.core.policy import programs as P
from agentdeck.core.policy.compiled import compile_policy
from agentdeck.core.policy.fs import MemoryFS
from agentdeck.core.policy.rules import Context, evaluate_doc
from agentdeck.core.policy.vocabulary import Call

_DOC = json.loads(compile_policy(C.CORPUS_POLICY, "test", protect=C.PROTECT,
                                 mcp_servers=C.MCP_SERVERS))


def _decide(line: str) -> tuple[str, str | None]:
    v = evaluate_doc(_DOC, [Call("shell", "Bash", [line])],
                     Context(C.HOME, C.CWD, {"HOME": C.HOME}, MemoryFS(C.TREE)))
    return v.decision, v.rule


@pytest.mark.parametrize("line", [
    "make -C /tmp/inc", "make -C /tmp/inc clean", "python3 -m mkrm", "python3 -mmkrm",
    "cd /tmp/in && python3 -m evil", "node -r /tmp/in/evil.js server.js",
    "node --require=/tmp/in/evil.js -e 1", "node --import=file:///tmp/in/evil.js x.js",
    "deno run -A /tmp/in/evil.js", "deno run --config x.json /tmp/in/evil.js", "bun /tmp/in/evil.js",
    "bun run /tmp/in/evil.js", "bun --preload /tmp/in/evil.js x.ts", "tsx /tmp/in/evil.js",
    "RUSTC_WRAPPER='rm -rf x' cargo build",
])
def test_a_loaded_file_on_disk_is_judged_as_the_program_it_holds(line: str) -> None:
    assert _decide(line) == ("deny", "no-recursive-force-rm")


@pytest.mark.parametrize("line", [
    "echo 'shell rm -rf x' > g.gdb; gdb -batch -x g.gdb ./a.out",
    "echo 'shell rm -rf x' > g.gdb; gdb -batch --command=g.gdb",
    "echo '!rm -rf x' > s.vim; vim -u s.vim -es -c q",
    "echo '!rm -rf x' > s.vim; nvim -u s.vim --headless -c q",
    "printf ':!rm -rf x\\n' > k; vim -s k notes.txt",
    "echo 'shell rm -rf x' > .gdbinit; gdb -batch ./a.out",
    "echo '!rm -rf x' > .exrc; vim -es -c q notes.txt",   # ~/.vimrc: protected
    "echo 'clean:; rm -rf x' > /tmp/inc/local.mk; make -C /tmp/inc clean",
    "echo x > a.ts; deno run -A a.ts", "echo x > a.ts; bun run a.ts", "echo x > a.ts; bun a.ts",
    "echo x > a.js; node --require ./a.js -e 1", "echo x > h.mjs; node --import ./h.mjs server.js",
    "echo x > m.py; PYTHONPATH=. python3 -m m", "echo x > json.py; python3 -m json.tool README.md",
    "mkdir -p lib && echo x > lib/os.py; PYTHONPATH=lib python3 -c 'import os'",
    "export PYTHONPATH=lib; mkdir -p lib/p && echo x > lib/p/__init__.py; python3 -c 'import p'",
    "echo x > /tmp/in/util.py; python3 /tmp/in/ok.py", "echo x > util.js; node server.js",
    "deno run https://example.com/x.ts", "PYTHONPATH=$(cat dirs) python3 -m pytest",
    "echo x > bunfig.toml; bun test", "echo '{}' > deno.json; deno task build",
    "JAVA_TOOL_OPTIONS=-javaagent:/tmp/a.jar java -version", "VIMINIT='!rm -rf x' vim -es",
])
def test_a_loaded_file_written_in_the_line_or_not_readable_is_unresolved(line: str) -> None:
    assert _decide(line) == ("ask", "unresolved")


@pytest.mark.parametrize("line", [
    "make -C /tmp/okinc", "python3 -m pytest", "PYTHONPATH=src python3 -m pytest",
    "python3 -m json.tool README.md", "echo x > out.txt; python3 -m json.tool README.md",
    "bun run dev", "bun install", "deno fmt", "deno run -A /tmp/in/ok.py", "node server.js",
    "vim -u NONE -es -c 'normal! gg' -c wq notes.txt", "vim -e -s notes.txt",
    "gdb -batch -ex run -ex bt ./a.out", "python3 -I -c 'print(1)'",
])
def test_the_same_programs_with_nothing_written_run(line: str) -> None:
    assert _decide(line) == ("allow", None)


def test_node_preloads_and_the_script_are_both_program_files() -> None:
    assert P.program_files("node", ["-r", "./a.js", "x.js"]) == ["./a.js", "x.js"]
    assert P.program_files("ruby", ["-r", "json", "a.rb"]) == ["a.rb"]
    assert P.program_files("deno", ["run", "-A", "main.ts", "arg"]) == ["main.ts"]
    assert P.program_files("bun", ["run", "dev"]) == []


def test_a_makefile_include_is_read_and_a_dynamic_one_is_not_static() -> None:
    assert P.make_includes("X = a.mk b.mk\ninclude $(X)\n-include c.mk # x\n") == [
        "a.mk", "b.mk", "c.mk"]
    assert P.make_includes("include $(shell ls)\nsinclude *.d\n") == [None, None]


def test_the_module_python_m_runs() -> None:
    assert P.run_module("python3", ["-u", "-m", "pkg.mod", "x"]) == "pkg.mod"
    assert P.run_module("python3", ["a.py", "-m", "x"]) is None
    assert P.run_module("python3", ["-m", None]) == ""
