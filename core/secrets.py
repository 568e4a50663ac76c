"""Find literal credentials in text and config values, and redact them.

Pure functions, no I/O, and nothing imported beyond `re`: the hook handler runs this on every
hook call. A pattern is one row of `PATTERNS` (`_ROWS`, compiled on first use); when it has a
group named `secret`, only that group is the credential (the `Bearer ` or `aws_secret_access_key=` before it stays readable).
"""
from __future__ import annotations

import re

TYPE_CHECKING = False   # (not typing's: the hook handler imports this module on every call)
if TYPE_CHECKING:
    from dataclasses import dataclass
    from typing import Any

    @dataclass(frozen=True)
    class SecretHit:        # the class _secret_hit() makes at run time, as mypy should see it
        kind: str
        where: str
        excerpt: str

#: (kind, regex). Earlier rows win where two matches overlap, so specific kinds come before the
#: generic ones (a GitHub token inside `Bearer ...` or a URL is reported as github_token).
#: Compiled on first use (see _LITERALS): `PATTERNS` is this table with each regex compiled.
_ROWS: tuple[tuple[str, str], ...] = (
    ("private_key",
     r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----[\s\S]*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----|\Z)"),
    ("github_token", r"(?<![A-Za-z0-9_])gh[pousr]_[A-Za-z0-9]{36,255}(?![A-Za-z0-9_])"),
    ("github_pat", r"(?<![A-Za-z0-9_])github_pat_[A-Za-z0-9_]{36,255}(?![A-Za-z0-9_])"),
    ("anthropic_key", r"(?<![A-Za-z0-9_-])sk-ant-[A-Za-z0-9_-]{20,}"),
    # sk-, optional project/service prefix, then a run that must contain a digit: "sk-" inside
    # words ("task-list", "risk-free") is cut off by the look-behind, long hyphenated words by
    # the digit.
    ("openai_key",
     r"(?<![A-Za-z0-9_-])sk-(?:proj-|svcacct-|admin-)?(?=[A-Za-z_-]*[0-9])[A-Za-z0-9_-]{20,}"),
    ("google_api_key", r"(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])"),
    ("aws_access_key_id", r"(?<![A-Z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Z0-9])"),
    ("aws_secret_access_key",
     r"(?i:aws_?secret_?access_?key|aws_?secret_?key|secret_?access_?key)[\"']?\s*[:=]\s*[\"']?"
     r"(?P<secret>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])"),
    ("slack_webhook", r"https://hooks\.slack\.com/services/[A-Za-z0-9_/-]{20,}"),
    ("slack_token", r"(?<![A-Za-z0-9])xox[abprs]-[A-Za-z0-9-]{10,}"),
    ("jwt", r"(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{7,}\.[A-Za-z0-9_-]{7,}\.[A-Za-z0-9_-]{7,}"),
    # A literal token (not $VAR / ${VAR}) of 16+ chars with at least one capital or digit, so
    # "Bearer authentication-schemes" in prose is not one.
    ("bearer_token",
     r"\b[Bb]earer[ \t]+(?P<secret>(?=[a-z._~+/-]*[A-Z0-9])[A-Za-z0-9._~+/-]{16,}=*)"),
    ("url_credentials",
     r"(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]*://[^\s:/@$]+:(?P<secret>[^\s/@$]+)@"),
    # GitLab personal / deploy / runner / project-trigger tokens: glpat-<20+>
    ("gitlab_token", r"(?<![A-Za-z0-9_-])gl(?:pat|dt|rt|ptt)-[A-Za-z0-9_-]{20,}(?:\.[A-Za-z0-9_.-]+)?"),
    # Stripe secret and restricted keys, live and test
    ("stripe_key", r"(?<![A-Za-z0-9_])(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}"),
    ("huggingface_token", r"(?<![A-Za-z0-9_])hf_[A-Za-z0-9]{30,}(?![A-Za-z0-9_])"),
    ("npm_token", r"(?<![A-Za-z0-9_])npm_[A-Za-z0-9]{36}(?![A-Za-z0-9_])"),
    # a literal value after a credential flag (`--password X`, `--token=X`), not `$VAR`, not
    # `--password-stdin`; quoted values lose their quotes' content only
    ("password_flag",
     r"(?<![A-Za-z0-9_-])--(?:password|passwd|pass|token|api-key|apikey|secret|client-secret)"
     r"(?:=|[ \t]+)[\"']?(?P<secret>[^\s\"'$-][^\s\"']{0,255})"),
    # curl/wget-style `-u user:pass`, `--user user:pass`, `-uuser:pass` (not `-u 1000:1000`)
    ("user_password",
     r"(?<![A-Za-z0-9_-])(?:-u[ \t]*|--user(?:=|[ \t]+))[\"']?[^\s:\"'@$]{1,128}:"
     r"(?P<secret>(?![0-9]+(?![^\s\"']))[^\s\"'$][^\s\"']{0,255})"),
)

