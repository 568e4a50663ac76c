"""The drill's recipes, one per CLI, asked of each target's `drill` part
(core/targets/<name>/drill.py: its Runner as data, with the CLI version it was verified for, and
what depends on the operator's files; the interface is core/targets/parts/drill.py).

A runner names the CLI's binary, the environment and arguments that point it at
http://127.0.0.1:{port} (the placeholder is filled in inside the network sandbox, where the
server is started), the CLI home variable the drill redirects to a scratch copy, which files of
that home the copy holds (what the CLI must read; never credentials or the CLI's own state), and
which events a one-tool turn can fire. A target without a drill part is "not supported".
"""
from __future__ import annotations

from pathlib import Path
from types import ModuleType

from ..host import Host
from ..targets import registry
from ..targets.parts.drill import Prepared, Runner, why_not_fired

__all__ = ["CREDENTIAL_VARS", "PROMPT", "Runner", "argv", "cli_home", "home_value", "home_vars",
           "part", "prepare", "runner", "supported", "why_not_fired", "why_not_supported"]

PROMPT = "agentdeck drill: run the shell commands you are given."
#: variables never passed to a drilled CLI, whatever the CLI: the turn needs no account, and a
#: token could make a CLI try to sign in (each target's drill part adds its own)
_SHARED_CREDENTIALS = ("GITHUB_TOKEN", "GH_TOKEN", "GH_ENTERPRISE_TOKEN",
                       "GITHUB_ENTERPRISE_TOKEN", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY",
                       "AWS_SESSION_TOKEN", "GOOGLE_APPLICATION_CREDENTIALS")
NOT_SUPPORTED = "the drill does not support this CLI (its package has no drill part)"


def supported(target: str) -> bool:
    return registry.has_part(target, "drill")


def why_not_supported(target: str) -> str:
    """Why the drill runs no turn of this CLI: it has no guard to prove (TargetSpec.enforcement),
    or its package has no drill part."""
    s = registry.BY_NAME.get(target)
    if s is not None and not s.guarded:
        return (f"nothing to drill: agentdeck installs no guard in {s.title} (it only writes "
                "its files)")
    return NOT_SUPPORTED


def part(target: str) -> ModuleType | None:
    """The target's drill part, or None when it has none."""
    return registry.part(target, "drill") if supported(target) else None


def runner(target: str) -> Runner | None:
    p = part(target)
    return p.RUNNER if p is not None else None


def _runners() -> dict[str, Runner]:
    return {n: r for n in registry.NAMES if (r := runner(n)) is not None}


def _credentials() -> tuple[str, ...]:
    out = list(_SHARED_CREDENTIALS)
    for r in _runners().values():
        out += [v for v in r.credential_vars if v not in out]
    return tuple(out)


def __getattr__(name: str):
    # RUNNERS: every drillable target's Runner; CREDENTIAL_VARS: every variable never passed on
    # (loaded on first use: the targets' drill parts)
    if name == "RUNNERS":
        value: object = _runners()
    elif name == "CREDENTIAL_VARS":
        value = _credentials()
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def home_vars() -> frozenset[str]:
    """Every registered CLI's home variable: none is passed on to a drilled CLI (its own is
    pointed at the scratch copy)."""
    return frozenset(s.home_env for s in registry.TARGETS)


def cli_home(host: Host, target: str) -> Path:
    return registry.spec(target).home(host)


def home_value(target: str, copy: Path) -> str:
    """The value of the target's home variable that makes `copy` its home (the CLI's home
    itself, `spec.home_at(folder)`, not the folder the variable names: for Gemini CLI and
    OpenCode the two differ)."""
    return registry.spec(target).home_env_value(copy)


def prepare(host: Host, target: str, real: Path, copy: Path) -> Prepared:
    """(extra arguments, files for the scratch copy) of what depends on the operator's files."""
    p = part(target)
    return p.prepare(host, real, copy) if p is not None else ([], {})


def argv(exe: str, r: Runner, extra: list[str]) -> list[str]:
    """The CLI's command line: its arguments, the extra ones, then its tail ({prompt} filled)."""
    fill = [a.replace("{prompt}", PROMPT) for a in r.args]
    return [exe, *fill, *extra, *[a.replace("{prompt}", PROMPT) for a in r.tail]]
