"""Checks every target has (installed version, the plan's drift, manifests vs disk, another tool's
install, the tools the CLI offered that agentdeck does not know), registered for each target of
the registry. What the targets' own checks share is in core/targets/checks/.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from ..disk import DiskView
from ..errors import UserError
from ..facts import FACTS_BY_TARGET
from ..facts.versions import in_verified_range, verified_label
from ..kinds import kind_of
from ..policy import offered, vocabulary
from ..targets import dialects, registry
from ..targets.layers import layers as _layer_list
from ..targets.layers import switches
from ..targets.output import hooks_of
from .context import TARGETS, Ctx
from .registry import Out, register
from ..wording import count_of, noun_for

# ---- installed version ---------------------------------------------------------------------------


def _version(target: str):
    def fn(ctx: Ctx, out: Out) -> None:
        info = ctx.cli(target)
        if info.exe is None:
            out.skipped(info.note, fix=f"install it (npm install -g "
                                       f"{_facts(target).npm_package}) if you use it")
            return
        if info.version is None:
            out.skipped(info.note)
            return
        verified = verified_label(target)
        where = ctx.show(info.exe)
        if in_verified_range(target, info.version):
            out.ok(f"{_facts(target).binary} {info.version} ({where}); the doctor's facts were "
                   f"verified for {verified}")
        else:
            out.warning(f"{_facts(target).binary} {info.version} is outside the range the doctor's "
                        f"facts were verified for ({verified}): event names, keys and spellings "
                        "may have changed, so a clean report means less",
                        fix=f"pin {_facts(target).npm_package}@{_facts(target).verified_versions[1]}, "
                            "or re-check with `agentdeck doctor --live`, which asks the CLI itself")
    return fn


def _facts(target: str):
    return FACTS_BY_TARGET[target]


# ---- the plan's drift ----------------------------------------------------------------------------

def _labels(items, n: int = 4) -> str:
    names = [i.label or i.path for i in items]
    more = f" and {len(names) - n} more" if len(names) > n else ""
    return ", ".join(names[:n]) + more


def _plan(target: str):
    def fn(ctx: Ctx, out: Out) -> None:
        if ctx.adapter(target) is None:
            out.skipped(f"agentdeck has no {target} adapter in this build: nothing to compare with "
                        "the profile")
            return
        plan, err = ctx.plan(target)
        if err is not None:
            out.error(f"cannot compute the plan for profile {ctx.profile}: "
                      f"{getattr(err, 'msg', None) or err}",
                      fix="fix the file named (other checks here point at the problem), then "
                          "`agentdeck plan`", path=getattr(err, "path", None),
                      line=getattr(err, "line", None))
            return
        man, _ = ctx.manifest(target)
        installed = man is not None and bool(man.entries)
        items = plan.for_target(target)
        pending = [i for i in items if plan.action(i) in ("write", "remove")]
        conflicts = [i for i in items if i.cls == "conflict"]
        foreign = [i for i in items if i.cls == "foreign"]
        if pending and not installed:
            out.info(f"profile {ctx.profile} is not installed for {target}: "
                     f"{count_of(len(pending), 'item')} to add ({_labels(pending)})",
                     fix="review with `agentdeck plan`, then `agentdeck apply`")
        elif pending:
            out.warning(f"{count_of(len(pending), 'change')} pending: the files differ from what profile "
                        f"{ctx.profile} wants ({_labels(pending)})",
                        fix="review with `agentdeck plan`, then `agentdeck apply`")
        if conflicts:
            out.warning(f"{count_of(len(conflicts), 'conflict')}: changed by you and wanted differently by "
                        f"the profile ({_labels(conflicts)}); yours is kept until you decide",
                        fix="decide each with `agentdeck apply --keep ID` (yours stays) or "
                            "`--take ID` (the profile's wins); `agentdeck plan --verbose` lists "
                            "the ids")
        if foreign:
            out.info(f"{count_of(len(foreign), 'item')} {noun_for(len(foreign), 'exists and was', 'exist and were')} not written by agentdeck; kept as "
                     f"they are ({_labels(foreign)})",
                     fix="`agentdeck apply --take <id>` to let the profile's value win")
        if not (pending or conflicts or foreign):
            out.ok(f"in sync with profile {ctx.profile}" if installed else
                   f"profile {ctx.profile} wants nothing for {target}")
    return fn


def _takeover(target: str):
    """Another tool's install in this home (core/targets/takeover.py): taken over, or not yet."""
    def fn(ctx: Ctx, out: Out) -> None:
        if ctx.adapter(target) is None:
            out.skipped(f"agentdeck has no {target} adapter in this build")
            return
        plan, err = ctx.plan(target)
        if err is not None:
            out.skipped("the plan could not be computed (see the plan check)")
            return
        found = plan.output[target].found if target in plan.output else ()
        if not found:
            out.ok("no other tool's hook install found here")
            return
        by_id = {i.id: i for i in plan.for_target(target)}
        for f in found:
            pending, both = [], []
            for p in f.parts:
                it = by_id.get(p.item or "")
                if it is not None and (plan.action(it) != "none" or it.cls in ("conflict", "foreign")):
                    pending.append(p.what)
                elif p.fate == "kept" and p.what in ("hooks", "hooks file"):
                    both.append(p.note)
            if f.warning:
                out.warning(f"{f.title}: {f.warning}")
            if pending:
                out.warning(f"{f.title}; not taken over yet: {', '.join(pending)}",
                            fix="`agentdeck plan` shows the group (docs/migrating.md); `agentdeck "
                                "apply` carries it out (decide its persona with --keep/--take)")
            for note in both:
                out.warning(f"{f.title}: {note}")
            if not pending and not both:
                done = [p.what for p in f.parts if p.fate in ("set aside", "replaced")]
                out.ok(f"{f.title}; taken over" + (f" ({', '.join(done)})" if done else "")
                       + "; the rest is kept as it is")
    return fn


