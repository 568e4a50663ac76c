"""The shape shared by the per-CLI facts, and the version logic around them.

Every fact is true of a version, not of a product: each target's facts carry the inclusive range
of CLI versions they were verified against (`verified_versions`), so the doctor can say
"verified for 1.0.102, you have 1.0.110" instead of silently trusting stale knowledge.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import ClassVar, TYPE_CHECKING, Mapping

if TYPE_CHECKING:  # pragma: no cover
    from agentdeck.core.host import Host

#: Our canonical hook vocabulary; each target maps it to its own spelling (or None).
CANONICAL_EVENTS: tuple[str, ...] = (
    "session_start", "session_end", "user_prompt_submit", "pre_tool_use", "post_tool_use",
    "post_tool_use_failure", "permission_request", "stop", "subagent_start", "subagent_stop",
    "pre_compact", "notification", "error",
)


def frozen_map(d: Mapping) -> Mapping:
    """A read-only mapping for facts held in frozen dataclasses."""
    return MappingProxyType(dict(d))


_NONE: Mapping = MappingProxyType({})


@dataclass(frozen=True)
class CliFacts:
    """What every target's facts record. Target modules subclass this with their own facts:
    the ones the subclass itself states (a default) as ClassVar constants, the ones its one
    instance is given as fields (each dataclass field adds to the code the decorator generates
    and compiles at every start-up: Copilot's 51 fields cost ~11 M instructions per command)."""
    target: str                       # "copilot" | "codex" | "claude"
    binary: str                       # executable name looked up on the host's PATH
    npm_package: str
    verified_versions: tuple[str, str]  # (min, max), inclusive
    version_regex: str                # group 1 is the version, searched in `--version` output
    home_env: str                     # env var that replaces the whole home path
    home_dirname: str                 # default home under $HOME
    # the hook facts: a CLI agentdeck's guard reaches another way (a plugin) or not at all
    # (TargetSpec.enforcement) keeps the defaults, "no hooks"
    hook_events: tuple[str, ...] = ()      # event keys accepted in hook config
    matcher_events: tuple[str, ...] = ()   # events whose matcher is honoured (others drop it)
    timeout_key: str = ""                  # the spelling that works
    timeout_aliases: tuple[str, ...] = ()  # other spellings the CLI also accepts
    wrong_timeout_keys: tuple[str, ...] = ()  # spellings silently ignored (the default then applies)
    default_timeout_sec: float | None = None  # None: no timeout at all
    event_default_timeouts: Mapping[str, float] = field(default_factory=lambda: _NONE)  # per-event
    canonical_events: Mapping[str, str | None] = field(default_factory=lambda: _NONE)  # -> spelling
    #: for a CLI with a `disableAllHooks` setting: whether `true` really stops the user's hooks
    #: (observed in a real turn; Copilot CLI 1.0.102 overrides it: it does not)
    disable_all_stops_user_hooks: ClassVar[bool] = True
    #: canonical event -> more events of this CLI that agentdeck registers with it and the
    #: handler decides as it (each observed in a real turn): Claude Code runs a skill's own
    #: `!command` lines under PreSkillShellCommand, a pre-tool call of its shell tool that
    #: PreToolUse never sees
    also_events: ClassVar[Mapping[str, tuple[str, ...]]] = MappingProxyType({})
    #: the environment files the CLI loads into its own environment at start, which every hook
    #: it runs inherits (relative to its home, or `**/<rel>` in the working folder and its
    #: parents): a variable set there reaches agentdeck's wrapper, so the wrapper trusts none of
    #: them (core/targets/wrapper.py: it sets every variable it needs and clears every one that
    #: changes which code the handler runs). A project's plain .env stays writable for an agent.
    env_files: ClassVar[tuple[str, ...]] = ()

    def event_name(self, canonical: str) -> str | None:
        if canonical not in CANONICAL_EVENTS:
            raise KeyError(f"not a canonical event: {canonical!r}")
        return self.canonical_events.get(canonical)

    def default_timeout(self, event: str) -> float | None:
        return self.event_default_timeouts.get(event, self.default_timeout_sec)


# ---- versions --------------------------------------------------------------------------------
_VERSION = re.compile(r"(\d+(?:\.\d+)*)")


def parse_version(text: str) -> tuple[int, ...]:
    """The first dotted number in `text` as a tuple: "GitHub Copilot CLI 1.0.102." -> (1, 0, 102),
    "v0.171.0" -> (0, 171, 0). A pre-release suffix is ignored. Raises ValueError when there is
    no number at all."""
    m = _VERSION.search(text or "")
    if not m:
        raise ValueError(f"no version number in {text!r}")
    return tuple(int(p) for p in m.group(1).split("."))


def _cmp_key(v: tuple[int, ...], width: int) -> tuple[int, ...]:
    return v + (0,) * (width - len(v))


_BY_TARGET: dict[str, CliFacts] = {}


def facts_by_target() -> dict[str, CliFacts]:
    """Every registered target's facts (its package's `facts` part): one dict, made once (the
    facts package's FACTS_BY_TARGET is this dict)."""
    if not _BY_TARGET:
        # local: the org layer's handler copy (core/org/handler.py) takes facts' module-level
        # imports with it; the registry and the target packages are no part of the handler
        from ..targets import registry
        _BY_TARGET.update((n, registry.part(n, "facts").FACTS) for n in registry.NAMES)
    return _BY_TARGET


def _facts(target: str) -> CliFacts:
    table = facts_by_target()
    try:
        return table[target]
    except KeyError:
        raise KeyError(f"unknown target {target!r}; known: {', '.join(table)}") from None


def parse_cli_version(target: str, output: str) -> str | None:
    """The version in a target's `--version` output, per that target's pattern (None if absent).
    Copilot: "GitHub Copilot CLI 1.0.102." (+ "Run 'copilot update' ..." on a second line);
    Codex: "codex-cli 0.171.0"; Claude: "2.1.332 (Claude Code)"."""
    m = re.search(_facts(target).version_regex, output or "", re.MULTILINE)
    return m.group(1) if m else None


def cli_version(host: "Host", target: str, timeout: float = 20.0) -> str | None:
    """Run `<cli> --version` through the host (under a timeout) and parse it. None when the CLI
    is not installed, does not answer in time, or prints something unrecognisable."""
    facts = _facts(target)
    exe = host.which(facts.binary)
    if exe is None:
        return None
    res = host.run([exe, "--version"], timeout=timeout)
    if res.timed_out:
        return None
    return parse_cli_version(target, f"{res.stdout}\n{res.stderr}")


def in_verified_range(target: str, version: str) -> bool:
    """True when `version` lies inside the range the target's facts were verified for."""
    lo, hi = (parse_version(v) for v in _facts(target).verified_versions)
    try:
        v = parse_version(version)
    except ValueError:
        return False
    width = max(len(lo), len(hi), len(v))
    return _cmp_key(lo, width) <= _cmp_key(v, width) <= _cmp_key(hi, width)


def verified_label(target: str) -> str:
    """ "1.0.102" or "1.0.100–1.0.102", for messages like "verified for 1.0.102, you have 1.0.110"."""
    lo, hi = _facts(target).verified_versions
    return lo if lo == hi else f"{lo}–{hi}"
