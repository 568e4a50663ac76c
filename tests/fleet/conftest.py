"""The fleet tests: agentdeck under Ansible (integrations/ansible, docs/fleet.md).

Each test runs the real `ansible-playbook` (ansible-core, installed by .ci/run) against an
inventory of local hosts (`ansible_connection=local`), each with its own scratch home passed as
the module's `home` option. The ansible process gets a clean environment with HOME set to a
temporary folder too, so neither Ansible nor agentdeck touches the real home. Skipped with the
reason when ansible-core is not installed (under CI that fails instead: tests/ci_rule.py).
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.ci_rule import missing_tool

REPO = Path(__file__).resolve().parents[2]
COLLECTIONS = REPO / "integrations" / "ansible"
COLLECTION = COLLECTIONS / "ansible_collections" / "agentdeck" / "fleet"
MODULE_PATH = COLLECTION / "plugins" / "modules" / "install.py"
CALLBACKS = Path(__file__).resolve().parent / "callback_plugins"
SKIP_REASON = ("ansible-core is not installed in this Python (.ci/run installs it with "
               "`pip install ansible-core`)")


def ansible_tool(name: str) -> str | None:
    """An ansible-core command installed next to this Python, else on PATH."""
    here = Path(sys.executable).parent / name
    if here.exists():
        return str(here)
    return shutil.which(name)


@pytest.fixture(scope="session")
def ansible_playbook() -> str:
    try:
        import ansible  # noqa: F401
    except ImportError:
        missing_tool(SKIP_REASON)
    exe = ansible_tool("ansible-playbook")
    if exe is None:
        missing_tool(SKIP_REASON + "; ansible-playbook is not on PATH")
    return exe


@pytest.fixture
def agentdeck_exe(tmp_path) -> str:
    """agentdeck as a managed host runs it: a command that starts this checkout's CLI."""
    p = tmp_path / "bin" / "agentdeck"
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(f'#!/bin/sh\nexec {sys.executable} -m agentdeck.core.cli "$@"\n')
    p.chmod(0o755)
    return str(p)


@dataclass
class Run:
    rc: int
    out: str
    err: str
    records: list[dict] = field(default_factory=list)

    def results(self, task: str | None = None) -> dict[str, dict]:
        """host -> {"status": ..., **result} of the (last recorded) task named `task`."""
        out = {}
        for r in self.records:
            if task is None or r["task"] == task:
                out[r["host"]] = {"status": r["status"], **r["result"]}
        return out

    @property
    def text(self) -> str:
        return self.out + self.err


@dataclass
class Fleet:
    """An inventory of local hosts, each with its own home, and a way to run playbooks on it."""
    root: Path
    playbook_exe: str
    agentdeck: str
    homes: dict[str, Path]

    def inventory(self) -> Path:
        lines = ["[fleet]"]
        for name, home in self.homes.items():
            lines.append(f"{name} agentdeck_home={home}")
        lines += ["", "[fleet:vars]", "ansible_connection=local",
                  f"ansible_python_interpreter={sys.executable}",
                  f"agentdeck_executable={self.agentdeck}"]
        p = self.root / "inventory.ini"
        p.write_text("\n".join(lines) + "\n")
        return p

    def env(self, record: Path) -> dict[str, str]:
        proc_home = self.root / "ansible-home"
        proc_home.mkdir(exist_ok=True)
        cfg = self.root / "ansible.cfg"
        cfg.write_text("[defaults]\n")
        return {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(proc_home),
            "LANG": "C.UTF-8",
            "ANSIBLE_CONFIG": str(cfg),
            "ANSIBLE_COLLECTIONS_PATH": str(COLLECTIONS),
            "ANSIBLE_LOCAL_TEMP": str(self.root / "ansible-local-tmp"),
            # needed as well as HOME: without it, a local-connection run put its module files
            # (AnsiballZ_*.py) under the real home's ~/.ansible/tmp although HOME was elsewhere
            "ANSIBLE_REMOTE_TEMP": str(self.root / "ansible-remote-tmp"),
            "ANSIBLE_NOCOLOR": "1",
            "ANSIBLE_RETRY_FILES_ENABLED": "0",
            "ANSIBLE_CALLBACK_PLUGINS": str(CALLBACKS),
            "ANSIBLE_CALLBACKS_ENABLED": "agentdeck_record",
            "AGENTDECK_RECORD": str(record),
        }

    def play(self, playbook: str | Path, *args: str, extra: dict | None = None) -> Run:
        record = self.root / f"record-{len(list(self.root.glob('record-*')))}.jsonl"
        argv = [self.playbook_exe, "-i", str(self.inventory()), str(playbook), *args]
        if extra:
            argv += ["-e", json.dumps(extra)]
        r = subprocess.run(argv, capture_output=True, text=True, env=self.env(record),
                           cwd=self.root, timeout=600)
        records = []
        if record.exists():
            records = [json.loads(ln) for ln in record.read_text().splitlines() if ln.strip()]
        return Run(r.returncode, r.stdout, r.stderr, records)

    def write_playbook(self, name: str, text: str) -> Path:
        p = self.root / name
        p.write_text(text)
        return p


@pytest.fixture
def make_fleet(tmp_path, ansible_playbook, agentdeck_exe):
    def make(*names: str) -> Fleet:
        homes = {}
        for n in names:
            h = tmp_path / "homes" / n
            h.mkdir(parents=True)
            homes[n] = h
        return Fleet(tmp_path, ansible_playbook, agentdeck_exe, homes)
    return make


#: the install task as the tests' playbooks use it
INSTALL_PLAYBOOK = """\
- hosts: fleet
  gather_facts: false
  tasks:
    - name: agentdeck
      agentdeck.fleet.install:
        home: "{{ agentdeck_home }}"
        executable: "{{ agentdeck_executable }}"
        state: "{{ agentdeck_state | default('present') }}"
        decisions: "{{ agentdeck_decisions | default({}) }}"
"""