# ---- manifests vs disk ---------------------------------------------------------------------------

def _manifest(target: str):
    def fn(ctx: Ctx, out: Out) -> None:
        ad = ctx.adapter(target)
        if ad is None:
            out.skipped(f"agentdeck has no {target} adapter in this build")
            return
        man, err = ctx.manifest(target)
        path = ad.manifest_path(ctx.host)
        if err is not None:
            out.error(getattr(err, "msg", None) or str(err), path=path,
                      line=getattr(err, "line", None),
                      fix="move the manifest aside and re-run `agentdeck apply` (it re-adopts "
                          "what already matches the profile)")
            return
        if man is None or not man.entries:
            out.ok("agentdeck has written nothing here (no manifest)")
            return

        disk = DiskView(ctx.host)
        # what apply writes back by default (agentdeck's own files, a lost mode): not "kept"
        plan, perr = ctx.plan(target)
        items = {} if perr is not None else {i.id: i for i in plan.for_target(target)}
        changed: list[str] = []
        restored: list[str] = []
        deleted: list[str] = []
        unreadable: list[tuple[Any, UserError]] = []
        for eid, e in man.entries.items():
            try:
                _, afp = kind_of(e).read_actual(disk, e)
            except UserError as bad:
                unreadable.append((e, bad))
                continue
            label = e.label or ctx.show(e.path) or str(e.path)
            it = items.get(eid)
            writes = it is not None and plan.action(it) == "write"
            if afp is None:
                (restored if writes else deleted).append(label)
            elif afp != e.fingerprint:
                (restored if writes else changed).append(label)
        if restored:
            out.info(f"{count_of(len(restored), 'item')} changed or deleted since agentdeck wrote them "
                     f"({_short(restored)}); the plan writes them back (agentdeck's own)",
                     fix="`agentdeck plan` shows each; `agentdeck apply` writes them back",
                     path=path)
        for e, ue in unreadable:
            out.warning(f"cannot compare {e.label or ctx.show(e.path)} with the manifest: "
                        f"{getattr(ue, 'msg', ue)}", path=getattr(ue, "path", None) or e.path,
                        line=getattr(ue, "line", None))
        if changed:
            out.info(f"{count_of(len(changed), 'item')} changed on disk since agentdeck wrote them "
                     f"({_short(changed)}); kept as you left them",
                     fix="`agentdeck plan` shows each; `agentdeck apply --take <id>` restores one",
                     path=path)
        if deleted:
            out.info(f"{count_of(len(deleted), 'item')} deleted since agentdeck wrote them "
                     f"({_short(deleted)}); not re-added",
                     fix="`agentdeck apply --take <id>` writes one again", path=path)
        if not (changed or restored or deleted or unreadable):
            out.ok(f"all {count_of(len(man.entries), 'recorded item')} on disk as agentdeck wrote them",
                   path=path)
    return fn


# ---- the tools the CLI offers its model -----------------------------------------------------------

