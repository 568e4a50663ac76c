"""What the targets' live comparisons share (core/targets/<name>/probes.py `compare`): a probe
that gave no answer, the seconds it took, a CLI's message as one line with the home as `~`."""
from __future__ import annotations

import re

from ..parts.doctor import Context, Out


def settings_loaded(ctx: Context, out: Out, res, what: str, title: str, fix: str,
                    by_hand: str) -> None:
    """The settings probe's answer (probing.cannot_read's data): the file the CLI said it
    cannot read (an error: `fix`), any other failure (`by_hand`), or that it loads them."""
    if unavailable(res, out, what):
        return
    data = res.data if isinstance(res.data, dict) else {}
    problem = data.get("problem")
    if isinstance(problem, dict):
        f = str(problem.get("file") or "").rstrip(":")
        out.error(f"{title} cannot read {tilde(ctx, f)}: {tilde(ctx, str(problem.get('why')))}; "
                  "it stops every run until the file is fixed", fix=fix, path=f or None)
    elif not res.ok:
        out.error(f"{title} did not load its settings ({res.error}): "
                  f"{tilde(ctx, str(data.get('output') or ''))}", fix=by_hand)
    else:
        out.ok(f"{title} loads its settings ({seconds(res)})")


def unavailable(res, out: Out, what: str) -> bool:
    """Report a probe that gave no answer; True when there is nothing to compare."""
    if res is None:
        out.skipped(f"{what}: not run")
        return True
    if res.skipped_reason:
        out.skipped(res.skipped_reason)
        return True
    if not res.ok and res.data is None:
        out.warning(f"could not ask the CLI ({what}): {res.error}",
                    fix="run the command by hand to see why")
        return True
    return False


def seconds(res) -> str:
    return f"{res.seconds:.1f}s"


_MAX_CLI_TEXT = 300


def tilde(ctx: Context, text: str) -> str:
    """A CLI's message for the table: one line, absolute paths under the home shown as ~, and
    cut at a readable length (long enumerations such as "Valid events: ...")."""
    h = str(ctx.host.home)
    text = re.sub(re.escape(h) + r"(?=/|\b)", "~", " ".join(text.split()))
    return text if len(text) <= _MAX_CLI_TEXT else text[:_MAX_CLI_TEXT - 1].rstrip() + "…"
