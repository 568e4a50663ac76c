"""The demo home's Claude Code (part `demo`, core/targets/parts/demo.py)."""
from __future__ import annotations

FILES: dict[str, str] = {
    "settings.json": """{
  "model": "sonnet"
}
""",
}
