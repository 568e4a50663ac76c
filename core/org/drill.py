"""`agentdeck org drill`: prove the org layer holds against the user it is meant to hold against.

As root, for each chosen CLI whose org layer is installed and in sync:
  1. a scratch home in /tmp (root's folder 0755, the user's parts handed to the user) that
     first tries to switch the org layer off the ways a user can that the layer was observed
     to hold against (each target's org part, drill_attempts(): files in the home and a
     project's in the turn's folder, disableAllHooks,
     an extra user hook that answers allow, Codex features.hooks = false and untrusted hooks,
     flags that bypass permissions, approvals and hook trust);
  2. as the user (setpriv), opening the org layer's files for writing (the compiled policy,
     the handler entry, the CLI's managed file) and adding a file of the user's own beside the
     managed file -- each must be refused by the file system (nothing is written);
  3. one real offline turn of the CLI as the user (setpriv; agentdeck's scripted model server,
     inside `unshare -n` where the kernel allows it, as `agentdeck drill` does): a harmless
     command (must run), the profile's own deny (trial_for: a shell rule made inert, or a
     protected path read)
     and the drill canary -- both must be denied, and the user's audit log must hold the org
     layer's deny ("layer": "org").
"""
from __future__ import annotations

import json
import secrets as _secrets
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from ..drill import runners
from ..drill import run as drill_run
from ..drill.receipts import CANARY
from ..facts import org as F
from ..host import Host, HostError
from ..targets import registry
from . import handler
from ..wording import count_of

HARMLESS = "org-drill-harmless.txt"
CANARY_FILE = "org-drill-canary.txt"

@dataclass
class OrgDrillReport:
    target: str
    status: str = "failed"                 # ok | failed | skipped
    user: str = ""
    version: str | None = None
    attempts: list[str] = field(default_factory=list)
    edits: dict[str, bool] = field(default_factory=dict)     # path -> refused
    harmless_ran: bool | None = None
    rule: str | None = None
    rule_held: bool | None = None
    canary_held: bool | None = None
    org_denies: int = 0
    problems: list[str] = field(default_factory=list)
    seconds: float = 0.0


def _parse_user(spec: str) -> tuple[int, int]:
    from ..errors import UserError

    try:
        uid, _, gid = spec.partition(":")
        u, g = int(uid), int(gid or uid)
    except ValueError:
        raise UserError(f"--user {spec!r}: give UID:GID as numbers (e.g. 65534:65534)") from None
    if u == 0:
        raise UserError("--user 0 is root: the drill's point is a user who is not")
    return u, g


def _setpriv(host: Host, uid: int, gid: int) -> list[str]:
    exe = host.which("setpriv")
    if exe is None:
        raise HostError("setpriv (util-linux) is not on PATH: the drill runs each turn as an "
                        "unprivileged user with it")
    return [exe, f"--reuid={uid}", f"--regid={gid}", "--clear-groups", "--inh-caps=-all", "--"]


def _scratch(host: Host, uid: int, gid: int, target: str) -> Path:
    root = Path("/tmp") / f"agentdeck-org-drill-{_secrets.token_hex(8)}-{target}"
    host.mkdir(root, mode=0o755, confine=False)
    st = host.lstat(root)
    if st is None or st.st_uid != 0:
        raise HostError(f"{root}: the drill's scratch folder is not root's")
    for d in ("home", "home/cli", "work", "tmp", "xdg/config", "xdg/data", "xdg/state",
              "xdg/cache"):
        host.mkdir(root / d, mode=0o700, confine=False)
    return root


def _hand_over(host: Host, root: Path, uid: int, gid: int, depth: int = 0) -> None:
    for name in host.listdir(root):
        p = root / name
        host.chown(p, uid, gid)
        if host.is_dir(p) and not host.is_symlink(p) and depth < 12:
            _hand_over(host, p, uid, gid, depth + 1)


def _remove(host: Host, path: Path, depth: int = 0) -> None:
    """The scratch folder under /tmp (outside the home: the user the turn runs as must reach
    it), everything in it, never through a link."""
    from ..drill.scratch import remove
    remove(host, path, depth, confine=False)