#: kind -> strings of which every match contains at least one. A row whose strings are all
#: absent from the text cannot match there, so it is neither compiled nor searched: the hook
#: handler, which redacts every event, compiles the regexes (~1.5 ms) only when a text could
#: hold such a credential. Kinds not listed (the case-insensitive AWS secret) are always searched.
_LITERALS: dict[str, tuple[str, ...]] = {
    "private_key": ("-----BEGIN ",),
    "github_token": ("ghp_", "gho_", "ghu_", "ghs_", "ghr_"),
    "github_pat": ("github_pat_",),
    "anthropic_key": ("sk-ant-",),
    "openai_key": ("sk-",),
    "google_api_key": ("AIza",),
    "aws_access_key_id": ("AKIA", "ASIA"),
    "slack_webhook": ("https://hooks.slack.com/services/",),
    "slack_token": ("xox",),
    "jwt": ("eyJ",),
    "bearer_token": ("earer",),
    "url_credentials": ("://",),
    "gitlab_token": ("glpat-", "gldt-", "glrt-", "glptt-"),
    "stripe_key": ("k_live_", "k_test_"),
    "huggingface_token": ("hf_",),
    "npm_token": ("npm_",),
    "password_flag": ("--pass", "--token", "--api", "--secret", "--client-secret"),
    "user_password": ("-u",),
}
_COMPILED: dict[str, re.Pattern[str]] = {}
_SCREENED = tuple((kind, rx, _LITERALS.get(kind)) for kind, rx in _ROWS)


def _rx(kind: str, rx: str) -> re.Pattern[str]:
    p = _COMPILED.get(kind)
    if p is None:
        p = _COMPILED[kind] = re.compile(rx)
    return p

#: dict keys whose plain 40-char value is an AWS secret even with no name next to it in the text
_AWS_SECRET_NAME = re.compile(r"(?i)^(?:aws_?)?secret_?(?:access_?)?key$")
_AWS_SECRET_VALUE = re.compile(r"[A-Za-z0-9/+]{40}")
#: `${VAR}`, `$VAR`, and OpenCode's `{env:VAR}` (docs/facts/opencode.md section 1)
_ENV_REF = re.compile(r"\$\{[A-Za-z_][A-Za-z0-9_]*+(?::?[-=?+][^}]{0,256})?\}|\$[A-Za-z_][A-Za-z0-9_]*+"
                      r"|\{env:[A-Za-z_][A-Za-z0-9_]*+\}")


def _secret_hit() -> type[SecretHit]:
    """SecretHit, a frozen dataclass (kind, where, excerpt: first 4 chars + "…", never the whole
    secret), made on first use: importing dataclasses would cost the hook handler, which only
    redacts, ~6 ms on every call. `from core.secrets import SecretHit` works as before."""
    cls: type[SecretHit] | None = globals().get("SecretHit")
    if cls is None:
        from dataclasses import dataclass   # local: the hook handler never makes a hit

        class SecretHit:    # the run-time form of the declaration above
            kind: str
            where: str
            excerpt: str  # redacted: first 4 chars + "…", never the whole secret

        SecretHit.__qualname__ = SecretHit.__name__
        SecretHit.__module__ = __name__
        cls = globals()["SecretHit"] = dataclass(frozen=True)(SecretHit)
    return cls


def __getattr__(name: str) -> Any:
    if name == "PATTERNS":   # ((kind, compiled regex), ...), in the order of _ROWS
        return tuple((kind, _rx(kind, rx)) for kind, rx in _ROWS)
    if name == "SecretHit":
        return _secret_hit()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _excerpt(secret: str) -> str:
    return secret[:4] + "…"


def _spans(s: str) -> list[tuple[int, int, str]]:
    """(start, end, kind) of every credential in s, non-overlapping, in text order."""
    taken: list[tuple[int, int, str]] = []
    for kind, src, lits in _SCREENED:
        if lits is not None:
            for lit in lits:
                if lit in s:
                    break
            else:
                continue      # no literal of this kind in s: it cannot match
        rx = _COMPILED.get(kind) or _rx(kind, src)
        for m in rx.finditer(s):
            g = "secret" if "secret" in rx.groupindex else 0
            start, end = m.span(g)
            if not any(start < e and b < end for b, e, _ in taken):
                taken.append((start, end, kind))
    return sorted(taken)


