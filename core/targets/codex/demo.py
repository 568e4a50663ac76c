"""The demo home's OpenAI Codex CLI (part `demo`, core/targets/parts/demo.py)."""
from __future__ import annotations

FILES: dict[str, str] = {
    "config.toml": """# Codex settings, hand-written.
model = "gpt-5-codex"   # the one I like

[mcp_servers.local-db]
# my own database tool
command = "db-mcp"
args = ["--readonly"]
""",
}


TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover  (mypy checks this module against its part's interface)
    from ..parts.demo import DemoPart
    from . import demo as _this
    _conforms: DemoPart = _this
