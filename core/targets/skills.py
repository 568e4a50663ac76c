"""Skills, commands and agents, translated for a target.

Skills (shared by Copilot and Codex, docs/facts/copilot.md sections 1 and 10):

- each profile skill `skills/<name>/` is copied into a folder agentdeck owns,
  `<state dir>/skills/<name>/` (one "file" item per file, executable bits kept), and
  `~/.agents/skills/<name>` becomes a symlink to that copy (a "link" item; an existing link or
  real folder of that name is the operator's and is kept). Linking into the profile folder
  itself would break when a source checkout (where the bundled profiles live) moves;
- each command `commands/<name>.md` becomes a skill folder `~/.agents/skills/<name>/SKILL.md`
  with `name` and `description` frontmatter (the description is at most 1024 characters). A
  command loses `/name` invocation and becomes model-discoverable instead.

The bytes of a link and of a SKILL.md depend only on the profile, never on the target writing
them, so when Copilot and Codex both install the same skill the engine plans it once and records
both owners; removing it from one target releases it while the other still owns it.

Reaping: the engine removes a SKILL.md only when the file on disk is exactly what agentdeck
recorded, and never follows or deletes a symlink it did not write. A skill name already taken by
a symlink in ~/.agents/skills wins over a translated command: the command is not written there
(writing `<link>/SKILL.md` would write into the operator's own folder), and the plan says so.

Agents are translated by the target that has them (Copilot's: core/targets/copilot/agents.py),
with the frontmatter parser, `clip` and `yaml_str` from here.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from ..desired import Desired
from ..errors import UserError
from ..model import check_name
from .output import SkillCommand, SkillLink, SkillsInfo

DESCRIPTION_MAX = 1024


def safe_name(name: str, what: str) -> str:
    """A name that becomes a path component; a separator or `..` is a clear error."""
    try:
        return check_name(name, what)
    except ValueError as e:
        raise UserError(str(e)) from None


# ---- frontmatter ---------------------------------------------------------------------------------

_FM_RE = re.compile(r"\A---[ \t]*\r?\n(.*?)\r?\n---[ \t]*(?:\r?\n|\Z)", re.S)


@dataclass
class Doc:
    """A markdown file's front matter (its keys in order) and body."""
    meta: dict[str, object] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)
    body: str = ""


def _scalar(s: str) -> object:
    s = s.strip()
    if not s:
        return ""
    if s[0] == '"' and s.endswith('"') and len(s) >= 2:
        try:
            return json.loads(s)
        except ValueError:
            return s[1:-1]
    if s[0] == "'" and s.endswith("'") and len(s) >= 2:
        return s[1:-1].replace("''", "'")
    if s[0] == "[" and s.endswith("]"):
        inner = s[1:-1].strip()
        return [str(_scalar(x)) for x in split_list(inner)] if inner else []
    return s


def split_list(s: str) -> list[str]:
    """Split a flow list or a comma string on commas outside quotes and parentheses."""
    out, cur, depth, quote = [], [], 0, ""
    for ch in s:
        if quote:
            cur.append(ch)
            if ch == quote:
                quote = ""
            continue
        if ch in "\"'":
            quote = ch
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        elif ch == "," and depth == 0:
            out.append("".join(cur).strip())
            cur = []
            continue
        cur.append(ch)
    if "".join(cur).strip():
        out.append("".join(cur).strip())
    return [x for x in out if x]


def parse_frontmatter(text: str) -> Doc:
    """The small YAML subset agent and command files use: `key: value`, flow lists `[a, b]`,
    block lists (`- a`), quoted strings, and folded/literal blocks (`>`/`|`) read as text."""
    m = _FM_RE.match(text)
    if not m:
        return Doc(body=text)
    doc = Doc(body=text[m.end():])
    lines = m.group(1).splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        km = re.match(r"^([A-Za-z_][A-Za-z0-9_-]*)\s*:(.*)$", line)
        if not km:
            continue
        key, rest = km.group(1), km.group(2).strip()
        if rest in ("|", ">", "|-", ">-", "|+", ">+"):
            block = []
            while i < len(lines) and (not lines[i].strip() or lines[i].startswith((" ", "\t"))):
                block.append(lines[i].strip())
                i += 1
            value: object = ("\n" if rest.startswith("|") else " ").join(block).strip()
        elif rest == "":
            items = []
            while i < len(lines) and re.match(r"^\s*-\s", lines[i]):
                items.append(str(_scalar(re.sub(r"^\s*-\s", "", lines[i]))))
                i += 1
            value = items if items else ""
        else:
            value = _scalar(rest)
        if key not in doc.meta:
            doc.order.append(key)
        doc.meta[key] = value
    return doc


def yaml_str(s: str) -> str:
    """A YAML scalar that reads back as exactly s (JSON strings are valid YAML)."""
    return json.dumps(s, ensure_ascii=False)


def first_line(body: str) -> str:
    for line in body.splitlines():
        s = line.strip().lstrip("#").strip()
        if s:
            return s
    return ""


def clip(s: str, limit: int) -> str:
    s = " ".join(s.split())
    if len(s) <= limit:
        return s
    cut = s[: limit - 1].rsplit(" ", 1)[0] or s[: limit - 1]
    return cut + "…"