def scan_text(s: str, where: str = "") -> list[SecretHit]:
    spans = _spans(s)
    if not spans:       # no hit: SecretHit is not made (a dataclass costs every plan ~2.5 M instructions)
        return []
    hit = _secret_hit()
    return [hit(kind, where, _excerpt(s[b:e])) for b, e, kind in spans]


def redact(s: str) -> str:
    """s with every detected credential replaced by "[REDACTED:<kind>]"."""
    out, pos = [], 0
    for b, e, kind in _spans(s):
        out += [s[pos:b], f"[REDACTED:{kind}]"]
        pos = e
    out.append(s[pos:])
    return "".join(out)


def _named_secret(key: object, value: str) -> str | None:
    """The kind of a value that is a secret because of the key it sits under."""
    if isinstance(key, str) and _AWS_SECRET_NAME.match(key) and _AWS_SECRET_VALUE.fullmatch(value):
        return "aws_secret_access_key"
    return None


def _join(where: str, key: object) -> str:
    if isinstance(key, int):
        return f"{where}[{key}]"
    return f"{where}.{key}" if where else str(key)


def scan_value(value: Any, where: str = "") -> list[SecretHit]:
    """Every credential in a JSON/TOML-like value; `where` grows into a dotted path."""
    if isinstance(value, dict):
        hits: list[SecretHit] = []
        for k, v in value.items():
            path = _join(where, k)
            kind = _named_secret(k, v) if isinstance(v, str) else None
            hits += [_secret_hit()(kind, path, _excerpt(v))] if kind else scan_value(v, path)
        return hits
    if isinstance(value, (list, tuple)):
        return [h for i, v in enumerate(value) for h in scan_value(v, _join(where, i))]
    if isinstance(value, str):
        return scan_text(value, where)
    return []


#: names under which any value is treated as a secret when REDACTING (the audit log): over-
#: redacting there is safe. The scanner (scan_value) does not use this: it flags shapes only.
_SECRETISH_NAME = re.compile(
    r"(?i)(pass(?:word|wd|phrase)?|secret|token|api[_-]?key|apikey|private[_-]?key|credential"
    r"|access[_-]?key|session[_-]?key|authorization|cookie)")
#: NAME=value where NAME contains a secret word. Linear: the name is one possessive run of word
#: characters (no backtracking into it: the old `\w*(?:TOKEN|...)\w*=` was quadratic on a long
#: run of word characters, ~20 s on 100 kB), and the secret word is checked afterwards.
_ASSIGN = re.compile(r"(?<![A-Za-z0-9_])([A-Za-z0-9_]++)=(?!\$)(\"[^\"]{0,4096}\"|'[^']{0,4096}'|[^\s;&|]++)")
_SECRET_WORD = re.compile(r"(?i)PASSWORD|PASSWD|SECRET|TOKEN|API_?KEY|PRIVATE_KEY|ACCESS_KEY")


def _redact_assign(m: re.Match[str]) -> str:
    return f"{m.group(1)}=[REDACTED:named]" if _SECRET_WORD.search(m.group(1)) else m.group(0)


def _redact_named(key: object, value: str) -> str | None:
    """The redaction kind for a value that is secret because of the name it sits under."""
    kind = _named_secret(key, value)
    if kind:
        return kind
    if (isinstance(key, str) and value and _SECRETISH_NAME.search(key)
            and not is_env_reference(value)):
        return "named"
    return None


def redact_value(value: Any) -> Any:
    """A copy of a JSON-like value with `redact` applied to every string (keys included), and
    any value under a secret-sounding name (password, api_key, *_TOKEN, X-Api-Key...) replaced."""
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            kind = _redact_named(k, v) if isinstance(v, str) else None
            out[redact(k) if isinstance(k, str) else k] = (
                f"[REDACTED:{kind}]" if kind else redact_value(v))
        return out
    if isinstance(value, (list, tuple)):
        return [redact_value(v) for v in value]
    if isinstance(value, str):
        return _ASSIGN.sub(_redact_assign, redact(value))
    return value


def is_env_reference(s: str) -> bool:
    """True when s takes its credential from the environment (`${VAR}`, `$VAR`, OpenCode's
    `{env:VAR}`, e.g. "Bearer ${GITHUB_TOKEN}") and holds no literal credential besides."""
    return bool(_ENV_REF.search(s)) and not _spans(s)
