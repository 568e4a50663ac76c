"""The state dir's originals: the bytes agentdeck replaced or set aside the first time, kept
under their sha256 so uninstall puts them back byte for byte."""
from __future__ import annotations

from pathlib import Path

from .digest import sha256
from .errors import UserError
from .host import Host, HostError


def originals_dir(host: Host) -> Path:
    return host.state_dir / "originals"


def save(host: Host, data: bytes) -> str:
    """Keep content we replaced for the first time, so uninstall can restore it byte for byte."""
    sha = sha256(data)
    p = originals_dir(host) / sha
    if not host.exists(p, follow=True):
        host.write_atomic(p, data, mode=0o600)
    return sha


def read(host: Host, sha: str) -> bytes | None:
    """The bytes kept under `sha`, or None when they are missing or do not match it."""
    try:
        data = host.read_bytes(originals_dir(host) / str(sha))
    except HostError:
        data = None
    if data is None or sha256(data) != sha:
        return None
    return data


def checked(host: Host, sha: str, path: str) -> bytes:
    """The bytes kept under `sha` for `path` (UserError when they are missing or damaged)."""
    data = read(host, sha)
    if data is None:
        raise UserError("the copy of what was here before agentdeck (kept in "
                        f"{host.display(originals_dir(host))}) is missing or damaged; "
                        "nothing was written", path=path)
    return data