# ---- commands -> skills ----------------------------------------------------------------------------

@dataclass
class Translated:
    """A command file as a SKILL.md, and what the translation warns about."""
    text: str
    warnings: list[str] = field(default_factory=list)


def command_skill(name: str, text: str) -> Translated:
    """A command file as a SKILL.md (target-neutral bytes)."""
    safe_name(name, "command name")
    doc = parse_frontmatter(text)
    warnings = []
    desc = doc.meta.get("description")
    if not isinstance(desc, str) or not desc.strip():
        desc = first_line(doc.body) or f"The {name} command."
        warnings.append(f"command {name} has no description; using its first line")
    desc_c = clip(desc, DESCRIPTION_MAX)
    if desc_c != " ".join(desc.split()):
        warnings.append(f"command {name}: description cut to {DESCRIPTION_MAX} characters")
    body = doc.body.lstrip("\n")
    if not body.endswith("\n"):
        body += "\n"
    out = (f"---\nname: {yaml_str(name)}\ndescription: {yaml_str(desc_c)}\n---\n"
           f"<!-- Written by agentdeck from the profile's command `{name}`; edit the profile. -->\n"
           f"{body}")
    return Translated(out, warnings)


def skill_copy(target: str, name: str, source: str, view, st) -> str:
    """Plan the copy of the skill folder `source` into `<state dir>/skills/<name>/` (one file
    item per file, read through the view) and return the folder the skill link should name.
    A skill with a file that is not UTF-8 text (or a folder that cannot be listed) is linked to
    `source` as before, with a warning: agentdeck's file items hold text."""
    host = view.host
    dest = host.state_dir / "skills" / name
    files: list[tuple[Path, PurePosixPath]] = []

    def walk(folder: Path, rel: PurePosixPath, depth: int = 0) -> None:
        for fn in host.listdir(folder):
            p = folder / fn
            s = view.state(p)
            if s.is_dir and depth < 8:
                walk(p, rel / fn, depth + 1)
            elif s.exists:
                files.append((p, rel / fn))

    walk(Path(source), PurePosixPath())
    items = []
    for p, rel in files:
        try:
            text = view.text(p)
        except UserError as e:
            st.warn(f"skill {name}: {host.display(p)} is not copied ({e.msg}); the skill is linked "
                    f"to {host.display(source)} and breaks if that folder moves")
            return source
        mode = view.state(p).mode or 0
        items.append(Desired(target, dest / rel, "file", text,
                             mode=0o755 if mode & 0o111 else None,
                             label=f"skill {name}: {rel}", group="skills",
                             reason=f"the profile's skill, copied where agentdeck keeps it so the "
                                    f"link survives the profile folder moving"))
    if not items:
        return source
    for d in items:
        st.add(d)
    return str(dest)


def shared_skill_items(target: str, profile, view, st, why_command: str) -> SkillsInfo:
    """The ~/.agents/skills items every target that shares that folder plans (Copilot, Codex):
    profile skills as links, commands as <name>/SKILL.md folders. Same paths, kinds and bytes
    whichever target plans them, so when both are planned or applied the engine merges them into
    one item with two owners. Returns the report (SkillsInfo, no agents: a target that writes
    agents adds them). Links are read through `view` (the one reader)."""
    host = view.host

    sk_dir = host.agents_skills_dir
    links: list[SkillLink] = []
    commands: list[SkillCommand] = []
    for name in sorted(profile.skills):
        safe_name(name, "skill name")
        target_dir = skill_copy(target, name, profile.skills[name], view, st)
        link = sk_dir / name
        state = "ours" if view.link(link) == target_dir else (
            "yours (kept)" if view.present(link) else "new")
        links.append(SkillLink(name, target_dir, state))
        reason = "the profile's skill, linked into the shared ~/.agents/skills"
        if state != "ours" and view.link(link) is not None:
            reason = (f"the profile's skill; {host.display(link)} already links to "
                      f"{host.display(view.link(link))}, and an existing skill of that "
                      "name wins")
        elif state != "ours" and view.present(link):
            reason = (f"the profile's skill; {host.display(link)} is a real folder, and an "
                      "existing skill of that name wins")
        st.add(Desired(target, link, "link", target_dir, label=f"skill {name}", group="skills",
                       reason=reason))
    for name in sorted(profile.commands):
        safe_name(name, "command name")
        folder = sk_dir / name
        if name in profile.skills:
            st.warn(f"command {name} is not installed as a skill: the profile has a skill of the "
                    "same name, and the skill wins")
            continue
        if view.link(folder) is not None:
            st.warn(f"command {name} is not installed as a skill: {host.display(folder)} is a "
                    f"symlink (-> {view.link(folder)}) and an existing symlinked skill wins")
            commands.append(SkillCommand(name, str(folder / "SKILL.md"),
                                         "skipped: symlinked skill of that name"))
            continue
        tr = command_skill(name, profile.commands[name])
        path = folder / "SKILL.md"
        commands.append(SkillCommand(name, str(path), "planned", tuple(tr.warnings)))
        st.add(Desired(target, path, "file", tr.text, label=f"command {name} as a skill",
                       group="skills", warnings=tr.warnings, reason=why_command))
    return SkillsInfo(dir=str(sk_dir), links=tuple(links), commands=tuple(commands))
