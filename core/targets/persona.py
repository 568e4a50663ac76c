"""The persona every target gets: a preamble, the profile chain's AGENTS.md, the compiled rules.
Assembled once, identically for each target (only the preamble names the CLI), so re-runs are
byte-stable."""
from __future__ import annotations

from ..model import Profile

PERSONA_MARKERS = (
    "<!-- agentdeck:begin (managed by agentdeck; edit your profile, not this block) -->",
    "<!-- agentdeck:end -->",
)


def build_persona(profile: Profile, cli_title: str) -> str:
    parts = [f"# Instructions for {cli_title}\n\nAssembled by agentdeck from profile "
             f"`{profile.name}` ({' > '.join(profile.chain)}). Text outside this block is yours "
             "and is kept as it is.\n"]
    for name, text in profile.personas:
        body = text.strip("\n")
        if body:
            parts.append(body + "\n")
    if profile.rules:
        rules = ["## Rules\n"]
        for rname in sorted(profile.rules):
            body = profile.rules[rname].strip("\n")
            if body:
                rules.append(f"### {rname}\n\n{body}\n")
        parts.append("\n".join(rules))
    return "\n".join(parts)
