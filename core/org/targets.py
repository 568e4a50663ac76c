"""What each CLI's system layer should contain for a profile (the org scope's adapters).

Per CLI (paths and keys: core/facts/org.py, each observed with the real CLI):
  claude   /etc/claude-code/managed-settings.d/agentdeck.json   a drop-in of agentdeck's own
  codex    /etc/codex/requirements.toml                          a managed block (dotted keys)
  copilot  /etc/github-copilot/policy.d/agentdeck.json           a policy hook file
and, shared by all three, under /usr/local/lib/agentdeck: the handler copy (lib/...), its entry
(org_hook.py) and per CLI the compiled policy (policy/<target>.json). Every path gets the root
prefix in front; each one and its parents must pass core.org.ownership, else the target's plan
is an error and nothing is written.
"""
from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import TYPE_CHECKING

from ..desired import Desired, DesiredState
from ..errors import UserError
from ..facts import org as F
from ..targets import registry
from ..targets.base import DEFAULT_OPTIONS, RunOptions, Target
from . import handler, ownership

if TYPE_CHECKING:  # pragma: no cover
    from ..disk import DiskView
    from .scope import OrgScope

TOML_MARKERS = ("# >>> agentdeck org layer (agentdeck org uninstall removes it) >>>",
                "# <<< agentdeck org layer <<<")
MODE = 0o644                 # read by every user's CLI and hook; written by root only


def _toml_str(s: str) -> str:
    return json.dumps(s)       # a TOML basic string is a JSON string for these values


class OrgTarget(Target):
    def __init__(self, name: str, scope: "OrgScope") -> None:
        self.spec = registry.spec(name)
        self.scope = scope
        self.facts = F.ORG[name]

    @property
    def title(self) -> str:
        return f"{self.spec.title} (org layer)"

    def manifest_path(self, host) -> Path:
        return self.scope.manifest_path(self.name)

    # ---- the parts ------------------------------------------------------------------------
    def _lib(self) -> Path:
        return self.scope.at(F.LIB_DIR)

    def shared_items(self, view: "DiskView") -> list[Desired]:
        """The handler copy and its entry: identical for the three targets (planned once)."""
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

    def policy_item(self, profile) -> Desired:
        from ..policy.compiled import compile_policy, policy_of

        pol = policy_of(profile)
        if pol is None or not (pol["rules"] or pol.get("paths")):
            raise UserError(f"profile {profile.name!r} has no [policy] rules: the org layer "
                            "would enforce nothing (add [[policy.rules]] or [[policy.paths]], or "
                            "choose another profile with --profile)")
        servers = (sorted((getattr(profile, "mcp_servers", None) or {}).keys())
                   if self.name == "copilot" else [])
        try:   # no home: `~` in a path rule is each user's own, expanded from the CLI's HOME
            text = compile_policy(pol, self.name, mcp_servers=servers)
        except ValueError as e:
            raise UserError(str(e)) from None
        n = len(pol["rules"]) + len(pol.get("paths") or [])
        return Desired(self.name, self._lib() / "policy" / f"{self.name}.json", "file", text,
                       mode=MODE, label="org compiled policy", group="hooks",
                       reason=f"the profile's [policy] ({n} rule(s)) as the org handler reads "
                              "it; root-owned, so the user cannot relax it")

    def layer_item(self, profile, view: "DiskView") -> Desired:
        f, o = self.facts, self.scope
        cmd = handler.hook_command(self.name, f.pre_tool_event)
        timeout = int(profile.hooks.timeout)
        path = o.at(f.path)
        if self.name == "claude":
            doc: dict = {"hooks": {f.pre_tool_event: [
                {"hooks": [{"type": "command", "command": cmd, "timeout": timeout}]}]}}
            if o.managed_hooks_only:
                doc["allowManagedHooksOnly"] = True
            from ..policy.compiled import policy_of
            from ..targets.claude.permissions import translations

            # the [[policy.paths]] deny rules as Claude's own layer too (the home's translation,
            # core/targets/claude/permissions.py): it holds where the hook does not run
            deny = list(dict.fromkeys(e for tr in translations(policy_of(profile))
                                      for e in tr.entries))
            perms: dict = {}
            if deny:
                perms["deny"] = deny
            if o.no_bypass:
                perms["disableBypassPermissionsMode"] = "disable"
            if perms:
                doc["permissions"] = perms
            return Desired(self.name, path, "file", json.dumps(doc, indent=2) + "\n", mode=MODE,
                           label="managed settings drop-in", group="hooks",
                           reason="Claude Code's managed layer: the org hook runs whatever the "
                                  "user's settings say (disableAllHooks included)")
        if self.name == "copilot":
            doc = {"version": 1, "hooks": {f.pre_tool_event: [
                {"type": "command", "bash": cmd, "timeoutSec": timeout}]}}
            return Desired(self.name, path, "file", json.dumps(doc, indent=2) + "\n", mode=MODE,
                           label="policy hook file", group="hooks",
                           reason="Copilot CLI's policy hooks: disableAllHooks and disabledHooks "
                                  "cannot turn them off")
        lines = ["features.hooks = true"]
        if o.managed_hooks_only:
            lines.append("allow_managed_hooks_only = true")
        lines.append(f"hooks.{f.pre_tool_event} = [{{ hooks = [{{ type = \"command\", "
                     f"command = {_toml_str(cmd)}, timeout = {timeout} }}] }}]")
        body = "\n".join(lines) + "\n"
        self._check_toml(view, path, body)
        return Desired(self.name, path, "block", body, markers=TOML_MARKERS, placement="top",
                       label="requirements block", group="hooks",
                       reason="Codex's requirements: managed hooks (no trust step), and hooks "
                              "pinned on so the user's [features] hooks = false cannot stop them")

    def _check_toml(self, view: "DiskView", path: Path, body: str) -> None:
        """The requirements file with our block must still be TOML (a key our block sets that
        the administrator's text sets too is refused, naming the file)."""
        from ..formats.blocks import set_block

        text = view.text(path) if view.host.exists(path) else None
        if not text:
            return
        merged = set_block(text, *TOML_MARKERS, body, placement="top", path=str(path))
        try:
            tomllib.loads(merged)
        except tomllib.TOMLDecodeError as e:
            raise UserError(f"{path}: agentdeck's org block cannot go into this file: with it "
                            f"the file is not TOML ({e}); a key the block sets "
                            "(features.hooks, allow_managed_hooks_only, hooks.PreToolUse) is "
                            "probably set here too: remove it or let agentdeck's block set it",
                            path=str(path)) from None

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
        items = [*self.shared_items(view), self.policy_item(profile),
                 self.layer_item(profile, view)]
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
        st.info["org"] = {"path": str(self.scope.at(self.facts.path)),
                          "verified": self.facts.verified, "kind": self.facts.kind,
                          "managed_hooks_only": self.scope.managed_hooks_only,
                          "no_bypass": self.scope.no_bypass}
        return st
