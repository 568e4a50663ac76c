"""What each CLI's system layer should contain for a profile (the org scope's adapter).

Each CLI's layer is its package's `org` part (core/targets/<name>/org.py, interface
core/targets/parts/org.py): the file and its kind (a drop-in of agentdeck's own, a managed block,
a policy hook file), observed with the real CLI, and the layer item it makes. Shared by all of
them, under /usr/local/lib/agentdeck: the handler copy (lib/...), its entry (org_hook.py) and per
CLI the compiled policy (policy/<target>.json). Every path gets the root prefix in front; each
one and its parents must pass core.org.ownership, else the target's plan is an error and nothing
is written.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..desired import Desired, DesiredState
from ..errors import UserError
from ..facts import org as F
from ..targets import registry
from ..targets.base import DEFAULT_OPTIONS, RunOptions, Target
from ..targets.parts.org import LayerRequest, extra_items, layer_notes
from . import handler, ownership
from ..wording import count_of

if TYPE_CHECKING:  # pragma: no cover
    from ..disk import DiskView
    from .scope import OrgScope

MODE = 0o644                 # read by every user's CLI and hook; written by root only


class OrgTarget(Target):
    def __init__(self, name: str, scope: "OrgScope") -> None:
        self.spec = registry.spec(name)
        self.scope = scope
        self.part = registry.part(name, "org")
        self.facts = self.part.FACTS

    @property
    def title(self) -> str:
        return f"{self.spec.title} (org layer)"

    def manifest_path(self, host) -> Path:
        return self.scope.manifest_path(self.name)

    # ---- the parts ------------------------------------------------------------------------
    def _lib(self) -> Path:
        return self.scope.at(F.LIB_DIR)

    def shared_items(self, view: "DiskView") -> list[Desired]:
        """The handler copy and its entry: identical for every target (planned once)."""
        lib = self._lib()
        parser = handler.parser_dirs(view.host)
        out = [Desired(self.name, lib / handler.ENTRY, "file", handler.entry_text(parser),
                       mode=MODE,
                       label="org hook entry", group="hooks", own_source=True,
                       reason="what the org hooks run: fixes target, policy and layer, then "
                              "runs the handler copy (standard library and shell parser only)")]
        for rel, data in handler.closure(view.host).items():
            out.append(Desired(self.name, lib / "lib" / rel, "file", data.decode("utf-8"),
                               mode=MODE, label=f"handler copy {rel}", group="hooks",
                               own_source=True,
                               reason="agentdeck's hook handler, copied root-owned (no user "
                                      "venv on the org hooks' path)"))
        return out

    def policy_item(self, profile, host) -> Desired:
        import json

        from ..policy.compiled import compile_policy, desired_item, policy_of

        pol = policy_of(profile)
        if pol is None or not (pol["rules"] or pol.get("paths")):
            raise UserError(f"profile {profile.name!r} has no [policy] rules: the org layer "
                            "would enforce nothing (add [[policy.rules]] or [[policy.paths]], or "
                            "choose another profile with --profile)")
        # the MCP server names the target's compiled policy carries (a CLI that spells an MCP
        # tool's name with its server's), as the home's install compiles it
        home = desired_item(profile, host, self.name)
        servers = list(json.loads(home.value).get("mcp_servers") or []) if home else []
        try:   # no home: `~` in a path rule is each user's own, expanded from the CLI's HOME
            text = compile_policy(pol, self.name, mcp_servers=servers)
        except ValueError as e:
            raise UserError(str(e)) from None
        n = len(pol["rules"]) + len(pol.get("paths") or [])
        return Desired(self.name, self._lib() / "policy" / f"{self.name}.json", "file", text,
                       mode=MODE, label="org compiled policy", group="hooks",
                       reason=f"the profile's [policy] ({count_of(n, 'rule')}) as the org handler reads "
                              "it; root-owned, so the user cannot relax it")

    def request(self, profile) -> LayerRequest:
        """What this CLI's layer is asked to hold: the hook, and the profile's [org] keys with
        the command line's turned on / added (org_keys)."""
        from ..policy.compiled import policy_of

        keys = org_keys(profile, self.scope)
        servers = {n: {k: v for k, v in (("command", s.command), ("url", s.url)) if v}
                   for n, s in (getattr(profile, "mcp_servers", None) or {}).items()}
        return LayerRequest(path=self.scope.at(self.facts.path),
                            command=handler.hook_command(self.name, self.facts.pre_tool_event),
                            timeout=int(profile.hooks.timeout),
                            managed_hooks_only=keys.managed_hooks_only, no_bypass=keys.no_bypass,
                            mode=MODE, policy=policy_of(profile),
                            mcp_allowed=keys.mcp_allowed, mcp_denied=keys.mcp_denied,
                            mcp_servers=servers)

    def _parser_problems(self, host) -> list[str]:
        """The shell parser the handler loads from where it is installed: each package folder
        and its compiled binding root-owned, writable by no one else, readable by every user."""
        pkgs = handler.parser_packages(host)
        if len(pkgs) != len(handler.PARSERS):
            return [f"the shell parser ({', '.join(handler.PARSERS)}) is not installed for this "
                    "agentdeck: the org handler could not decide shell calls"]
        bad: list[str] = []
        for pkg in pkgs:
            bad += ownership.problems(host, pkg, Path("/"))
            bad += ownership.reachable_problems(host, pkg)
            for name in host.listdir(pkg):
                if name.startswith("_binding") and name.endswith(".so"):
                    bad += ownership.problems(host, pkg / name, pkg)
                    bad += ownership.reachable_problems(host, pkg / name)
        return bad

    # ---- the target -----------------------------------------------------------------------
    def desired(self, profile, view: "DiskView",
                options: RunOptions = DEFAULT_OPTIONS) -> DesiredState:
        st = DesiredState(self.name)
        req = self.request(profile)
        items = [*self.shared_items(view), self.policy_item(profile, view.host),
                 self.part.layer_item(req, view), *extra_items(self.part, req, view)]
        bad = ownership.interpreter_problems(view.host, F.PYTHON)
        for it in items:
            bad += ownership.problems(view.host, it.path, self.scope.prefix)
        bad += self._parser_problems(view.host)
        if bad:
            bad = list(dict.fromkeys(bad))
            raise UserError(f"not written: {bad[0]}" + (f" (and {len(bad) - 1} more)"
                                                        if len(bad) > 1 else ""))
        for it in items:
            st.add(it)
        for line in layer_notes(self.part, req):
            st.note(f"{self.spec.title} {self.facts.verified}: {line}")
        return st


@dataclass(frozen=True)
class OrgKeys:
    """The keys one org run writes: the profile's [org] section, each command-line flag turning
    its key on (--managed-hooks-only, --no-bypass) or adding names to it (--mcp-allow,
    --mcp-deny)."""
    managed_hooks_only: bool = False
    no_bypass: bool = False
    mcp_allowed: tuple[str, ...] | None = None     # None: no allowlist at all
    mcp_denied: tuple[str, ...] = ()


def org_keys(profile, scope: "OrgScope") -> OrgKeys:
    sec = getattr(profile, "org", None)

    def names(*lists) -> tuple[str, ...]:
        return tuple(dict.fromkeys(n for lst in lists for n in (lst or ())))

    allowed = getattr(sec, "mcp_allowed", None)
    return OrgKeys(
        managed_hooks_only=bool(getattr(sec, "managed_hooks_only", None) or
                                scope.managed_hooks_only),
        no_bypass=bool(getattr(sec, "no_bypass", None) or scope.no_bypass),
        mcp_allowed=(None if allowed is None and not scope.mcp_allow
                     else names(allowed, scope.mcp_allow)),
        mcp_denied=names(getattr(sec, "mcp_denied", None), scope.mcp_deny))
