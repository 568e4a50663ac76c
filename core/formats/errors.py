"""The one error type of the format layer."""

from __future__ import annotations


class FormatError(Exception):
    """A file could not be read or edited as its format requires.

    ``line`` and ``col`` are 1-based (col counts characters) or None when unknown.
    ``str(e)`` is one line: ``"{path}:{line}:{col}: {msg}"`` with the unknown parts left out.
    """

    def __init__(self, path: str, line: int | None, col: int | None, msg: str) -> None:
        msg = " ".join(str(msg).split())  # one line, always
        super().__init__(path, line, col, msg)
        self.path = path
        self.line = line
        self.col = col if line is not None else None
        self.msg = msg

    @classmethod
    def at_offset(cls, path: str, text: str, offset: int, msg: str) -> "FormatError":
        """The error for character ``offset`` of ``text``."""
        line, col = position(text, offset)
        return cls(path, line, col, msg)

    def __str__(self) -> str:
        where = self.path
        if self.line is not None:
            where += f":{self.line}"
            if self.col is not None:
                where += f":{self.col}"
        return f"{where}: {self.msg}"


def position(text: str, offset: int) -> tuple[int, int]:
    """1-based (line, column) of character ``offset`` in ``text``; lines end at "\\n"."""
    offset = max(0, min(offset, len(text)))
    line = text.count("\n", 0, offset) + 1
    col = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, col
