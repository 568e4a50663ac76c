"""The `activity` and `policy` commands (wired into core/cli.py's parser by `add_parsers`)."""
from __future__ import annotations

import json
import os
import sys

from agentdeck.core import engine, profiles

from ..targets.registry import BUILTIN
from ..wording import count_of, noun_for


def add_parsers(sub, common) -> None:
    p = sub.add_parser("activity", help="the decisions agentdeck's hook handler recorded "
                                        "(allow / ask / deny per tool call and prompt)")
    p.add_argument("--home", metavar="DIR", help="use DIR as the home (default: $HOME)")
    p.add_argument("--target", "-t", metavar="T",
                   help=f"only this CLI ({', '.join((*BUILTIN, 'repo'))})")
    p.add_argument("--decision", metavar="D", help="only allow, ask or deny")
    p.add_argument("--session", metavar="ID", help="only this session")
    p.add_argument("--since", metavar="DURATION", help="only the last DURATION (30s, 15m, 2h, 1d)")
    p.add_argument("--drills", action="store_true",
                   help="also the decisions of `agentdeck drill` turns (marked [drill]; hidden "
                        "otherwise)")
    p.add_argument("--follow", "-f", action="store_true", help="keep printing new decisions")
    p.add_argument("--json", action="store_true", help="one JSON object per line")
    p = sub.add_parser("policy", help="the profile's guardrail rules")
    psub = p.add_subparsers(dest="policy_cmd", metavar="ACTION")
    t = psub.add_parser("test", help="check every rule's examples in every CLI's payload shape "
                                     "(exit 1 on a mismatch)")
    common(t, target=False, output=False)
    t.add_argument("--json", action="store_true", help="machine-readable output")
    s = psub.add_parser("show", help="how each rule is enforced in each CLI")
    common(s, output=False)
    s.add_argument("--json", action="store_true", help="machine-readable output")


def cmd_activity(args, make_host) -> int:
    from agentdeck.core import activity   # local: the activity log's reader loads only for agentdeck activity

    host = make_host(args)
    flt = activity.Filter(target=args.target, decision=args.decision, session=args.session,
                          since=activity.parse_duration(args.since) if args.since else None,
                          drills=args.drills)
    try:
        width = os.get_terminal_size(sys.stdout.fileno()).columns
    except (OSError, ValueError):
        width = 120

    def emit(recs: list[dict], header: bool) -> None:
        if args.json:
            for r in recs:
                print(json.dumps(r, ensure_ascii=False))
        elif recs or header:
            for line in activity.format_rows(recs, width, header=header):
                print(line)
        sys.stdout.flush()

    if not args.follow:
        recs = activity.read(host, flt)
        emit(recs, header=True)
        drills = (f"{count_of(flt.hidden_drills, 'decision')} of `agentdeck drill` turns not shown: "
                  "--drills shows them")
        if not recs and not args.json:
            where = host.display(activity.audit_path(host))
            print(f"(no decisions of a session in {where}; {drills})" if flt.hidden_drills
                  else f"(no decisions recorded in {where})")
        elif flt.hidden_drills and not args.json:
            print(f"({drills})")
        return 0
    follower = activity.Follower(host, flt)
    first = True
    try:
        while True:
            recs = follower.wait(1.0)
            if recs or first:
                emit(recs, header=first)
                first = False
    except KeyboardInterrupt:
        return 0
    finally:
        follower.close()


