"""Why agentdeck's hooks cannot run in OpenAI Codex CLI, beyond the shared reasons
(core/hooks_health.py): Codex skips hooks it has not trusted without a word (a hook this plan
trusts is fixed by it: its trust item is in `unless`), and hooks disabled in config.toml
[hooks.state] (enabled = false)."""
from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from ..output import HookEventInfo, HooksInfo
    from ...host import Host

from ..parts.health import Inert


def reasons(host: "Host", hooks: "HooksInfo", events: list[str]) -> list[Inert]:
    out: list[Inert] = []
    rows_ = [e for e in hooks.registered() if e.trust_now not in ("trusted", "managed")]
    untrusted = [e.event for e in rows_]
    fixes = [_trust_item_id(hooks, e) for e in rows_ if e.will_trust]
    off = [e.event for e in hooks.registered() if not e.enabled]
    if untrusted:
        n, total = len(untrusted), len(events)
        which = (f"none of agentdeck's {total} hooks is trusted" if n == total else
                 f"{n} of agentdeck's {total} hooks are not trusted ({', '.join(untrusted)})")
        out.append(Inert("codex-untrusted", f"Codex skips untrusted hooks and {which}",
                         "`agentdeck apply --trust-hooks`", untrusted,
                         unless=fixes if len(fixes) == len(rows_) else []))
    if off:
        out.append(Inert("codex-disabled", f"{', '.join(off)} disabled in config.toml "
                                           "[hooks.state] (enabled = false)",
                         "remove enabled = false from those [hooks.state] entries", off))
    return out


def _trust_item_id(hooks: "HooksInfo", event: "HookEventInfo") -> str:
    """The plan item id of the trust item (config.toml [hooks.state."<key>"] trusted_hash)."""
    from ...manifest import entry_id
    return entry_id(hooks.config, "key", ("hooks", "state", event.key, "trusted_hash"))
