"""Under CI a missing tool fails the test; a local run may skip it.

The `clients` tests need the real CLIs, the `fleet` tests ansible-core, a Codex sandbox test a
system bubblewrap. A developer's machine may lack them and still run the rest: the test is
skipped with the reason. CI (.ci/run) installs every one of them, so there a missing tool means
its install went wrong, and a green run with every real test skipped would say nothing: with the
`CI` variable set, the same call fails the test with the same reason.
"""
from __future__ import annotations

import os
from collections.abc import Mapping
from typing import NoReturn

import pytest

#: values of CI that mean "not CI" (unset counts as not CI too)
NOT_CI = ("", "0", "false", "no")


def under_ci(env: Mapping[str, str] = os.environ) -> bool:
    """CI runners set CI (GitHub Actions, GitLab: CI=true; .ci/run sets it when unset)."""
    return env.get("CI", "").strip().lower() not in NOT_CI


def missing_tool(reason: str) -> NoReturn:
    """A tool CI installs is not here: fail under CI, skip otherwise; `reason` says which tool
    and why (the install's own error when there is one)."""
    if under_ci():
        pytest.fail(f"under CI a missing tool fails the test (.ci/run installs it): {reason}",
                    pytrace=False)
    pytest.skip(reason)
