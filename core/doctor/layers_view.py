"""Layers, drawn: for each CLI, the files and variables that decide its hooks, permissions and
MCP servers, one row per layer from the strongest down, and which one decides the hooks now.

    org       /etc/claude-code/managed-settings.json  agentdeck's org layer  hooks pinned on
    env       CLAUDE_CONFIG_DIR                        not set
    project   ./.claude/settings.local.json            disableAllHooks: True  UNDOES agentdeck
    home      ~/.claude/settings.json                  agentdeck's hooks, permissions.deny, MCP

What each row rests on, with nothing invented:
- org: the target's org part (core/targets/<name>/org.py FACTS, observed per version) and what
  core.org.found finds there; agentdeck's org layer, installed and owned as it must be, keeps
  the hooks on whatever a user layer says (the facts' `attempts`).
- env: the variable that moves the CLI's home (the registry's `home_env`), set or not.
- project and home layers: the target's LAYERS (core/targets/layers.py: the files that can
  switch hooks off, with the version and how each was verified), found for a session started in
  the working folder; `switches` says which of them hold what undoes agentdeck's hooks now.
- home: agentdeck's own files for the CLI, from the plan's info (hooks, MCP, permissions).
The row that decides the hooks: the org layer when agentdeck's is installed; else a layer that
switches them off now; else the home. The doctor's `--layers`, `--verbose` and its HTML export
print these rows; the app's doctor screen draws them (key `y`).
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ..targets import registry
from .context import Ctx


@dataclass
class LayerRow:
    layer: str            # org | env | project | home
    path: str             # the file (home as ~) or the variable's name
    state: str            # what is there now, in words
    decides: str = ""     # what it decides (hooks, permissions, MCP) or what it can undo
    undoes: str = ""      # what it holds now that undoes agentdeck's hooks ("" when nothing)
    wins: bool = False    # this row decides the hooks now

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def rows(ctx: Ctx, target: str) -> list[LayerRow]:
    from ..org.found import found   # local: the org layer is read only for the layer view
    from ..facts.org import names as org_targets   # local: as above
    from ..targets.layers import candidates, holds, layers   # local: as above

    host = ctx.host
    out: list[LayerRow] = []
    org_ours = False
    if target in org_targets():
        lay = found(host, target)
        if lay.present and not lay.ownership and lay.runs_hook:
            org_ours = True
            state, decides = "agentdeck's org layer", "hooks pinned on, the org policy"
        elif lay.present:
            state, decides = ("agentdeck's org layer, NOT as it must be (see the org rows)",
                              "the org policy, while it holds")
        elif lay.foreign:
            state, decides = "the administrator's own file (no agentdeck org layer)", ""
        else:
            state, decides = "none", ""
        out.append(LayerRow("org", str(lay.file), state, decides))
    spec = registry.spec(target)
    if spec.home_env:
        value = host.env.get(spec.home_env)
        out.append(LayerRow("env", spec.home_env,
                            f"set: the home is {host.display(value)}" if value else "not set",
                            "moves the CLI's home; agentdeck installs where it points"))
    project: list[LayerRow] = []
    home_extra: list[LayerRow] = []
    for layer in layers(target):
        for p in candidates(host, target, layer):
            here = host.is_file(p)
            if layer.project and not here:
                continue
            held = holds(host, p, layer) if here else []
            row = LayerRow("project" if layer.project else "home", host.display(p),
                           "present" if here else "none",
                           f"can switch hooks off ({layer.how} for {layer.verified})",
                           undoes=", ".join(held))
            (project if layer.project else home_extra).append(row)
    if not project and any(layer.project for layer in layers(target)):
        project.append(LayerRow("project", host.display(host.working_dir()),
                                "no project layer file in this folder or its parents", ""))
    out.extend(project)
    out.extend(home_extra)
    plan, _ = ctx.plan(target)
    typed = plan.output.get(target) if plan is not None else None
    files: dict[str, list[str]] = {}
    for f, label in ((typed.hooks.file if typed and typed.hooks else None, "agentdeck's hooks"),
                     (typed.permissions.file if typed and typed.permissions else None,
                      "permissions.deny"),
                     (typed.mcp.file if typed and typed.mcp else None, "MCP servers")):
        if isinstance(f, str):
            files.setdefault(f, []).append(label)
    from ..inert import inert   # local: as above
    reasons = inert(plan, target, now=True) if plan is not None else []
    for f, labels in files.items():
        shown = host.display(f)
        out.append(LayerRow("home", shown,
                            "present" if host.is_file(Path(f)) else "not written yet",
                            ", ".join(labels),
                            undoes="; ".join(i.reason for i in reasons if shown in i.reason
                                             and "agentdeck's hooks" in labels)))
    winner = (next((r for r in out if r.layer == "org"), None) if org_ours else
              next((r for r in out if r.undoes), None) or
              next((r for r in out if r.layer == "home" and "agentdeck's hooks" in r.decides),
                   None))
    if winner is not None:
        winner.wins = True
    return out


def by_target(ctx: Ctx) -> dict[str, list[LayerRow]]:
    """Each selected CLI's rows (the app draws these)."""
    return {t: rows(ctx, t) for t in ctx.targets if t in registry.BY_NAME}


def all_rows(ctx: Ctx) -> dict[str, list[dict[str, Any]]]:
    """The same as plain data (--json, the HTML export, the text table)."""
    return {t: [r.to_json() for r in lrows] for t, lrows in by_target(ctx).items()}


def render(layers: dict[str, list[dict[str, Any]]], titles: dict[str, str]) -> list[str]:
    """The compact table: per CLI, a row per layer, strongest first; `>` marks the row that
    decides the hooks now, `!` one that undoes agentdeck's."""
    lines: list[str] = []
    for target, lrows in layers.items():
        lines.append(f"{titles.get(target, target)}: layers, strongest first")
        pw = max((len(r["path"]) for r in lrows), default=0)
        for r in lrows:
            mark = ">" if r["wins"] else ("!" if r["undoes"] else " ")
            tail = f"UNDOES agentdeck: {r['undoes']}" if r["undoes"] else r["decides"]
            lines.append(f"  {mark} {r['layer']:<8} {r['path']:<{pw}}  {r['state']}"
                         + (f"  ({tail})" if tail else ""))
    return lines
