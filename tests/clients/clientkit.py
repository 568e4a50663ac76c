"""Install the pinned real CLIs from npm once, into a cache in the checkout (never the real
home), and build scratch hosts that run them with no credentials and no access to the real home.

Layout (shared with .ci/install-clients.sh):
    <root>/<npm package>@<version>/node_modules/.bin/<binary>   root = $AGENTDECK_CLIENTS_DIR
    <root>/agentihooks@<version>/venv                            or <checkout>/.cache/clients
    <root>/xdg                                                  (git-ignored)
The shared <root>/xdg is every scratch host's XDG_CACHE_HOME, so Copilot unpacks its 235 MB
bundle (xdg/copilot/pkg) once; the shared <root>/npm-cache is every scratch host's npm cache, so
the default profile's `npx -y` servers are downloaded once (warm_npx_servers), not by the first
turn of every test (about 4 s of CPU each); <root>/npx-shim/npx, first on every scratch PATH,
starts such a server's installed program at once (npm's own start-up is ~1 s of CPU per turn).
"""
from __future__ import annotations

import fcntl
import json
import os
import shlex
import shutil
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from agentdeck.core.facts import FACTS_BY_TARGET
from agentdeck.core.host import Host
from agentdeck.core.targets import registry

#: the default cache: in the checkout, git-ignored (no test writes under the real home)
DEFAULT_ROOT = Path(__file__).resolve().parents[2] / ".cache" / "clients"
INSTALLED_MARKER = ".agentdeck-installed"
CREDENTIAL_VARS = ("GITHUB_TOKEN", "GH_TOKEN", "COPILOT_GITHUB_TOKEN", "GITHUB_COPILOT_TOKEN",
                   "GH_ENTERPRISE_TOKEN", "GITHUB_ENTERPRISE_TOKEN", "OPENAI_API_KEY",
                   "CODEX_API_KEY", "ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN",
                   "CLAUDE_CODE_OAUTH_TOKEN", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY",
                   "AWS_SESSION_TOKEN", "GOOGLE_APPLICATION_CREDENTIALS")
#: an npm install is stopped after this many seconds (the four CLIs take 7-12 s each here): with
#: npm's own waits bounded (.ci/net-bounds.sh), an unreachable registry fails in minutes
INSTALL_TIMEOUT = 300.0
#: the only variables a scratch host inherits (everything else, credentials included, is dropped)
_INHERITED = ("LANG", "LC_ALL", "LC_CTYPE", "TZ", "TMPDIR")


def pinned() -> dict[str, tuple[str, str, str]]:
    """target -> (npm package, version, binary): the newest version the facts were verified for."""
    return {t: (f.npm_package, f.verified_versions[1], f.binary) for t, f in FACTS_BY_TARGET.items()}


def clients_root() -> Path:
    """$AGENTDECK_CLIENTS_DIR (an operator's shared cache), else the checkout's .cache/clients."""
    explicit = os.environ.get("AGENTDECK_CLIENTS_DIR")
    return Path(explicit) if explicit else DEFAULT_ROOT


def install_dir(root: Path, package: str, version: str) -> Path:
    return root / f"{package}@{version}"


class InstallError(Exception):
    pass


