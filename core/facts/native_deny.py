"""Each CLI's own deny for file paths, the one that holds without agentdeck's hook: facts as data.

Observed 2026-12-01 in real offline turns (a scripted model calling the named tool, scratch home,
no credentials; tests/clients/test_native_deny_real.py re-runs the Claude rows) for the versions
named. `source` is "observed" (run for real) or "documented" (the CLI's own help text only).

Claude Code 2.1.332 has such a layer in ~/.claude/settings.json `permissions.deny`; agentdeck
writes each [[policy.paths]] deny rule there (core/targets/claude/permissions.py). Copilot CLI
1.0.102 has one only as command-line flags or in enterprise-managed settings, and Codex 0.171.0
only inside a sandbox permission profile: agentdeck adds the rules to the operator's own profile
when config.toml selects one (core/targets/codex/permissions.py) and never writes Copilot's
(core/native_layers.py says which, per rule, for `policy show`).
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Fact:
    claim: str
    source: str            # observed | documented
    verified: str          # the CLI version it was observed for


# ---- Claude Code 2.1.332 ----------------------------------------------------------------------

CLAUDE_VERIFIED = "2.1.332"

#: how a rule path is written in a Read(...)/Edit(...) entry (observed)
CLAUDE_ROOTS = {
    "home": "~/",          # `Read(~/.ssh/id_*)` is the home directory ($HOME)
    "absolute": "//",      # `Read(//abs/path)`: a double slash is the filesystem root
}

#: the entry kinds, per access (observed): a Read deny stops the Read tool and also Edit/Write of
#: the file ("covered by a Read deny rule ... cannot be edited"); an Edit deny stops Edit and
#: Write but not Read; a `Write(...)` entry is accepted and enforces nothing
CLAUDE_ENTRY = {"read": "Read", "write": "Edit"}

#: the characters a rule path may hold for its Claude entry: `*`, `**`, `?` and positive classes
#: `[abc]` / `[a-z]` behave as in the rule; `[!x]` and `[^x]` are NOT negations there (a class
#: holding `!`/`^`), `{a,b}` is literal, and `(`/`)` would end the entry
CLAUDE_UNSUPPORTED = ("[!", "[^", "{", "}", "(", ")", "\\")

#: the alphabet agentdeck spells a "any character but c" class with (Claude has no negated class;
#: its matching is case-insensitive, so lower case covers upper case too). A name ending in a
#: character outside it is left to the hook.
CLAUDE_CLASS_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789._+@-"

CLAUDE: tuple[Fact, ...] = tuple(Fact(c, "observed", CLAUDE_VERIFIED) for c in (
    "permissions.deny in ~/.claude/settings.json holds in -p mode under bypassPermissions, "
    "--allowedTools and the default mode alike: the Read tool answers \"File is in a directory "
    "that is denied by your permission settings\" and returns nothing",
    "the deny does not depend on hooks: it holds with no hook registered",
    "`~/` is the home directory and `//` the filesystem root; a single leading `/` and a bare "
    "name are not the home or the root (`Read(/abs/...)`, `Read(id_rsa)`, `Read(**/id_rsa)` did "
    "not stop a read of ~/.ssh/id_rsa from another working directory)",
    "`*`, `**`, `?`, `[a-z]` and `[abc]` are globs; `[!b]` and `[^b]` are not negations; "
    "`{a,b}` is not an alternative",
    "gitignore-style: a pattern that matches a directory covers everything below it "
    "(`Read(~/.ss*)` denied ~/.ssh/id_rsa)",
    "matching is case-insensitive: `Read(~/.SSH/ID_*)` denied ~/.ssh/id_rsa",
    "paths are normalized and symlinks resolved before matching: ~/.ssh/./id_rsa, "
    "~/.ssh//id_rsa, ~/.ssh/../.ssh/id_rsa and a symlink to the key were denied",
    "an allow entry does not carve an exception out of a deny (deny wins), and there is no "
    "negation: `Read(!~/.ssh/*.pub)` did not re-allow id_rsa.pub",
    "a Read deny also stops Edit and Write of the file; an Edit deny stops Edit and Write but "
    "not Read; `Write(...)` entries are accepted and enforce nothing",
    "Read denies are also applied to simple Bash reads: cat, head, sed, awk, nl, base64, "
    "`cat < file`, `cd ~/.ssh && cat id_rsa`, `cat $HOME/...`, quoted paths, cp of the file, "
    "and `ls -l` of the file were denied",
    "Read denies are NOT applied to Bash globs (`cat ~/.ssh/id_r*`), recursive readers "
    "(`grep -r`, `tar`), interpreters (`python3 -c open(...)`) or unknown readers (`xxd`)",
    "Edit denies are applied to Bash writes: `>` redirection, rm, tee, cp onto the file; a "
    "Read deny alone is not (`>`, rm and tee of a Read-denied file ran; `sed -i` was denied)",
    "this version offers no Grep or Glob tool in -p mode (its tools: Agent, Bash, Edit, Read, "
    "Write, Skill, ToolSearch, ...): searches go through Bash",
))

# ---- GitHub Copilot CLI 1.0.102 ---------------------------------------------------------------

COPILOT_VERIFIED = "1.0.102"

COPILOT: tuple[Fact, ...] = (
    Fact("`--deny-tool 'read(PATH)'` (absolute, `~/`, a glob like `id_*`, or a bare name) stops "
         "the view tool (\"Permission to run this tool was denied due to the following rules\"); "
         "`write(PATH)` is its documented counterpart for file writes; neither applies to shell "
         "commands (`cat` of the file ran)", "observed", COPILOT_VERIFIED),
    Fact("those rules exist only as command-line flags: no environment variable or user "
         "setting carries them, so a home-level install cannot set them for every session",
         "observed", COPILOT_VERIFIED),
    Fact("settings.json `permissions.deny` is enterprise-managed only (its setting schema marks "
         "it managedOnly): in ~/.copilot/settings.json it is ignored (the view ran)",
         "observed", COPILOT_VERIFIED),
    Fact("`sandbox.userPolicy.filesystem.deniedPaths` applies to sandboxed shell commands only, "
         "needs `sandbox.enabled` and bubblewrap 0.5+ on Linux, and without bwrap the command ran "
         "unsandboxed and read the file", "observed", COPILOT_VERIFIED),
)

# ---- OpenAI Codex CLI 0.171.0 -----------------------------------------------------------------

CODEX_VERIFIED = "0.171.0"

CODEX: tuple[Fact, ...] = (
    Fact("a permission profile (`default_permissions = \"NAME\"`, `[permissions.NAME]` with "
         "`extends = \":workspace\"`, `[permissions.NAME.filesystem]` `\"PATH\" = \"none\"`) "
         "denies sandboxed shell commands the file (`cat: ...: Permission denied`, bundled "
         "bubblewrap), in `codex exec` too; `~/` and globs (`id_*`, `**`) are accepted",
         "observed", CODEX_VERIFIED),
    Fact("it is a sandbox: `--dangerously-bypass-approvals-and-sandbox` (how agentdeck's own "
         "turns and many operators run codex exec) switches it off and the file was read",
         "observed", CODEX_VERIFIED),
    Fact("a glob entry may only deny (`only supports deny access; use an exact path or trailing "
         "/** for read`): an exception such as `*.pub` = read is refused, the whole config with it",
         "observed", CODEX_VERIFIED),
    Fact("a profile cannot extend `:danger-full-access`: choosing one for the operator changes "
         "how every command runs, not only the protected paths", "observed", CODEX_VERIFIED),
    Fact("`\"PATH\" = \"none\"` denies reading and writing; an exact `\"PATH\" = \"read\"` "
         "denies writing (`Read-only file system`) and lets reading through; `[!c]` negates a "
         "class, `{a,b}` is literal, matching is case-sensitive", "observed", CODEX_VERIFIED),
    Fact("an entry for a path that does not exist is accepted and blocks creating it; inside the "
         "sandbox its missing parent directory then exists and cannot be made (`mkdir ~/.aws`: "
         "File exists)", "observed", CODEX_VERIFIED),
    Fact("an exact-path entry for a file that does not exist made `codex exec` fail to start "
         "the session in about half the runs (\"bwrap: Can't get type of source "
         ".../.ssh/config: No such file or directory\"); glob entries that match nothing, even "
         "under a missing folder, never did (12 runs, 6 with such globs): agentdeck writes "
         "every entry as a glob",
         "observed", CODEX_VERIFIED),
    Fact("two entries under one folder that does not exist (`~/.azure/a.json`, `~/.azure/b.json` "
         "with no ~/.azure) make every session fail to start: \"fs sandbox helper failed ... "
         "bwrap: Can't bind mount ... on .../.azure: No such file or directory\" (one such entry "
         "alone, or both once the folder exists, work)", "observed", CODEX_VERIFIED),
    Fact("`sandbox_mode = \"danger-full-access\"` in the same config.toml did not switch a "
         "selected default_permissions profile off (the read was still denied)",
         "observed", CODEX_VERIFIED),
)

FACTS = {"claude": CLAUDE, "copilot": COPILOT, "codex": CODEX}
VERIFIED = {"claude": CLAUDE_VERIFIED, "copilot": COPILOT_VERIFIED, "codex": CODEX_VERIFIED}

#: per target: the native layer agentdeck writes a [[policy.paths]] deny rule into, or None and why
LAYER = {
    "claude": {"name": "Claude Code permissions.deny (~/.claude/settings.json)",
               "written": True},
    "copilot": {"name": None, "written": False,
                "why": "Copilot CLI 1.0.102 takes path denies only as --deny-tool flags or from "
                       "enterprise-managed settings; the hook is the only layer agentdeck installs"},
    "codex": {"name": "Codex permission profile (config.toml [permissions.<yours>.filesystem])",
              "written": "conditional",
              "why": "only when config.toml's default_permissions names a profile you defined "
                     "(agentdeck never chooses one: it changes how every command runs), and only "
                     "for sandboxed shell commands (not under "
                     "--dangerously-bypass-approvals-and-sandbox); otherwise the hook is the only "
                     "layer (`agentdeck plan` says which)"},
}
