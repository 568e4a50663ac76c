"""Errors that are the operator's to fix: each carries one line naming the file (and line and
column where there is one). The CLI prints them without a traceback and exits 1."""
from __future__ import annotations


class UserError(Exception):
    """A mistake in input the operator controls (a profile, a config file, a flag)."""

    def __init__(self, message: str, *, path: str | None = None, line: int | None = None,
                 col: int | None = None):
        self.path, self.line, self.col, self.msg = path, line, col, message
        where = ""
        if path:
            where = str(path)
            if line is not None:
                where += f":{line}"
                if col is not None:
                    where += f":{col}"
            where += ": "
        super().__init__(where + message)


class StalePlanError(UserError):
    """The files a plan was computed from changed before it was applied."""


class LockedError(UserError):
    """Another agentdeck apply holds this home's lock."""