def ensure_installed(root: Path, package: str, version: str, binary: str,
                     timeout: float = INSTALL_TIMEOUT) -> tuple[Path, float]:
    """The bin dir holding `binary`, installing `package@version` with npm when it is not there
    yet. Returns (bin dir, seconds spent installing; 0 when reused). Raises InstallError."""
    d = install_dir(root, package, version)
    bin_dir = d / "node_modules" / ".bin"
    if (d / INSTALLED_MARKER).exists() and (bin_dir / binary).exists():
        return bin_dir, 0.0
    d.mkdir(parents=True, exist_ok=True)
    host = Host.from_environment(env=os.environ)
    npm = host.which("npm")
    if npm is None:
        raise InstallError("npm is not on PATH")
    with open(d / ".install.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)       # another process may be installing the same one
        if (d / INSTALLED_MARKER).exists() and (bin_dir / binary).exists():
            return bin_dir, 0.0
        if not (d / "package.json").exists():
            (d / "package.json").write_text('{"private": true}\n')
        t0 = time.monotonic()
        # cwd=d: run from elsewhere, npm would take a spec like "@openai/codex@0.171.0" for the
        # directory of that name under the cache root and fail with ENOENT.
        res = host.run([npm, "install", "--prefix", str(d), "--no-audit", "--no-fund",
                        "--no-save", f"{package}@{version}"], timeout=timeout, cwd=d)
        secs = time.monotonic() - t0
        if res.timed_out:
            raise InstallError(f"npm install {package}@{version} timed out after {timeout:g}s")
        if res.returncode != 0 or not (bin_dir / binary).exists():
            tail = (res.stderr or res.stdout).strip().splitlines()[-3:]
            raise InstallError(f"npm install {package}@{version} failed (exit {res.returncode}): "
                               + " | ".join(tail))
        (d / INSTALLED_MARKER).write_text(json.dumps({"package": package, "version": version,
                                                      "seconds": round(secs, 1)}))
        return bin_dir, secs


@dataclass
class Clients:
    root: Path
    bin_dirs: dict[str, Path] = field(default_factory=dict)      # target -> bin dir
    failures: dict[str, str] = field(default_factory=dict)       # target -> why not installed
    install_seconds: dict[str, float] = field(default_factory=dict)

    @property
    def xdg_cache(self) -> Path:
        return self.root / "xdg"

    @property
    def npm_cache(self) -> Path:
        return self.root / "npm-cache"

    @property
    def npx_shim(self) -> Path:
        return self.root / "npx-shim" / "npx"


def install_all(root: Path | None = None) -> Clients:
    """Install (or reuse) every pinned CLI, all at once (so the installs together take no longer
    than the slowest). Never raises: failures are recorded."""
    root = root or clients_root()
    out = Clients(root)
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        out.failures = {t: f"cannot create {root}: {e}" for t in pinned()}
        return out

    def one(item):
        target, (pkg, ver, binary) = item
        try:
            return target, ensure_installed(root, pkg, ver, binary), None
        except (InstallError, OSError) as e:
            return target, None, str(e)

    with ThreadPoolExecutor(max_workers=len(pinned())) as pool:
        for target, got, err in pool.map(one, pinned().items()):
            if err:
                out.failures[target] = err
            else:
                out.bin_dirs[target], out.install_seconds[target] = got
    return out


def scratch_host(base: Path, clients: Clients) -> Host:
    """A Host whose HOME, CLI homes and XDG dirs are all under `base` (XDG_CACHE_HOME excepted:
    the shared cache), whose PATH has the installed CLIs first, and which carries no credentials."""
    home = base / "home"
    env = {k: os.environ[k] for k in _INHERITED if k in os.environ}
    dirs = {
        "HOME": home,
        "XDG_CONFIG_HOME": home / ".config",
        # every CLI's home (an XDG one's variable is XDG_CONFIG_HOME itself)
        **{s.home_env: Path(s.home_env_value(home / s.home_dirname)) for s in registry.TARGETS},
        "XDG_DATA_HOME": home / ".local" / "share", "XDG_STATE_HOME": home / ".local" / "state",
        "XDG_RUNTIME_DIR": base / "run",
    }
    for k, p in dirs.items():
        p.mkdir(parents=True, exist_ok=True)
        env[k] = str(p)
    os.chmod(dirs["XDG_RUNTIME_DIR"], 0o700)
    clients.xdg_cache.mkdir(parents=True, exist_ok=True)
    env["XDG_CACHE_HOME"] = str(clients.xdg_cache)
    clients.npm_cache.mkdir(parents=True, exist_ok=True)
    env["npm_config_cache"] = str(clients.npm_cache)
    # a package in that cache is used as it is: `npx -y <server>` (the default profile's MCP
    # server, started at every turn) does not ask the registry for a newer one first (0.5-1 s
    # of each turn's wall time); a package not in the cache is still fetched
    env["npm_config_prefer_offline"] = "true"
    node = shutil.which("node")
    path = [str(clients.npx_shim.parent)] if clients.npx_shim.is_file() else []
    path += [str(d) for d in clients.bin_dirs.values()]
    if node:
        path.append(str(Path(node).parent))
    path += ["/usr/local/bin", "/usr/bin", "/bin"]
    env["PATH"] = os.pathsep.join(dict.fromkeys(path))
    for var in CREDENTIAL_VARS:
        env.pop(var, None)
    env["GEMINI_CLI_SYSTEM_DEFAULTS_PATH"] = str(gemini_offline_defaults(clients.root))
    return Host.from_environment(home, env=env)


#: the bundled profiles (the default one's MCP servers)
PROFILES = Path(__file__).resolve().parents[2] / "profiles"


def warm_npx_servers(clients: Clients) -> None:
    """Each stdio server the default profile starts with `npx` is run once (it exits when its
    stdin closes), so its package is in the shared npm cache before a CLI starts it: on a loaded
    machine the first download can outlast a CLI's start-up wait (Qwen Code then warns "failed
    to start"), which is the machine, not the installed configuration. One process at a time
    (xdist workers share the cache); a warm cache takes a second."""
    import subprocess   # local: the warm-up only
    import tempfile   # local: as above

    from agentdeck.core.formats.jsonc import JsonDoc   # local: as above

    doc = JsonDoc.parse((PROFILES / "default" / "mcp.json").read_text()).data
    servers = [s for s in (doc.get("mcpServers") or {}).values() if s.get("command") == "npx"]
    clients.root.mkdir(parents=True, exist_ok=True)
    with open(clients.root / ".npm-cache.lock", "w") as lock, \
            tempfile.TemporaryDirectory(prefix="agentdeck-npx-") as tmp:
        fcntl.flock(lock, fcntl.LOCK_EX)
        host = scratch_host(Path(tmp), clients)
        npx = shutil.which("npx", path=os.pathsep.join(
            d for d in host.env["PATH"].split(os.pathsep) if d != str(clients.npx_shim.parent)))
        for server in servers if npx else []:
            subprocess.run([str(npx), *server.get("args", [])], env=dict(host.env), cwd=tmp,
                           capture_output=True, timeout=300, stdin=subprocess.DEVNULL)
        if npx:
            write_npx_shim(clients, npx, [s.get("args", []) for s in servers])


def _npx_program(npm_cache: Path, spec: str) -> Path | None:
    """The program `npx -y <spec>` runs, from npx's own install of it in the npm cache
    (_npx/<hash>/: its package.json names the spec, the package's "bin" the program)."""
    name = spec[:1] + spec[1:].partition("@")[0]        # the package, without "@<version>"
    for pkg in sorted((npm_cache / "_npx").glob("*/package.json")):
        try:
            if json.loads(pkg.read_text()).get("_npx", {}).get("packages") != [spec]:
                continue
            bins = json.loads((pkg.parent / "node_modules" / name / "package.json")
                              .read_text()).get("bin")
        except (OSError, ValueError, AttributeError):
            continue
        if isinstance(bins, dict):
            bins = bins.get(name.rsplit("/", 1)[-1]) or (
                next(iter(bins.values())) if len(bins) == 1 else None)
        if isinstance(bins, str):
            program = pkg.parent / "node_modules" / name / bins
            if program.is_file():
                return program
    return None


def write_npx_shim(clients: Clients, npx: str, servers: list[list[str]]) -> None:
    """<root>/npx-shim/npx: `npx -y <spec>` of a warmed server runs the program npx itself
    would run from its cache (with node, by its path: a CLI may start the server with a bare
    environment; the rest of the arguments passed on); anything else, or a program no longer in
    the cache, goes to the real npx."""
    cases, node = [], shutil.which("node") or "node"
    for args in servers:
        if len(args) >= 2 and args[0] in ("-y", "--yes") and not args[1].startswith("-"):
            program = _npx_program(clients.npm_cache, args[1])
            if program:
                cases.append(f"    {shlex.quote(args[1])}) [ -f {shlex.quote(str(program))} ] && "
                             f"shift 2 && exec {shlex.quote(node)} {shlex.quote(str(program))} \"$@\" ;;")
    text = ("#!/bin/sh\n# written by tests/clients/clientkit.py write_npx_shim\n"
            'if [ "$1" = "-y" ] || [ "$1" = "--yes" ]; then\n  case "$2" in\n'
            + "".join(c + "\n" for c in cases) + "  esac\nfi\n"
            f'exec {shlex.quote(npx)} "$@"\n')
    clients.npx_shim.parent.mkdir(parents=True, exist_ok=True)
    tmp = clients.npx_shim.with_suffix(".tmp")
    tmp.write_text(text)
    tmp.chmod(0o755)
    tmp.replace(clients.npx_shim)


#: Gemini CLI's lowest settings layer for offline turns: with GOOGLE_GEMINI_BASE_URL set and no
#: sign-in chosen, Gemini 0.61.0 picks one it then refuses ("Invalid auth method selected.");
#: this chooses the API key without a line in the scratch home's own settings.json
#: (docs/facts/gemini.md section 7)
GEMINI_OFFLINE_DEFAULTS = {"security": {"auth": {"selectedType": "gemini-api-key"}},
                           "general": {"enableAutoUpdate": False,
                                       "enableAutoUpdateNotification": False},
                           "telemetry": {"enabled": False},
                           "privacy": {"usageStatisticsEnabled": False}}


def gemini_offline_defaults(root: Path) -> Path:
    """The system-defaults file (GEMINI_CLI_SYSTEM_DEFAULTS_PATH) of the scratch hosts, kept in
    the clients cache: Gemini skips a system file in a folder others can write (/tmp)."""
    path = root / "gemini-offline" / "system-defaults.json"
    text = json.dumps(GEMINI_OFFLINE_DEFAULTS, indent=2) + "\n"
    if not path.is_file() or path.read_text() != text:
        path.parent.mkdir(parents=True, exist_ok=True)
        os.chmod(path.parent, 0o755)
        path.write_text(text)
        os.chmod(path, 0o644)
    return path


def main() -> int:
    """Pre-install (CI): install or reuse every pinned CLI, run each once in a scratch home so
    Copilot unpacks its bundle into the shared cache, report; exit 1 when one could not be
    installed (.ci/install-clients.sh decides whether that fails the run)."""
    import tempfile

    from agentdeck.core.facts.versions import cli_version

    t0 = time.monotonic()
    c = install_all()
    for t, why in c.failures.items():
        print(f"install-clients: {t}: NOT installed: {why}")
    if not c.bin_dirs:
        print("install-clients: nothing installed")
        return 1
    with tempfile.TemporaryDirectory(prefix="agentdeck-clients-") as tmp:
        host = scratch_host(Path(tmp), c)
        for t, d in c.bin_dirs.items():
            v = cli_version(host, t, timeout=300)
            print(f"install-clients: {t}: {d} (install {c.install_seconds[t]:.0f}s) "
                  f"-> --version {v or 'did not answer'}")
    warm_npx_servers(c)
    # agentihooks (the tool the take-over tests install beside agentdeck) from the package
    # index now, not during the run
    import sys   # local: the pre-install only
    sys.path.insert(0, str(Path(__file__).resolve().parent))   # run as -m: this folder's kits
    from agentihooks_kit import ensure_agentihooks   # local: the pre-install only (beside this file)

    prog, why = ensure_agentihooks()
    print(f"install-clients: agentihooks: {prog or 'NOT installed: ' + why}")
    print(f"install-clients: done in {time.monotonic() - t0:.0f}s; cache {c.root}")
    return 1 if c.failures or prog is None else 0


if __name__ == "__main__":  # PYTHONPATH=. python3 -m tests.clients.clientkit
    raise SystemExit(main())
