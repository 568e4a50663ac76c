"""The org scope: the home's plan/apply/manifest engine, pointed at the system layer.

`OrgScope(prefix)` plans each CLI's system files (core/org/targets.py) with `prefix` in
front of every system path: "/" on a real machine, a temporary folder in unit tests (the real
/etc is then never read or written). Its Host (`OrgHost`) may change only the org layer's own
system folders under the prefix, keeps agentdeck's state for the layer (journal, backups, lock,
originals, one manifest per CLI) in <prefix>/var/lib/agentdeck, and refuses every write whose
path, or any folder above it, is not root-owned, is group/world-writable or is a symlink
(core.org.ownership): checked again at write time, so nothing is ever written through one.
"""
from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import UserError
from ..facts import org as F
from ..host import Host, HostError
from ..scopes import Scope
from . import ownership



def order() -> tuple[str, ...]:
    """The targets with an org layer (an org part), in the registry's order."""
    return F.names()


def system_dirs() -> tuple[str, ...]:
    """Each org layer's top system folder (/etc/<cli dir>), the lib dir and the state dir."""
    return tuple(sorted({str(Path(*Path(f.path).parts[:3])) for f in F.ORG.values()}
                        | {F.LIB_DIR, F.STATE_DIR}))


@dataclass
class OrgHost(Host):
    """The operator's Host allowed to change the org layer's folders under `prefix` only."""
    prefix: Path = Path("/")
    _one_mkdir = Host.mkdir

    def at(self, system_path: str) -> Path:
        return self.prefix / system_path.lstrip("/")

    def roots(self) -> list[str]:
        out: list[str] = []
        for d in system_dirs():
            p = self.at(d)
            for s in (os.path.normpath(os.path.abspath(p)), self.realpath(p)):
                if s not in out:
                    out.append(s)
        return out

    def check_writable(self, path: Path, real: Path | None = None, *, confine: bool = True) -> Path:
        bad = ownership.problems(self, path, self.prefix)
        if bad:
            raise HostError(f"not written: {bad[0]}")
        return super().check_writable(path, real, confine=True)

    def mkdir(self, path: Path, mode: int = 0o755, *, confine: bool = True) -> None:
        """Each missing folder made one level at a time with exactly `mode` (whatever the
        umask), after the folders above it passed the ownership check."""
        bad = ownership.problems(self, path, self.prefix)
        if bad:
            raise HostError(f"not written: {bad[0]}")
        missing = []
        p = Path(os.path.abspath(path))
        while self.lstat(p) is None and p != p.parent:
            missing.append(p)
            p = p.parent
        for d in reversed(missing):
            self._one_mkdir(d, mode=mode, confine=True)
            self.chmod(d, mode)


def org_host(host: Host, prefix: Path) -> OrgHost:
    if isinstance(host, OrgHost) and host.prefix == prefix:
        return host
    values = {f.name: getattr(host, f.name) for f in dataclasses.fields(Host) if f.init}
    values["state_override"] = prefix / F.STATE_DIR.lstrip("/")
    out = OrgHost(**values, prefix=prefix)
    for k, v in vars(host).items():          # per-instance state the Host keeps (counters, ...)
        if k not in values and k != "prefix":
            setattr(out, k, v)
    return out


@dataclass
class OrgScope(Scope):
    """The system layer of each CLI under `prefix`. The keys given on the command line: each
    turns on, or adds to, the profile's [org] key of that name (core.org.targets.org_keys)."""
    prefix: Path = Path("/")
    managed_hooks_only: bool = False
    no_bypass: bool = False
    mcp_allow: tuple[str, ...] = ()
    mcp_deny: tuple[str, ...] = ()
    kind = "org"

    def __post_init__(self) -> None:
        self.prefix = Path(os.path.abspath(self.prefix))

    def at(self, system_path: str) -> Path:
        return self.prefix / system_path.lstrip("/")

    def manifest_path(self, name: str) -> Path:
        return self.at(F.STATE_DIR) / "org" / f"{name}.json"

    def host(self, host: Host) -> Host:
        return org_host(host, self.prefix)

    def select(self, names: list[str] | None, profile_targets: list[str] | None,
               host: "Host | None" = None) -> list[str]:
        if not names:
            return list(order())
        known = order()
        out: list[str] = []
        for n in names:
            for part in n.split(","):
                part = part.strip()
                if part and part not in known:
                    raise UserError(f"unknown target {part!r} (the org layer knows: "
                                    f"{', '.join(known)})")
                if part and part not in out:
                    out.append(part)
        if not out:
            raise UserError(f"no target named (the org layer knows: {', '.join(known)})")
        return out

    def adapter(self, name: str):
        from .targets import OrgTarget
        return OrgTarget(name, self)

    def manifest_paths(self, host: Host) -> dict[str, Path]:
        return {n: self.manifest_path(n) for n in order()}

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "prefix": str(self.prefix),
                "managed_hooks_only": self.managed_hooks_only, "no_bypass": self.no_bypass,
                "mcp_allow": list(self.mcp_allow), "mcp_deny": list(self.mcp_deny)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "OrgScope":
        def names(key: str) -> tuple[str, ...]:
            v = data.get(key) or []
            return tuple(str(x) for x in v) if isinstance(v, list) else ()
        return cls(Path(data.get("prefix") or "/"), bool(data.get("managed_hooks_only")),
                   bool(data.get("no_bypass")), names("mcp_allow"), names("mcp_deny"))
