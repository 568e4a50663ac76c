"""Secrets in a CLI's files: literal credentials in config values, and secret-bearing files
(those, and the CLI's own token stores) readable by others."""
from __future__ import annotations

import stat
from pathlib import Path
from typing import Any

from ..parts.doctor import Context, Out
from ...wording import count_of


def literal_secrets(ctx: Context, out: Out, sources: list[tuple[Path, Any]]) -> list[Path]:
    """Report literal credentials in config values; returns the files that hold any."""
    from ...secrets import scan_text, scan_value

    holders: list[Path] = []
    for path, value in sources:
        hits = scan_text(value) if isinstance(value, str) else scan_value(value)
        if not hits:
            continue
        holders.append(path)
        desc = "; ".join(f"{h.where or 'text'}: {h.kind} ({h.excerpt})" for h in hits[:4])
        more = f" and {len(hits) - 4} more" if len(hits) > 4 else ""
        out.warning(f"{count_of(len(hits), 'literal credential')} in the file: {desc}{more}",
                    fix="take it from the environment instead (Codex: bearer_token_env_var / "
                        "env_vars; Copilot/Claude: an env reference where the CLI supports one), "
                        "and rotate it if this file was ever shared",
                    path=path)
    return holders


def file_modes(ctx: Context, out: Out, holders: list[Path], credential_files: list[Path]) -> None:
    """Secret-bearing files readable by others: world-readable is an error, group-readable a
    warning. `holders`: files with literal credentials; `credential_files`: the CLI's own token
    stores (only their mode is read, never their contents)."""
    seen: set[str] = set()
    for path, why in [(p, "holds a literal credential") for p in holders] + \
                     [(p, "is where the CLI keeps its login tokens") for p in credential_files]:
        if str(path) in seen or not ctx.host.is_file(path):
            continue
        seen.add(str(path))
        mode = ctx.host.mode(path)
        if mode is None:
            continue
        if mode & stat.S_IROTH:
            out.error(f"{ctx.show(path)} {why} and is world-readable (mode {mode:o})",
                      fix=f"chmod 600 {ctx.show(path)}", path=path)
        elif mode & stat.S_IRGRP:
            out.warning(f"{ctx.show(path)} {why} and is group-readable (mode {mode:o})",
                        fix=f"chmod 600 {ctx.show(path)}", path=path)
    if not out.findings:
        n = len(seen)
        out.ok(f"{count_of(n, 'secret-bearing file')}, none readable by others" if n else
               "no secret-bearing files")
