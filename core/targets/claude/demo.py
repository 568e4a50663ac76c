"""The demo home's Claude Code (part `demo`, core/targets/parts/demo.py)."""
from __future__ import annotations

FILES: dict[str, str] = {
    "settings.json": """{
  "model": "sonnet"
}
""",
}


TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover  (mypy checks this module against its part's interface)
    from ..parts.demo import DemoPart
    from . import demo as _this
    _conforms: DemoPart = _this
