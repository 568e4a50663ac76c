"""What a CI run writes into the checkout is neither committed nor left to be: ansible-test
sanity (.ci/ansible-sanity.sh) writes its results under the collection's tests/output."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.ci_rule import missing_tool

REPO = Path(__file__).resolve().parents[2]
ANSIBLE_TEST_OUTPUT = "integrations/ansible/ansible_collections/agentdeck/fleet/tests/output"


def git(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["git", "-C", str(REPO), *args], capture_output=True, text=True,
                          timeout=60)


def test_ansible_test_output_is_not_committed_and_is_ignored():
    if shutil.which("git") is None or git("rev-parse", "--git-dir").returncode != 0:
        missing_tool("not a git checkout (or no git): the index cannot be asked")
    assert git("ls-files", "--", ANSIBLE_TEST_OUTPUT).stdout == ""
    for written in ("bot/ansible-test-sanity-pep8.json", ".tmp/pylint/install_1.stats"):
        assert git("check-ignore", "-q", "--no-index",
                   f"{ANSIBLE_TEST_OUTPUT}/{written}").returncode == 0, written
