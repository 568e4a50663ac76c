"""The demo home's GitHub Copilot CLI (part `demo`, core/targets/parts/demo.py)."""
from __future__ import annotations

FILES: dict[str, str] = {
    "settings.json": """{
  // My Copilot settings. agentdeck must keep these comments.
  "model": "gpt-5",
  "theme": "dark",
  /* I turned this server off by hand */
  "disabledMcpServers": ["my-notes"],
  "enabledMcpServers": ["github"],
}
""",
    "mcp-config.json": """{
  "mcpServers": {
    "my-notes": {
      "type": "local",
      "command": "node",
      "args": ["/home/me/notes-mcp/index.js"],
      "tools": ["*"]
    }
  }
}
""",
    "copilot-instructions.md": """# My own notes for Copilot

Always answer in British English.
""",
    "config.json": """{
  "trustedFolders": ["/home/me/src"],
  "lastLoggedInUser": "demo-user"
}
""",
}


TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover  (mypy checks this module against its part's interface)
    from ..parts.demo import DemoPart
    from . import demo as _this
    _conforms: DemoPart = _this
