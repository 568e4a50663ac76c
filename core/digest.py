"""The two digests every record of agentdeck's is made of: a file's sha256 and a JSON value's
canonical text (sorted keys, no spaces). A leaf module: the manifest, the disk view and the
item kinds (core/kinds) all fingerprint with it."""
from __future__ import annotations

import hashlib
import json
from typing import Any


def sha256(data: bytes | str) -> str:
    if isinstance(data, str):
        data = data.encode("utf-8")
    return hashlib.sha256(data).hexdigest()


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
