"""`doctor --live` leaves the home as it found it: each CLI is asked on a scratch copy.

Asked in place, the real CLIs write their own state into the home (measured on Copilot 1.0.102,
Codex 0.171.0, Claude Code 2.1.332): `hooks.discover` writes ~/.copilot/config.json, logs/ and
a settings lock; Codex's app-server its *.sqlite files, installation_id, .tmp/ and
skills/.system; `claude doctor` rewrites .claude.json and adds backups/, telemetry/ and
~/.npm/_logs. So, as the drill does (core/drill/scratch.py), each target gets a scratch folder in
agentdeck's state dir with a copy of what its probes read (below) -- links followed, so a
settings.json linked into a dotfiles checkout is read as it is -- and HOME, the CLI's home, the
XDG dirs and TMPDIR point there. What a probe answers is mapped back (`Isolated.back`: every
scratch path becomes the real one), so the comparisons see the home's own paths and lines; the
folder is removed afterwards.

What the copy holds is the target's probes part's (core/targets/<name>/probes.py): its
SCRATCH_COPY (what the probes read, never credentials nor the CLI's state) and what its
scratch_setup writes or passes from the operator's files (a config.json of trusted folders only,
trust entries re-keyed under the copy's path, a .claude.json of MCP servers only). A cache the
CLI would unpack again is linked, as the drill's recipe says (its Runner.cache_links).
"""
from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..host import Host, HostError

@dataclass
class Isolated:
    target: str
    real: Host
    host: Host                       # the probes run with this one
    root: Path
    args: list[str] = field(default_factory=list)   # extra CLI arguments (Codex trust re-keying)
    subs: list[tuple[str, str]] = field(default_factory=list)     # scratch prefix -> real

    def back(self, value: Any) -> Any:
        """`value` (a probe's data or error) with every scratch path made the real one."""
        if isinstance(value, str):
            for a, b in self.subs:
                if a in value:
                    value = value.replace(a, b)
            return value
        if isinstance(value, dict):
            return {self.back(k): self.back(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self.back(v) for v in value]
        return value


def run_root(host: Host) -> Path:
    return host.state_dir / "doctor" / f"live-{time.strftime('%Y%m%d-%H%M%S')}-{secrets.token_hex(3)}"


def make(host: Host, root: Path, target: str) -> Isolated:
    """The scratch copy of `target`'s home under `root` and a Host pointed at it."""
    from ..drill import runners, scratch
    from ..targets import registry

    spec = registry.spec(target)
    part = registry.part(target, "probes")
    s = scratch.Scratch(root / target, spec.home_subdir)
    for d in (s.home, s.cli_home, s.work, *s.xdg.values()):
        host.mkdir(d, mode=0o700)
    home = spec.home(host)
    copy = s.cli_home                          # the CLI's home in the scratch (its subdir)
    for name in part.SCRATCH_COPY:
        _copy(host, home / name, copy / name)
    args, files = part.scratch_setup(host, home, copy)
    for name, data in files.items():
        host.write_atomic(copy / name, data, mode=0o600, durable=False)
    recipe = runners.runner(target)
    if recipe is not None:
        scratch.link_caches(host, s, recipe.cache_links)
    env = {k: v for k, v in host.env.items() if k not in runners.CREDENTIAL_VARS
           and k not in runners.home_vars()}
    env.update(scratch.scratch_env(host, s))
    env[spec.home_env] = spec.home_env_value(copy)
    probe_host = Host(home=s.home, env=env)
    subs = [(str(copy), str(home)), (str(s.home), str(host.home)),
            (str(s.root), str(host.home))]
    return Isolated(target, host, probe_host, s.root, list(args), subs)


def remove_copy(host: Host, iso: Isolated) -> None:
    """One target's scratch copy, once its probes are answered (remove() takes the rest)."""
    from ..drill import scratch

    scratch.remove(host, iso.root)


def remove(host: Host, root: Path) -> None:
    from ..drill import scratch

    scratch.remove(host, root)
    host.rmdir_if_empty(root.parent)          # <state>/doctor, when no other run is going


def run(host: Host, target: str, probe):
    """`probe(host)` run on a scratch copy of `target`'s home, its answer with the home's paths
    (a CLI that is not installed is asked as it is: the probe only says so)."""
    from ..targets import registry

    if host.which(registry.spec(target).binary) is None:
        return probe(host)
    root = run_root(host)
    try:
        iso = make(host, root, target)
        res = probe(iso.host)
        res.data, res.error = iso.back(res.data), iso.back(res.error)
        return res
    finally:
        remove(host, root)


def _copy(host: Host, src: Path, dst: Path, depth: int = 0) -> None:
    """Copy a file or a folder, following links (the copy is read, never written back)."""
    if depth > 12:
        return
    try:
        if host.is_dir(src):
            host.mkdir(dst, mode=0o700)
            for n in host.listdir(src):
                _copy(host, src / n, dst / n, depth + 1)
            return
        if not host.is_file(src):
            return
        data = host.read_bytes(src)
    except HostError:
        return                                 # unreadable: the CLI would not read it either
    if data is not None:
        # a throwaway copy, removed once the probes are answered: not fsynced
        host.write_atomic(dst, data, mode=(host.mode(src) or 0o600) & 0o700 | 0o600, durable=False)
