"""The test environment isolates every registered target's home: the variable that moves a
CLI's home (its spec's home_env, core/targets/registry.py) is among those tests/conftest.py
drops, so a newly registered CLI can never be pointed at the real home by a test."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from agentdeck.core.targets import registry
from tests.conftest import _HOME_VARS, CLI_HOME_VARS


@pytest.mark.parametrize("name", registry.NAMES)
def test_every_registered_home_variable_is_dropped(name, host, tmp_path):
    spec = registry.spec(name)
    assert spec.home_env in CLI_HOME_VARS and spec.home_env in _HOME_VARS
    assert spec.home_env not in os.environ          # removed for this test (autouse fixture)
    assert spec.home_env not in host.env
    assert spec.home(host) == host.home / spec.home_dirname
    assert tmp_path in spec.home(host).parents      # inside the test's throwaway home


def test_the_process_home_is_a_throwaway(tmp_path_factory):
    home = Path(os.environ["HOME"])
    assert home.name.startswith("process-home") and tmp_path_factory.getbasetemp() in home.parents
