"""Another tool's install in a CLI's home (agentihooks 2.x): found by its artifacts, shown in the
plan as one group, and taken over by plan items (docs/migrating.md).

What a take-over does, per part (the facts: core/facts/known_tools.py for the tool, each CLI's
takeover part core/targets/<name>/takeover.py for what it writes there):

  hooks file (own-file, Copilot)  an `aside` item: set aside (its bytes kept in the state dir),
                                  so each event runs once, agentdeck's; uninstall puts it back
  hooks file (same-file, Codex)   agentdeck's hooks item of that file is a foreign value: taking
                                  the profile's replaces it; uninstall puts it back
  hooks (inline, Claude)          not taken over: both tools' hooks run (said in the group)
  persona block                   agentdeck's persona item `replaces` the tool's region: a
                                  decision (keep theirs / take ours in its place; put back by
                                  uninstall)
  MCP servers                     kept as the tool set them up: mcpDefaultDisabled does not
                                  switch off a server of an install agentdeck takes over
  settings keys, sidecar, env files, ~/.bashrc block, wrapper, skills
                                  kept as they are (listed so the operator sees all of it)

The group is the adapter's output (TargetOutput.found, core/targets/output.py) and the plan's
JSON form ("found").
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..desired import Desired, DesiredState
from ..disk import DiskView
from ..facts.known_tools import KNOWN_TOOLS, KnownTool
from ..formats.blocks import find_block
from ..formats.errors import FormatError
from ..manifest import entry_id
from . import registry
from .output import FoundInstall, FoundPart
from .parts.takeover import TargetInstall

GROUP = "takeover"


@dataclass
class Found:
    """Another tool's install found in a CLI's home (the take-over's group)."""
    tool: KnownTool
    target: str
    install: TargetInstall
    version: str | None
    home: Path                          # the CLI's home
    parts: list[dict] = field(default_factory=list)
    #: the persona region's markers, when it is there and well formed (None otherwise)
    persona: tuple[str, str] | None = None
    #: the hooks file to set aside (own-file mode), when it is a plain file inside the home
    aside: Path | None = None
    #: that file was set aside by an earlier apply and the tool wrote it again since (kept)
    back: bool = False

    @property
    def title(self) -> str:
        names = []
        for p in self.parts:
            if p["what"] not in names:
                names.append(p["what"])
        version = self.version or "(version unknown)"
        return f"{self.tool.name} {version} found: {', '.join(names)}"

    def part(self, what: str, path: Path | str, fate: str, note: str, item: str | None = None,
             name: str = "") -> None:
        """fate: "set aside" | "decide" | "kept"; item: the plan item that carries it out."""
        self.parts.append({"what": what, "path": str(path), "fate": fate, "note": note,
                           "item": item, "name": name})

    def typed(self) -> FoundInstall:
        """What the adapter reports of it (TargetOutput.found)."""
        warn = None
        if self.version and self.version.split(".")[0] != self.tool.major:
            warn = (f"agentdeck knows {self.tool.name} {self.tool.major}.x (verified with "
                    f"{self.tool.verified}); this is {self.version}: check each part below")
        return FoundInstall(
            tool=self.tool.name, version=self.version, verified=self.tool.verified,
            title=self.title, warning=warn,
            parts=tuple(FoundPart(what=p["what"], path=p["path"], fate=p["fate"], note=p["note"],
                                  item=p["item"], name=p["name"]) for p in self.parts))


def possessive(name: str) -> str:
    return name + ("'" if name.endswith("s") else "'s")


def detect(view: DiskView, target: str, manifest=None) -> list[Found]:
    """Each known tool installed for `target` in this home, with the parts found. `manifest`:
    the target's manifest (what an earlier apply set aside stays set aside)."""
    out = []
    recorded = {e.path for e in manifest.entries.values() if e.kind == "aside"} if manifest else set()
    for tool in KNOWN_TOOLS:
        inst = tool.install(target)
        if inst is None:
            continue
        f = _detect_one(view, tool, target, inst, recorded)
        if f is not None:
            out.append(f)
    return out


def _cli_home(view: DiskView, target: str) -> Path:
    return registry.spec(target).home(view.host)


def _detect_one(view: DiskView, tool: KnownTool, target: str, inst: TargetInstall,
                set_aside_paths: set[str]) -> Found | None:
    host = view.host
    home = _cli_home(view, target)
    state = view.load(host.home / tool.state_file, "json")
    recorded = state.data if state.ok and isinstance(state.data, dict) else {}
    targets = recorded.get("targets")
    listed = (isinstance(targets, dict) and isinstance(targets.get("global"), dict)
              and target in targets["global"])
    hooks = home / inst.hooks_file
    wrapper = home / inst.hook_wrapper if inst.hook_wrapper else None
    own_hooks = (_inline_hooks(view, hooks, tool.name) if inst.hooks_mode == "inline"
                 else _mentions(view, hooks, tool.name))
    set_aside = str(hooks) in set_aside_paths
    if not (listed or own_hooks or set_aside
            or (wrapper is not None and view.state(wrapper).exists)):
        return None
    version = recorded.get("version") if isinstance(recorded.get("version"), str) else None
    f = Found(tool, target, inst, version, home)
    # hooks
    if inst.hooks_mode == "own-file" and set_aside and not view.present(hooks):
        f.aside = hooks
        f.part("hooks file", hooks, "set aside",
               "set aside by an earlier apply (its bytes are in agentdeck's state dir): each "
               "event runs once, agentdeck's; `agentdeck uninstall` puts it back",
               item=entry_id(str(hooks), "aside", ()))
    elif inst.hooks_mode == "own-file" and view.state(hooks).exists:
        ok = not view.state(hooks).is_link and host.real_confined(hooks)
        f.aside = hooks if ok else None
        f.back = ok and set_aside
        left = ok and not set_aside and _left_in_place(view, hooks)
        if left:
            f.back = True
            f.part("hooks file", hooks, "kept",
                   "you left it in place at an earlier apply (skip): kept, so both tools' hooks "
                   "run for each event; taking the item sets it aside",
                   item=entry_id(str(hooks), "aside", ()))
        elif f.back:
            f.part("hooks file", hooks, "kept",
                   f"it is back ({tool.name} wrote it again since agentdeck set it aside): kept, so "
                   "both tools' hooks run for each event; taking the item sets it aside again",
                   item=entry_id(str(hooks), "aside", ()))
        else:
            f.part("hooks file", hooks, "set aside" if ok else "kept",
                   f"{registry.spec(target).short} loads it beside agentdeck's hooks file, so "
                   "every event would run "
                   "twice; set aside (its bytes kept in agentdeck's state dir), each event runs "
                   "once, agentdeck's; `agentdeck uninstall` puts it back" if ok else
                   "it is a symlink or leads out of the home: agentdeck does not move it, so both "
                   "tools' hooks run (remove it yourself to run each event once)",
                   item=entry_id(str(hooks), "aside", ()) if ok else None)
    elif inst.hooks_mode == "same-file" and own_hooks:
        f.part("hooks file", hooks, "decide",
               "it is the file agentdeck registers its hooks in: taking the profile's replaces it "
               "(each event then runs once, agentdeck's); `agentdeck uninstall` puts it back",
               item=entry_id(str(hooks), "file", ()))
    elif inst.hooks_mode == "inline" and own_hooks:
        f.part("hooks", hooks, "kept",
               f"its hooks are inline in {host.display(hooks)}, beside agentdeck's: not taken "
               "over, so both tools' hooks run for each event (remove its entries yourself, or "
               f"`{tool.name} uninstall`)")
    if inst.sidecar and view.state(home / inst.sidecar).exists:
        side = view.load(home / inst.sidecar, "json")
        keys = sorted(side.data) if side.ok and isinstance(side.data, dict) else []
        f.part("managed settings sidecar", home / inst.sidecar, "kept",
               "its record of the settings keys it manages"
               + (f" ({', '.join(keys)}); those keys stay as they are" if keys else ""))
    # persona
    pfile = home / inst.persona_file
    ptext = view.load(pfile)
    if ptext.ok and ptext.text is not None and inst.persona_markers:
        try:
            span = find_block(ptext.text, *inst.persona_markers)
        except FormatError as e:
            span = None
            f.part("persona block", pfile, "kept",
                   f"its managed region is not well formed (line {e.line}: {e.msg}): agentdeck "
                   "does not touch it and adds its own persona beside it")
        if span is not None:
            f.persona = inst.persona_markers
            assert ptext.text is not None
            pid = entry_id(str(pfile), "block", ())
            if _kept_by_decision(host, pid, ptext.text, inst.persona_markers):
                f.part("persona block", pfile, "kept",
                       "you chose to keep it at an earlier apply: agentdeck writes no persona of "
                       "its own here (taking the item puts the profile's in its place)", item=pid)
            else:
                f.part("persona block", pfile, "decide",
                       "keep it (agentdeck writes no persona of its own here) or take the "
                       "profile's persona in its place (its block is kept to be put back by "
                       "uninstall)", item=pid)
    if f.persona is None and manifest_has_replaced(view, target, pfile):   # (theirs is not back)
        f.part("persona block", pfile, "replaced",
               "replaced by the profile's persona at an earlier apply (its block is in "
               "agentdeck's state dir); `agentdeck uninstall` puts it back")
    if (ptext.ok and ptext.text is not None and inst.persona_markers is None
            and tool.name in ptext.text.lower()):
        f.part("persona file", pfile, "kept",
               f"{possessive(tool.name)} persona is the whole file, without markers: agentdeck "
               "adds its own block at the top, so the CLI reads both (remove the one you do "
               "not want)")
    if inst.tool_table:
        rel, fmt = inst.tool_table
        cfg = view.load(home / rel, fmt)
        if cfg.ok and isinstance(cfg.data, dict) and tool.name in cfg.data:
            f.part("config table", home / rel, "kept",
                   f"its [{tool.name}] table in {rel} is kept; {inst.tool_table_note}")
    # env files and the shell block
    env_dir = host.home / tool.env_dir
    envs = sorted(n for n in host.listdir(env_dir) if n.endswith(".env"))
    bashrc = host.home / ".bashrc"
    btext = view.load(bashrc)
    has_block = bool(btext.ok and btext.text is not None and tool.bashrc_markers[0] in btext.text)
    if envs or has_block:
        f.part("env file and shell block", env_dir if envs else bashrc, "kept",
               (f"{', '.join(envs)} in {host.display(env_dir)}" if envs else "")
               + (" and " if envs and has_block else "")
               + (f"its block in {host.display(bashrc)} that sources them" if has_block else "")
               + "; kept as they are")
    # MCP servers
    for n in inst.mcp_servers:
        where = _server_file(view, target, home, n)
        if where is None:
            continue
        f.part("MCP server", where, "kept",
               f"kept as {tool.name} set it up" + (f" ({inst.mcp_note})" if inst.mcp_note else ""),
               name=n)
    return f


def _kept_by_decision(host, item_id: str, text: str, markers: tuple[str, str]) -> bool:
    """The operator kept this very region at an earlier apply (core/plan.py's kept decisions:
    item id -> fingerprint of the value kept; a region written since is to decide again)."""
    from ..formats.blocks import get_block
    from ..digest import sha256
    from ..plan import load_kept

    recorded = load_kept(host).get(item_id)
    if recorded is None:
        return False
    try:
        body = get_block(text, *markers)
    except FormatError:
        return False
    return body is not None and sha256(body) == recorded


def manifest_has_replaced(view: DiskView, target: str, path: Path) -> bool:
    """agentdeck's persona block at `path` took the place of another tool's region."""
    m = view.manifest(target, registry.spec(target).manifest_path(view.host))
    e = m.entries.get(entry_id(str(path), "block", ()))
    return bool(e is not None and e.prior_sha)


def _left_in_place(view: DiskView, path: Path) -> bool:
    """The operator skipped setting this file aside at an earlier apply, and it has not changed
    since (apply records the skip as a kept decision: plan.load_kept)."""
    from ..plan import load_kept
    st = view.state(path)
    return st.exists and load_kept(view.host).get(entry_id(str(path), "aside", ())) == f"sha:{st.sha}"


def _inline_hooks(view: DiskView, path: Path, name: str) -> bool:
    """The settings file marks itself as the tool's (`_managedBy`) and holds hooks."""
    ld = view.load(path, "json")
    data = ld.data if ld.ok and isinstance(ld.data, dict) else {}
    return bool(data.get("hooks")) and name in str(data.get("_managedBy", ""))


def _mentions(view: DiskView, path: Path, name: str) -> bool:
    ld = view.load(path)
    return bool(ld.ok and ld.text is not None and name in ld.text)


def _server_file(view: DiskView, target: str, home: Path, name: str) -> Path | None:
    """The file that configures MCP server `name` for `target`, when it does."""
    path, fmt, table = registry.part(target, "takeover").mcp_file(view.host)
    ld = view.load(path, fmt)
    servers = ld.data.get(table) if ld.ok and isinstance(ld.data, dict) else None
    return path if isinstance(servers, dict) and name in servers else None


# ---- what the adapters add -------------------------------------------------------------------

def add_aside_items(found: list[Found], st: DesiredState) -> set[str]:
    """The aside items (own-file hooks); returns the paths they set aside."""
    out: set[str] = set()
    for f in found:
        if f.aside is None:
            continue
        st.add(Desired(f.target, f.aside, "aside", None, label=f"{f.tool.name} hooks file",
                       group=GROUP,
                       reason=f"{possessive(f.tool.name)} hooks file registers the same events as "
                              "agentdeck's, so each would run twice: set aside (its bytes kept in "
                              "agentdeck's state dir), each event then runs once, agentdeck's; "
                              "`agentdeck uninstall` puts it back",
                       # what its hooks run: gone at uninstall (the tool removed itself), the
                       # file is not put back (plan._aside_put_back)
                       meta={"calls": str(f.home / f.install.hook_wrapper)}
                       if f.install.hook_wrapper else None))
        out.add(str(f.aside))
    return out


def kept_unless_set_aside(found: list[Found], aside: set[str]) -> None:
    """A hooks file found but not set aside (the profile registers no hooks of its own) is kept."""
    for f in found:
        for p in f.parts:
            if p["fate"] == "set aside" and p["path"] not in aside:
                p.update(fate="kept", item=None,
                         note="the profile registers no hooks here, so agentdeck leaves it running")


def persona_replaces(found: list[Found]) -> tuple[tuple[str, str] | None, str]:
    """(the markers of the region agentdeck's persona item replaces, the item's reason)."""
    for f in found:
        if f.persona:
            return f.persona, (
                f"{possessive(f.tool.name)} persona block is in this file: keep it (agentdeck adds no "
                "persona of its own here), or take the profile's persona in its place "
                f"({possessive(f.tool.name)} block is kept and `agentdeck uninstall` puts it back); your "
                "text outside the markers is kept")
    return None, ""


def tool_servers(found: list[Found]) -> set[str]:
    """MCP servers of an install being taken over: mcpDefaultDisabled leaves them as they are."""
    return {p["name"] for f in found for p in f.parts if p["what"] == "MCP server"}


def record(st: DesiredState, found: list[Found]) -> None:
    """Report the installs found in the adapter's output (TargetOutput.found)."""
    st.output.found = tuple(f.typed() for f in found)
