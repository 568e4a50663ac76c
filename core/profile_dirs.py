"""Where profiles live: the bundled ones (the repository's profiles/ folder; installed, the
package agentdeck.core._bundled_profiles) and the operator's own (<config dir>/profiles).

Asked by core/profiles.py (finding a profile) and core/profilecache.py (paths in a cache entry are
kept relative to these folders) each time they need them, so both see the same folders (a test
points them elsewhere by replacing these functions here)."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .host import Host


def bundled_dir() -> Path:
    here = Path(__file__).resolve().parent
    for cand in (here.parent / "profiles", here / "_bundled_profiles"):
        if cand.is_dir():
            return cand
    return here.parent / "profiles"


def operator_dir(host: Host) -> Path:
    return host.config_dir / "profiles"