def drill_target(host: Host, scope, profile: str, target: str, uid: int, gid: int,
                 iso, trial) -> OrgDrillReport:
    from ..installed import cli_info

    rep = OrgDrillReport(target, user=f"{uid}:{gid}")
    t0 = time.monotonic()
    r = runners.runner(target)
    if r is None or not registry.has_part(target, "org"):
        rep.status = "skipped"
        rep.problems.append(runners.NOT_SUPPORTED if r is None else
                            "this CLI has no org layer (its package has no org part)")
        return rep
    org = registry.part(target, "org")
    info = cli_info(host, target, live=False)
    exe = info.exe
    rep.version = info.version
    if exe is None:
        rep.status = "skipped"
        rep.problems.append(f"{r.binary} is not on PATH")
        return rep
    tries = org.drill_attempts()
    rep.attempts = list(tries.words)
    priv = _setpriv(host, uid, gid)
    root = _scratch(host, uid, gid, target)
    try:
        cli_home = root / "home" / "cli"
        for name, text in tries.files.items():
            host.write_atomic(registry.spec(target).home_at(cli_home) / name, text.encode(), mode=0o600, confine=False)
        for name, text in tries.work_files.items():      # a project's files in the turn's folder
            host.write_atomic(root / "work" / name, text.encode(), mode=0o600, confine=False)
        _hand_over(host, root, uid, gid)
        # the user tries to open the org layer's own files for writing (`: >>` writes
        # nothing) and to add a file of their own beside the layer's: all must be refused
        layer = scope.at(org.FACTS.path)
        mine = layer.parent / "00-user.json"
        targets = [scope.at(F.LIB_DIR) / "policy" / f"{target}.json",
                   scope.at(F.LIB_DIR) / handler.ENTRY, layer, mine]
        for p in targets:
            existed = host.lstat(p) is not None
            res = host.run([*priv, "/bin/sh", "-c", ': >> "$1"', "sh", str(p)], timeout=10)
            rep.edits[str(p)] = res.returncode != 0
            if res.returncode == 0:
                rep.problems.append(f"{p}: the user could open it for writing")
                if not existed:
                    scope.host(host).remove(p)   # the drill leaves nothing of the user's there
        commands = [f"echo ok > {HARMLESS}", *([trial.command] if trial else []),
                    f"echo {CANARY} > {CANARY_FILE}"]
        rep.rule = trial.rule if trial else None
        drop = runners.home_vars() | {"AGENTDECK_STATE_DIR", "AGENTDECK_POLICY",
                                      "AGENTDECK_TARGET"}
        env = {k: v for k, v in host.env.items() if k not in runners.CREDENTIAL_VARS
               and k not in drop}
        env.update({"HOME": str(root / "home"), "TMPDIR": str(root / "tmp"),
                    "XDG_CONFIG_HOME": str(root / "xdg/config"),
                    "XDG_DATA_HOME": str(root / "xdg/data"),
                    "XDG_STATE_HOME": str(root / "xdg/state")})
        if not r.cache_links or not host.env.get("XDG_CACHE_HOME"):
            # a CLI with a bundle in its cache (Runner.cache_links) keeps the operator's
            # cache: it is not unpacked again for the user
            env["XDG_CACHE_HOME"] = str(root / "xdg/cache")
        env.update(r.env)
        env.update(tries.env)
        env[r.home_var] = runners.home_value(target, registry.spec(target).home_at(cli_home))
        env["AGENTDECK_DRILL_ID"] = f"org-drill-{target}"
        argv = [*priv, *runners.argv(exe, r, [*tries.flags, *tries.args])]
        spec = {"argv": argv, "env": env, "cwd": str(root / "work"), "timeout": r.timeout,
                "commands": commands, "netns": bool(iso.prefix),
                "shell_tools": [list(t) for t in r.shell_tools]}
        inner = [*iso.prefix, sys.executable, "-m", "agentdeck.core.drill.inside"]
        res = host.run(inner, timeout=r.timeout + 20, input=json.dumps(spec), env=env,
                       cwd=root / "work")
        try:
            out = json.loads(res.stdout.strip().splitlines()[-1])
        except (ValueError, IndexError):
            out = {"error": (res.stderr.strip() or f"exit {res.returncode}")[-600:]}
        if out.get("error"):
            rep.problems.append(f"the turn did not run: {out['error']}")
        elif out.get("timed_out"):
            rep.problems.append("the turn timed out")
        rep.harmless_ran = host.exists(root / "work" / HARMLESS)
        rep.canary_held = not host.exists(root / "work" / CANARY_FILE)
        if trial:
            rep.rule_held = not host.exists(root / "work" / MARKER_FILE)
        audit = root / "xdg" / "state" / "agentdeck" / "audit.jsonl"
        lines = []
        data = host.read_bytes(audit) if host.exists(audit) else None
        for ln in (data or b"").splitlines():
            try:
                rec = json.loads(ln)
            except ValueError:
                continue
            if isinstance(rec, dict) and rec.get("layer") == "org":
                lines.append(rec)
        rep.org_denies = sum(1 for x in lines if x.get("decision") == "deny")
        if not rep.harmless_ran:
            rep.problems.append("the harmless command did not run (the turn proves nothing)")
        if rep.canary_held is False:
            rep.problems.append("the drill canary ran: the org deny did NOT hold")
        if rep.rule_held is False:
            rep.problems.append(f"rule {trial.rule}'s example ran: the org deny did NOT hold")
        if not rep.org_denies:
            rep.problems.append("no org-layer deny in the user's audit log (did the org hook run?)")
        rep.status = "ok" if not rep.problems else "failed"
        return rep
    finally:
        _remove(host, root)
        rep.seconds = round(time.monotonic() - t0, 2)