def _tools(target: str):
    """The tool names the CLI offered its model in the last drill of its version (the record
    core/policy/offered.py keeps) that its vocabulary does not know: such a tool is judged as
    an unknown one (strictly only when it is given a command or a path)."""
    def fn(ctx: Ctx, out: Out) -> None:
        mod = dialects.module(target)
        binary = registry.spec(target).binary
        if not registry.spec(target).guarded:
            out.skipped("agentdeck installs no guard in this CLI: it sees none of its tool calls")
            return
        if mod is None:
            out.skipped(f"agentdeck has no {target} dialect in this build: no vocabulary")
            return
        _, why = offered.load(ctx.host)
        if why:
            out.warning(f"cannot read the record of the tools each CLI offered: {why}",
                        fix="run `agentdeck drill`: it records them again",
                        path=offered.path(ctx.host))
            return
        installed = ctx.cli(target).version
        got = offered.entry(ctx.host, target, installed)
        if got is None:
            out.ok(f"nothing to compare: no drill has recorded the tools {binary} offers its "
                   "model (`agentdeck drill` records them)")
            return
        version, rec = got
        checked = getattr(mod, "TOOLS_VERIFIED", None) or "an unknown version"
        when = str(rec.get("recorded") or "an unknown time")[:10]
        stale = (f"; the record is of {version}, you have {installed} (`agentdeck drill` "
                 "records this one)" if installed and version != installed else "")
        unknown = vocabulary.unknown(vocabulary.vocabulary([mod]), rec["tools"])
        if unknown:
            out.warning(f"{binary} {version} offered its model {count_of(len(unknown), 'tool')} agentdeck "
                        f"does not know: {_short(unknown, 12)} (drill of {when}){stale}; an "
                        "unknown tool is judged strictly only when it is given a command or a "
                        "path, so a rule may not see what it does",
                        fix=f"update agentdeck (its {target} vocabulary was checked on "
                            f"{binary} {checked}); meanwhile a rule with tool = \"any\" sees "
                            "these calls", path=offered.path(ctx.host))
        else:
            out.ok(f"every tool {binary} {version} offered its model ({len(rec['tools'])}, "
                   f"drill of {when}) is in agentdeck's vocabulary{stale}")
    return fn


def _short(names: list[str], n: int = 4) -> str:
    more = f" and {len(names) - n} more" if len(names) > n else ""
    return ", ".join(names[:n]) + more


# ---- files that switch the hooks off --------------------------------------------------------------

def _layers(target: str):
    """Each layer of the target (core/targets/layers.py) that exists now, in its home or for a
    session started in the working folder, and holds what undoes agentdeck's hooks."""
    def fn(ctx: Ctx, out: Out) -> None:
        for path, layer, found in switches(ctx.host, target):
            out.error(f"{ctx.show(path)} sets {', '.join(found)}: {layer.what} (verified for "
                      f"{layer.verified}, {layer.how})",
                      fix="remove it from that file (agentdeck's self-protection keeps an agent "
                          "from writing it; a person or another program wrote it)", path=path)
    return fn


# ---- agentdeck's hooks removed since the last apply ----------------------------------------------

def _removed(target: str):
    """agentdeck's hooks the last apply registered and that are gone now, kept as the
    operator's edit (core/hooks_health.py removed): they do not run."""
    def fn(ctx: Ctx, out: Out) -> None:
        from ..hooks_health import inert   # local: loads with the plan it reads

        plan, _ = ctx.plan(target)
        if plan is None:
            out.skipped("no plan (its error is the plan check's)")
            return
        hooks = hooks_of(plan.output, target)
        for i in inert(plan, target, now=True):
            if i.code == "removed":
                out.error(i.reason, fix=i.fix, path=hooks.file if hooks is not None else None)
    return fn


for _t in TARGETS:
    register(f"{_t}.version", _t, _version(_t), ok="", needs_home=False)
    if registry.spec(_t).guarded:
        register(f"{_t}.hooks.removed", _t, _removed(_t),
                 ok="none of agentdeck's hooks was removed since the last apply",
                 needs_home=False)
    if any(layer.report for layer in _layer_list(_t)):
        register(f"{_t}.hooks.layers", _t, _layers(_t),
                 ok="no settings or .env file switches agentdeck's hooks off", needs_home=False)
    register(f"{_t}.plan", _t, _plan(_t), ok="", needs_home=False)
    register(f"{_t}.manifest", _t, _manifest(_t), ok="", needs_home=False)
    register(f"{_t}.tools.offered", _t, _tools(_t), ok="", needs_home=False)
    if registry.has_part(_t, "takeover"):      # only where a known tool installs itself
        register(f"{_t}.takeover", _t, _takeover(_t), ok="", needs_home=False)
