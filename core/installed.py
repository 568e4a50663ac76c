"""Which target CLIs are installed here and at which version, without running them (a process
only when `live`): the doctor's CliInfo and `engine.cli_version` both come from here."""
from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

from .host import Host, HostError


@dataclass
class CliInfo:
    target: str
    exe: str | None = None          # found on the host's PATH
    version: str | None = None
    source: str = ""                # "package.json" | "path" | "--version"
    note: str = ""                  # why the version is unknown

# ---- versions ----------------------------------------------------------------------------------
_PATH_VERSION = re.compile(r"(?:^|[/@-])v?(\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?)(?:/|$)")


def _version_env(target: str) -> dict[str, str] | None:
    """The environment `<binary> --version` needs (the target's probes part says; a process, so
    asked only under --live)."""
    from .targets import registry

    if not registry.has_part(target, "probes"):
        return None
    return getattr(registry.part(target, "probes"), "VERSION_ENV", None)


def cli_info(host: Host, target: str, live: bool) -> CliInfo:
    from .facts.versions import parse_cli_version
    from .targets import registry

    facts = registry.spec(target)          # its binary and npm package
    info = CliInfo(target)
    info.exe = host.which(facts.binary)
    if info.exe is None:
        info.note = f"{facts.binary} is not installed (not found on PATH)"
        return info
    real = Path(os.path.realpath(info.exe))
    # 1. npm install: the package.json of the package the binary belongs to
    for d in list(real.parents)[:8]:
        pj = d / "package.json"
        try:
            raw = host.read_bytes(pj, limit=1024 * 1024)
        except HostError:
            raw = None
        if raw is None:
            continue
        try:
            obj = json.loads(raw)
        except ValueError:
            continue
        if isinstance(obj, dict) and obj.get("name") == facts.npm_package and isinstance(
                obj.get("version"), str):
            info.version, info.source = obj["version"], "package.json"
            return info
    # 2. a versioned install path (e.g. ~/.local/share/claude/versions/2.1.332)
    m = _PATH_VERSION.search(str(real))
    if m:
        info.version, info.source = m.group(1), "path"
        return info
    # 3. ask the CLI -- a process, so only under --live
    if not live:
        info.note = (f"the version of {host.display(info.exe)} is not readable without running it; "
                     "`agentdeck doctor --live` asks it")
        return info
    res = host.run([info.exe, "--version"], timeout=15, env=_version_env(target))
    v = None if res.timed_out else parse_cli_version(target, f"{res.stdout}\n{res.stderr}")
    if v:
        info.version, info.source = v, "--version"
    else:
        info.note = f"`{facts.binary} --version` printed no version we recognise"
    return info
