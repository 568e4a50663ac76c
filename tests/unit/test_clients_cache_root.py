"""The real CLIs' cache is never under the real home: by default it is the checkout's own
git-ignored .cache/clients (the agentihooks venv beside it); $AGENTDECK_CLIENTS_DIR moves both."""
from __future__ import annotations

import subprocess
from pathlib import Path

from tests.clients import agentihooks_kit, clientkit

REPO = Path(__file__).resolve().parents[2]


def test_the_default_cache_is_in_the_checkout_and_ignored(monkeypatch):
    monkeypatch.delenv("AGENTDECK_CLIENTS_DIR", raising=False)
    root = clientkit.clients_root()
    assert root == REPO / ".cache" / "clients"
    assert agentihooks_kit.venv_dir().parent.parent == root
    home = Path.home().resolve()
    assert home not in root.resolve().parents or home in REPO.resolve().parents
    ignored = subprocess.run(["git", "check-ignore", "-q", str(root / "x")], cwd=REPO)
    assert ignored.returncode == 0, ".cache/ must be git-ignored"


def test_the_variable_moves_both(monkeypatch, tmp_path):
    monkeypatch.setenv("AGENTDECK_CLIENTS_DIR", str(tmp_path))
    assert clientkit.clients_root() == tmp_path
    assert agentihooks_kit.venv_dir().parent.parent == tmp_path
