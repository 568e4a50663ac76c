"""What a plan would do to each file, as the file's text before and after apply.

`agentdeck plan --json --diff` adds this as the document's `files` (docs/plan-format.md); the
Ansible module (integrations/ansible) turns it into Ansible's diff mode. The new text is the
applier's own (apply.build_ops, computed in memory), so the preview cannot disagree with the
apply. Reads only: nothing is written, not even the copy apply keeps of a file it replaces for
the first time. Credentials are redacted in both texts (core/secrets.py).
"""
from __future__ import annotations

from pathlib import Path

from .apply import build_ops
from .host import Host
from .output_guard import redact_named_text
from .plan import Plan
from .secrets import redact_value


def _redact(text: str | None) -> str | None:
    return None if text is None else redact_named_text(redact_value(text))


def _text(data: bytes | None) -> str | None:
    return None if data is None else data.decode("utf-8", errors="replace")


def _on_disk(host: Host, path: Path) -> str | None:
    """What is at `path` now: its text, "symbolic link to <target>", or None when absent."""
    if host.is_symlink(path):
        return f"symbolic link to {host.readlink(path)}\n"
    return _text(host.read_bytes(path))


def file_changes(host: Host, plan: Plan) -> list[dict]:
    """One entry per file apply would change, in apply's order:
    {"path", "action" (write | delete | symlink | unlink), "before", "after"}; a text is None when
    the file is absent on that side."""
    ops, _ = build_ops(host, plan, keep_originals=False)
    out: list[dict] = []
    for op in ops:
        if op.removes and not host.real_confined(op.path):
            continue        # apply does not delete through a link out of the home either
        shown = Path(op.display) if op.display else op.path
        before = _on_disk(host, shown if op.on_link else op.path)
        after = op.after()
        out.append({"path": str(shown), "action": op.kind,
                    "before": _redact(before), "after": _redact(after)})
    return out
