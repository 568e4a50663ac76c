"""Messages widgets post to their screen: the operator's choices about the plan."""
from __future__ import annotations

from textual.message import Message


class Decided(Message):
    """The operator chose `decision` (apply, skip, keep, take) for one plan item."""

    def __init__(self, item_id: str, decision: str) -> None:
        super().__init__()
        self.item_id = item_id
        self.decision = decision


class McpToggled(Message):
    """The operator switched an MCP server on or off for one target."""

    def __init__(self, target: str, server: str, enabled: bool) -> None:
        super().__init__()
        self.target = target
        self.server = server
        self.enabled = enabled
