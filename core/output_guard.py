"""Literal credentials never leave agentdeck in a file others can read, nor in any output.

Three guards, each called from one place:

- `guard_state(state)` (engine, on every target's DesiredState): a generated text (a persona
  block, a skill, an agent, a hooks file, a committed policy) that is not written 0600 and holds
  a literal credential (core.secrets' table) is written with the credential redacted, and the
  plan says so in a warning. An executable (a hook wrapper naming a handler command that carries
  a token) cannot be redacted without breaking it: it is written 0700 instead of 0755, with a
  warning -- except in a repository, whose committed files git hands to everyone whatever their
  mode: there it is redacted (and the warning is an error).
- `check_profile_source(host, path)` (profiles, on each markdown file a profile contributes): a
  file that is a symlink to a private file (no group/other read bit, e.g. a 0600 secrets file)
  is refused with a one-line error instead of being copied into a 0644 SKILL.md or persona.
- `redact_output(value)`: what every rendering of a plan shows (the text plan and `--json`):
  one function, so both redact exactly alike.
"""
from __future__ import annotations

import re
import stat
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from .desired import DesiredState, Notice
from .errors import UserError
from .host import Host
from .kinds import kind_of
from .secrets import is_env_reference, redact, scan_text

if TYPE_CHECKING:
    from .secrets import SecretHit

#: modes that keep a file from everyone but its owner
_PRIVATE_BITS = 0o077


#: a value under one of these names is a credential unless it names one (`${VAR}`, `$VAR`, or an
#: environment variable's name such as Codex's `bearer_token_env_var = "GITHUB_TOKEN"`)
#: (header names spell words with "-": X-Api-Key, Private-Token, Authorization)
_SECRET_NAME = re.compile(r"(?i)PASSWORD|PASSWD|PASSPHRASE|SECRET|TOKEN|API[_-]?KEY|PRIVATE[_-]?KEY"
                          r"|ACCESS[_-]?KEY|AUTHORIZATION|COOKIE|CREDENTIAL")
_ENV_NAME = re.compile(r"[A-Z_][A-Z0-9_]*")


#: `"name": "value"` (JSON) or `name = "value"` (TOML) in a file's text, for the --diff texts
_NAMED_PAIR = re.compile(r"""(?P<head>(?<![A-Za-z0-9_.'"-])(?P<q>["']?)(?P<key>[A-Za-z0-9_.-]{1,200})(?P=q)[ \t]*[:=][ \t]*)"""
                         r"""(?P<vq>["'])(?P<val>(?:(?!(?P=vq))[^\\\n]|\\.){1,4096})(?P=vq)""")


def redact_named_text(text: str) -> str:
    """A config file's text with every literal value under a secret-sounding key replaced, as
    redact_output does for parsed values (a header `X-Api-Key = "..."` of no known shape)."""
    def sub(m: re.Match[str]) -> str:
        v = m.group("val")
        if (_SECRET_NAME.search(m.group("key")) and not is_env_reference(v)
                and not _ENV_NAME.fullmatch(v)):
            return f'{m.group("head")}{m.group("vq")}[REDACTED:named]{m.group("vq")}'
        whole: str = m.group(0)
        return whole
    return _NAMED_PAIR.sub(sub, text)


def redact_output(value: Any) -> Any:
    """The value as every rendering of a plan shows it (the text plan and --json alike): each
    credential shape of core.secrets' table redacted in every string, and a literal under a
    secret-sounding name (env DB_PASSWORD, args after no flag...) replaced whole. Names of
    environment variables stay readable."""
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if (isinstance(k, str) and isinstance(v, str) and v and _SECRET_NAME.search(k)
                    and not is_env_reference(v) and not _ENV_NAME.fullmatch(v)):
                out[k] = "[REDACTED:named]"
            else:
                out[k] = redact_output(v)
        return out
    if isinstance(value, (list, tuple)):
        return [redact_output(v) for v in value]
    if isinstance(value, str):
        return redact(value)
    return value


def _summary(hits: list[SecretHit]) -> str:
    kinds: list[str] = []
    for h in hits:
        label = f"{h.kind} ({h.excerpt})"
        if label not in kinds:
            kinds.append(label)
    return ", ".join(kinds)


def guard_state(state: DesiredState) -> DesiredState:
    """Redact (or, for an executable, make private) every generated text with a literal
    credential that would otherwise land in a file others can read. Changes `state` in place
    and returns it."""
    for item in state.items:
        kind = kind_of(item)
        if not kind.generated_text or not isinstance(item.value, str):
            continue
        if item.secret or item.own_source or (item.mode is not None
                                               and not item.mode & _PRIVATE_BITS):
            continue
        hits = scan_text(item.value)
        if not hits:
            continue
        what = item.label or str(item.path)
        found = _summary(hits)
        if kind.whole_file and item.mode is not None and item.mode & 0o111 \
                and state.target != "repo":
            item.mode = 0o700
            state.warn(f"{what}: literal credentials in the hook handler command ({found}); "
                       "the wrapper is written 0700 instead of 0755 -- take the credential from "
                       "the environment instead", str(item.path))
            continue
        item.value = redact(item.value)
        message = (f"{what}: literal credentials in the profile ({found}); written redacted, "
                   "never whole, to a file others can read -- take it from the environment")
        level: Literal["error", "warning"] = "error" if state.target == "repo" else "warning"
        state.notices.append(Notice(level, message, str(item.path)))
    return state


def check_profile_source(host: Host, path: Path) -> None:
    """Refuse a profile file that is a symlink to a private file (one-line error, file named)."""
    if not host.is_symlink(path):
        return
    mode = host.mode(path)          # the link's target
    if mode is not None and not mode & 0o044:
        raise UserError(f"is a symlink to a private file (mode {stat.filemode(mode | stat.S_IFREG)[1:]},"
                        f" {oct(mode)}); agentdeck will not copy it into a file others can read",
                        path=str(path))
