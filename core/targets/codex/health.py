"""Why agentdeck's hooks cannot run in OpenAI Codex CLI, beyond the shared reasons
(core/hooks_health.py): Codex skips hooks it has not trusted without a word (a hook this plan
trusts is fixed by it: its trust item is in `unless`), and hooks disabled in config.toml
[hooks.state] (enabled = false)."""
from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from ...host import Host

from ..parts.health import Inert


def reasons(host: "Host", hooks: dict, events: list[str]) -> list[Inert]:
    out: list[Inert] = []
    rows_ = [e for e in hooks.get("events") or [] if isinstance(e, dict)
             and e.get("registered_now") and e.get("trust_now") not in ("trusted", "managed")]
    untrusted = [str(e.get("event")) for e in rows_]
    fixes = [_trust_item_id(hooks, e) for e in rows_ if e.get("will_trust")]
    off = [str(e.get("event")) for e in hooks.get("events") or []
           if isinstance(e, dict) and e.get("registered_now") and e.get("enabled") is False]
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


def _trust_item_id(hooks: dict, event: dict) -> str:
    """The plan item id of the trust item (config.toml [hooks.state."<key>"] trusted_hash)."""
    from ...manifest import entry_id
    return entry_id(str(hooks.get("config")), "key",
                    ("hooks", "state", str(event.get("key")), "trusted_hash"))
