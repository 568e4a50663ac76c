"""Numbers said in words the way a reader expects: "1 hook", "2 hooks", never "2 hook(s)"."""
from __future__ import annotations


def count_of(n: int, one: str, many: str | None = None) -> str:
    """`n` and the noun in the number it takes: count_of(1, "hook") is "1 hook",
    count_of(3, "entry", "entries") is "3 entries" (`many` defaults to `one` + "s")."""
    return f"{n} {one if n == 1 else many if many is not None else one + 's'}"


def noun_for(n: int, one: str, many: str | None = None) -> str:
    """The noun alone in the number `n` takes: noun_for(2, "rule") is "rules" (for phrases where
    the number is not said right before it: "rules a, b held", "3 user MCP servers")."""
    return one if n == 1 else many if many is not None else one + "s"
