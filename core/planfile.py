"""`apply --plan FILE` / `uninstall --plan FILE`: apply only the plan a reviewer (or a program such
as the Ansible module) saw, as the `plan --json` document it kept.

The plan is computed again, with the same flags and decisions, and must be that document: the
same home, profile, targets and mode, the same inputs (each file's sha256) and the same items
(class, decision, action and values). Otherwise apply refuses as for a stale plan and writes
nothing. The applier's own check (apply.check_fresh, under the home's lock) then covers the time
between this comparison and the writes.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from .errors import StalePlanError, UserError
from .host import Host
from .plan import Plan, dumps


def read_document(host: Host, where: str) -> dict:
    """The plan document in file `where` ("-": standard input)."""
    if where == "-":
        text = sys.stdin.read()
    else:
        data = host.read_bytes(Path(where))
        if data is None:
            raise UserError(f"--plan {where} does not exist")
        text = data.decode("utf-8", errors="replace")
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        raise UserError(f"--plan {where}: not a `plan --json` document ({e.msg} at line "
                        f"{e.lineno}:{e.colno})") from None
    if not isinstance(doc, dict) or doc.get("format") != 1 or not isinstance(doc.get("items"), list):
        raise UserError(f"--plan {where}: not a `plan --json` document (format 1)")
    return doc


def _difference(host: Host, saw: dict, now: dict) -> str | None:
    for field in ("home", "mode", "profile", "targets"):
        if saw.get(field) != now.get(field):
            return f"its {field} was {saw.get(field)!r}, now {now.get(field)!r}"
    s_in, n_in = saw.get("inputs") or {}, now.get("inputs") or {}
    for path in sorted(set(s_in) | set(n_in)):
        if s_in.get(path, "?") != n_in.get(path, "?"):
            return f"{host.display(path)} changed on disk since that plan was computed"
    s_items = {i.get("id"): i for i in saw["items"] if isinstance(i, dict)}
    n_items = {i["id"]: i for i in now["items"]}
    for iid in list(n_items) + [i for i in s_items if i not in n_items]:
        a, b = s_items.get(iid), n_items.get(iid)
        if a == b:
            continue
        label = (b or a or {}).get("label") or iid
        if a is None or b is None:
            return f"{label} is {'new in' if a is None else 'gone from'} the plan"
        fields = [k for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)]
        return f"{label}: {', '.join(fields)} differ"
    if [i.get("id") for i in saw["items"]] != list(n_items):
        return "its items are in another order"
    return None


def check_same(host: Host, plan: Plan, where: str) -> None:
    """Raise StalePlanError unless `plan` (with its decisions) is the document in `where`."""
    saw = read_document(host, where)
    now = json.loads(dumps(plan))     # the very form `plan --json` prints
    why = _difference(host, saw, now)
    if why:
        raise StalePlanError(f"the plan computed now is not the one in {where}: {why}; nothing "
                             "was written. Compute the plan again and review it.")
