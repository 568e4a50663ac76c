"""The two digests every record of agentdeck's is made of: a file's sha256 and a JSON value's
canonical text (sorted keys, no spaces). A leaf module: the manifest, the disk view and the
item kinds (core/kinds) all fingerprint with it."""
from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

# The interpreter's own SHA-256, as the standard library's random.py takes its SHA-512: hashlib
# loads OpenSSL first, ~11 M instructions on every command (a plan hashes only small files).
if TYPE_CHECKING:
    from hashlib import sha256 as _sha256
else:
    try:
        from _sha2 import sha256 as _sha256           # CPython 3.12 and later
    except ImportError:
        try:
            from _sha256 import sha256 as _sha256     # CPython 3.11
        except ImportError:
            from hashlib import sha256 as _sha256     # an interpreter built without them
#: a new SHA-256 hash object (hashlib.sha256's signature): update() it, then hexdigest()
new_sha256 = _sha256


def sha256(data: bytes | str) -> str:
    if isinstance(data, str):
        data = data.encode("utf-8")
    return new_sha256(data).hexdigest()


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
