"""Files several CLIs share the shape of: agentdeck's persona block in a persona file, skill
folders (dangling links; the shared ~/.agents/skills reported once)."""
from __future__ import annotations

from pathlib import Path

from ..parts.doctor import Context, Out
from ...wording import count_of


def persona_markers(ctx: Context, out: Out, path: Path) -> None:
    from ...formats.blocks import BlockError, find_block
    from ..persona import PERSONA_MARKERS

    ld = ctx.read(path)
    if not ld.exists:
        out.ok(f"no {ctx.show(path)}")
        return
    if ld.error or ld.text is None:
        out.error(f"cannot read it: {ld.error}", path=path, line=ld.line)
        return
    try:
        span = find_block(ld.text, *PERSONA_MARKERS, path=str(path))
    except BlockError as e:
        out.error(f"agentdeck's persona markers are broken: {e.msg}; apply refuses to edit the file",
                  fix="leave exactly one begin and one end marker line (or delete both and "
                      "`agentdeck apply` adds the block again)", path=path, line=e.line)
        return
    out.ok("persona block intact" if span else "no agentdeck persona block (your own file)",
           path=path)


def skill_links(ctx: Context, out: Out, dirs: list[tuple[Path, str]]) -> None:
    """Dangling symlinks in skill folders. `dirs`: (folder, note such as "shared with Codex")."""
    found = 0
    for d, note in dirs:
        for name in ctx.host.listdir(d):
            p = d / name
            if not ctx.host.is_symlink(p):
                continue
            found += 1
            if not ctx.host.exists(p, follow=True):
                try:
                    target = ctx.host.readlink(p)
                except OSError:
                    target = "?"
                extra = f" ({note})" if note else ""
                out.warning(f"skill link {name} points at {ctx.show(target)}, which does not "
                            f"exist: the skill is silently missing{extra}",
                            fix=f"remove the link or restore its target (rm {ctx.show(p)})",
                            path=p)
    if not out.findings:
        where = ", ".join(str(ctx.show(d)) for d, _ in dirs)
        out.ok(f"{count_of(found, 'skill link')}, none dangling ({where})")


def _sharing() -> list[str]:
    """The targets that load the shared ~/.agents/skills (their doctor part says so)."""
    from .. import registry
    return [t for t in registry.NAMES if registry.has_part(t, "doctor")
            and getattr(registry.part(t, "doctor"), "SHARES_AGENTS_SKILLS", False)]


def shared_skills_owner(ctx: Context) -> str | None:
    """The target ~/.agents/skills is reported under: the first selected one that loads it."""
    sharing = _sharing()
    return next((t for t in ctx.targets if t in sharing), None)


def skill_dirs(ctx: Context, target: str, own: list[tuple[Path, str]]) -> list[tuple[Path, str]]:
    """Skill folders for `target`: the shared ~/.agents/skills when `target` is the one it is
    reported under (so it is reported once), then the target's `own` folders."""
    from .. import registry

    out: list[tuple[Path, str]] = []
    if target == shared_skills_owner(ctx):
        others = " and ".join(registry.spec(t).short for t in _sharing() if t != target)
        out.append((ctx.host.agents_skills_dir,
                    f"~/.agents/skills is shared with {others}" if others else ""))
    return out + list(own)