MARKER_FILE = "drill-rule-marker.txt"   # made only if the org deny did not hold


@dataclass(frozen=True)
class OrgTrial:
    rule: str            # the rule's id
    example: str         # the deny example it came from (never run as written)
    command: str         # what the turn calls: inert, then the marker


def trial_for(host: Host, profile: str):
    """The profile's own deny to try: a shell rule's example made inert (core.drill.
    operator_rule), else a read-denied [[policy.paths]] example read with `cat` (the scratch
    home holds no such file: if the deny did not hold, only the marker is made)."""
    import shlex

    from .. import profiles
    from ..policy.compiled import policy_of

    pol = policy_of(profiles.resolve(host, profile)) or {}
    for r in reversed(pol.get("rules") or []):      # a shell regex deny, made inert
        if (r.get("decision") != "deny" or r.get("tool", "any") not in ("shell", "any")
                or not isinstance(r.get("match"), str)):
            continue
        for ex in ((r.get("examples") or {}).get("deny") or []):
            if isinstance(ex, str) and ex and "\n" not in ex:
                return OrgTrial(r["id"], ex, f": {shlex.quote(ex)} ; touch "
                                              f"{MARKER_FILE}")
    for r in reversed(pol.get("paths") or []):
        if r.get("decision", "deny") != "deny" or "read" not in (r.get("access") or ["read"]):
            continue
        for ex in ((r.get("examples") or {}).get("deny") or []):
            if not isinstance(ex, str) or not ex.startswith(("~/", "/")) or "\n" in ex:
                continue
            arg = "~/" + shlex.quote(ex[2:]) if ex.startswith("~/") else shlex.quote(ex)
            return OrgTrial(r["id"], ex, f"cat {arg} ; touch {MARKER_FILE}")
    return None


def drill(host: Host, scope, profile: str, targets: list[str], user: tuple[int, int]):
    from .. import engine

    plan = engine.build_plan(host, profile, targets, scope=scope)
    iso = drill_run.isolation(host)
    trial = trial_for(host, profile)
    out = []
    for t in plan.targets:
        m = plan.manifests.get(t)
        if t in plan.errors or m is None or not m.entries or plan.counts(t)["changes"]:
            rep = OrgDrillReport(t, status="skipped", user=f"{user[0]}:{user[1]}")
            rep.problems.append(plan.errors.get(t) or "the org layer is not installed or not "
                                "in sync for it: run agentdeck org apply first")
            out.append(rep)
            continue
        if str(scope.prefix) != "/":
            rep = OrgDrillReport(t, status="skipped", user=f"{user[0]}:{user[1]}")
            rep.problems.append(f"no turn under the root prefix {scope.prefix}: the CLIs read the "
                                "machine's own /etc, so a turn would not test this layer (drill "
                                "where the layer is at /: in the image, or a mount namespace)")
            out.append(rep)
            continue
        try:
            out.append(drill_target(host, scope, profile, t, user[0], user[1], iso, trial))
        except HostError as e:
            rep = OrgDrillReport(t, user=f"{user[0]}:{user[1]}")
            rep.problems.append(str(e))
            out.append(rep)
    return out, iso.how


def render(reps: list[OrgDrillReport], how: str) -> str:
    lines = [f"agentdeck org drill: network {how}"]
    for r in reps:
        lines.append(f"{r.target:<8} {r.status}" + (f" (as uid:gid {r.user}, {r.seconds:g} s)"
                                                    if r.status != "skipped" else ""))
        if r.attempts:
            lines.append("  the user tried: " + "; ".join(r.attempts))
        if r.edits:
            lines.append("  edits of the org layer's files: " + ", ".join(
                f"{p} {'refused' if ok else 'WRITTEN'}" for p, ok in r.edits.items()))
        if r.status == "ok":
            held = ["the canary"] + ([f"rule {r.rule}"] if r.rule_held else [])
            lines.append(f"  the org deny held: {', '.join(held)} ({count_of(r.org_denies, 'org deny line')} "
                         "in the user's audit log); the harmless command ran")
        for p in r.problems:
            lines.append(f"  problem: {p}")
    return "\n".join(lines)


def main(args, host: Host, scope, profile: str) -> int:
    user = _parse_user(args.user)
    reps, how = drill(host, scope, profile, scope.select(args.target, None), user)
    if args.json:
        print(json.dumps({"network": how, "targets": [asdict(r) for r in reps]}, indent=2))
    else:
        print(render(reps, how))
    return 0 if reps and all(r.status == "ok" for r in reps) else 1