def cmd_policy(args, make_host) -> int:

    from .compiled import policy_of   # local: the compiled policy is not loaded for --help (core.cli imports this module)

    if args.policy_cmd not in ("test", "show"):
        print("usage: agentdeck policy {test,show} [--home DIR] [--profile NAME]", file=sys.stderr)
        return 1
    host = make_host(args)
    # without --profile: the profile the home's last apply installed (DEFAULT_PROFILE if none),
    # so `policy show` describes the rules the hooks enforce
    name = args.profile or engine.installed_profile(host)
    prof = profiles.resolve(host, name)
    pol = policy_of(prof)
    if args.policy_cmd == "show":
        from .enforcement import describe   # local: only policy show describes the enforcement
        targets = engine.select_targets(args.target, prof.targets, host) + ["repo"]
        data = {t: describe(pol, t) for t in targets}
        if args.json:
            print(json.dumps(data, indent=2))
            return 0
        for t, d in data.items():
            if d.get("guarded") is False:
                print(f"{t}  ({d['on_error']['meaning']})")
                continue
            print(f"{t}  (on_error = {d['on_error']['value']}: {d['on_error']['meaning']})")
            for r in d["rules"]:
                if r["kind"] == "argv":
                    names = "|".join(r["command"] if isinstance(r["command"], list) else [r["command"]])
                    what = f"shell argv: {names} {' '.join(r['args'])}".rstrip()
                else:
                    what = f"{r['tool']} /{r['match']}/"
                print(f"  {r['id']}  {what} -> {r['decision']}")
                print(f"      covers: {r['covers']}")
                for c in r["channels"]:
                    note = f"; {c['note']}" if c["note"] else ""
                    print(f"      {c['cli']} {c['event']}: {c['how']}{note}")
                _real_turns(r)
            for r in d["paths"]:
                ex = f" except {', '.join(r['except'])}" if r["except"] else ""
                print(f"  {r['id']}  paths {', '.join(r['paths'])}{ex} "
                      f"({'/'.join(r['access'])}) -> {r['decision']}")
                for e in r["enforced_by"]:
                    tools = "; ".join(f"{k}: {v}" for k, v in e["tools"].items() if v)
                    print(f"      {e['cli']} {e.get('channel', 'hook')}: {tools}")
                    print(f"      {e['cli']} own layer: {e['native']}")
                    if e.get("floor"):
                        print(f"      {e['cli']} sandbox: {e['floor']}")
                _real_turns(r)
            print(f"  unresolved commands -> {d['unresolved']}")
            print(f"  code that builds its own paths at run time is stopped by: "
                  f"{d['runtime_floor']}")
            if d.get("self_protection"):
                print(f"  built in: {d['self_protection']}")
                _real_turns({"real_turns": d.get("self_real_turns")})
            for c in d["caveats"]:
                print(f"  caveat: {c}")
            for c in d["limits"]:
                print(f"  limit: {c}")
        return 0
    from .selftest import test_policy   # local: the self-test loads only for policy test

    if pol is None:
        print(f"agentdeck: profile {name} has no [policy]; nothing to test", file=sys.stderr)
        return 0
    from .selftest import test_corpus   # local: the self-test loads only for policy test

    res = test_policy(pol)
    corpus, counts = test_corpus()
    if args.json:
        out = res.to_json()
        out["corpus"] = {"ok": corpus.ok, "cases": sum(counts.values()), "classes": counts,
                         "checked": corpus.checked, "mismatches": corpus.mismatches}
        print(json.dumps(out, indent=2))
    else:
        for m in res.mismatches + corpus.mismatches:
            print(f"MISMATCH  {m}")
        for n in res.notes:
            print(f"note      {n}")
        regex = [r["id"] for r in pol["rules"] if r.get("match") and r.get("tool") in ("shell", "any")]
        if regex:
            print(f"note      {noun_for(len(regex), 'rule')} {', '.join(regex)}: a regex on the raw command line is "
                  "evadable (quoting, variables, other spellings); command/args rules and "
                  "[[policy.paths]] are matched on what the line runs")
        print(f"policy test: profile {name}, {count_of(len(pol['rules']) + len(pol['paths']), 'rule')}, "
              f"{count_of(res.checked, 'case')} checked, {count_of(len(res.mismatches), 'mismatch', 'mismatches')}")
        print(f"evasion corpus: {count_of(sum(counts.values()), 'case')} in {len(counts)} classes "
              f"({', '.join(f'{k} {v}' for k, v in counts.items())}), "
              f"{count_of(corpus.checked, 'payload')} in every dialect, {count_of(len(corpus.mismatches), 'mismatch', 'mismatches')}")
    return 0 if res.ok and corpus.ok else 1


def _real_turns(rule: dict) -> None:
    """The line that links a rule to what held in real turns (docs/enforcement.md)."""
    rt = rule.get("real_turns") or {}
    if rt.get("doc"):
        print(f"      held in real turns per CLI version: {rt['doc']} "
              f"(classes: {', '.join(rt['classes'])}; `agentdeck drill --matrix` tries it here)")
