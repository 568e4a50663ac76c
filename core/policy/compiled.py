"""The compiled policy: the profile's [policy] as the JSON document the hook handler reads.

The handler must stay near bare Python start-up, so it never parses profile.toml or imports
pydantic: the install writes this document (a desired `file` item of each target's plan) and
the handler reads it with `json` alone.

Where it lives (one rule, in `policy_path`):
  a target (its home)      <state dir>/policy/<target>.json (0600); the wrapper exports
                           AGENTDECK_STATE_DIR and AGENTDECK_TARGET, so the handler finds it
  repo (--repo DIR)        <repo>/.github/agentdeck/policy.json (0644, committed; NOT in
                           .github/hooks/, where Copilot loads every *.json as a hook file and
                           rejects this one); the repo hooks run with cwd = the repo root
  AGENTDECK_POLICY=<file>  overrides both (tests, and any other caller)

The handler reads it in core.hookhandler.load_policy (the one module allowed its own file access:
it runs on every tool call with no Host object).

Document (format 2):
  {"format": 2, "target": "copilot", "on_error": "allow" | "deny",
   "unresolved": "ask" | "deny" | "allow", "home": "/home/me" (not for repo),
   "mcp_servers": [the profile's server names, for a CLI whose MCP tool names carry no prefix
                   (its dialect part's MCP_NAMES guess "servers": Copilot's)],
   "rules": [{"id", "tool", "match" | "command" + "args", "decision", "reason"}, ...],
   "paths": [{"id", "paths", "except", "access", "decision", "reason", "builtin"?}, ...]}
`~` stays in the globs: the handler expands it from the CLI's HOME (the repository's document
is committed and read on other machines), falling back to "home".
"""
from __future__ import annotations

import json
import os
import re
from pathlib import Path

from ..errors import UserError
from ..host import HostError

# where the calling hooks' compiled policy is: with the callers' speakers, so the handler finds
# it without importing this module
from ..targets.dialects import policy_path  # noqa: F401
from .asks import ask_notices
from .programs import OWN_GUARD_COMMANDS
from .vocabulary import SELF_RULE  # noqa: F401  (re-exported: the rule id)
from ..wording import count_of


FORMAT = 2
SELF_COMMAND_RULE = "agentdeck-self-commands"
FILE_NAME = "policy.json"
REPO_PATH = os.path.join(".github", "agentdeck", FILE_NAME)
ON_ERROR_DEFAULT = "deny"           # the profile schema's default (core/schema.py Policy)
UNRESOLVED_DEFAULT = "ask"


# ---- the profile side (install time) -----------------------------------------------------------
def policy_of(profile) -> dict | None:
    """The profile's [policy] as plain data ({"on_error", "rules": [...]}) or None when it has
    none. Accepts the schema's model (profile.policy) or a plain dict."""
    pol = getattr(profile, "policy", None) if not isinstance(profile, dict) else profile.get("policy")
    if pol is None:
        return None
    if hasattr(pol, "model_dump"):
        pol = pol.model_dump(exclude_none=True)
    if not isinstance(pol, dict):
        return None
    rules, paths = [], []
    for r in pol.get("rules") or []:
        if hasattr(r, "model_dump"):
            r = r.model_dump(exclude_none=True)
        rules.append(dict(r))
    for r in pol.get("paths") or []:
        if hasattr(r, "model_dump"):
            r = r.model_dump(exclude_none=True)
        r = dict(r)
        if "except_" in r:
            r["except"] = r.pop("except_")
        paths.append(r)
    protect = pol.get("protect_agentdeck")
    return {"on_error": pol.get("on_error") or ON_ERROR_DEFAULT,
            "unresolved": pol.get("unresolved") or UNRESOLVED_DEFAULT,
            "inline_code": pol.get("inline_code") or "allow",
            "protect_agentdeck": True if protect is None else bool(protect),
            "rules": rules, "paths": paths}


def check_path_rule(r) -> str | None:
    """Why a [[policy.paths]] entry (as data) cannot be used, or None."""
    from .rules import DECISIONS

    if not isinstance(r, dict):
        return "a path rule must be a table"
    if not isinstance(r.get("id"), str) or not r["id"]:
        return "a path rule needs an id"
    globs = r.get("paths")
    if not isinstance(globs, list) or not globs or not all(isinstance(g, str) and g for g in globs):
        return "paths must be a non-empty list of globs"
    if not isinstance(r.get("except", []), list):
        return "except must be a list of globs"
    acc = r.get("access", ["read", "write"])
    if not isinstance(acc, list) or not acc or any(a not in ("read", "write") for a in acc):
        return "access must list read and/or write"
    if r.get("decision", "deny") not in DECISIONS:
        return f"decision {r.get('decision')!r} is not one of {', '.join(DECISIONS)}"
    return None


def compile_policy(policy: dict, target: str, *, home: str | None = None,
                   protect: list[str] | None = None, mcp_servers: list[str] | None = None) -> str:
    """The compiled document's text for one target (byte-stable for equal input). `protect`:
    the guard's own files (self_protection), written as the built-in rule agentdeck-self when
    the policy's protect_agentdeck is on."""
    from .rules import DECISIONS, check_rule

    rules = []
    seen: set[str] = set()
    for r in policy.get("rules") or []:
        why = check_rule(r)
        if why:
            raise ValueError(f"policy rule {r.get('id') if isinstance(r, dict) else r!r}: {why}")
        if r["id"] in seen:
            raise ValueError(f"policy rule {r['id']!r}: the id is used twice")
        seen.add(r["id"])
        out = {"id": r["id"], "tool": r.get("tool", "any")}
        if r.get("command") is not None:
            names = r["command"]
            out["command"] = [names] if isinstance(names, str) else list(names)
            out["args"] = list(r.get("args") or [])
        else:
            out["match"] = r["match"]
        out.update(decision=r["decision"], reason=r.get("reason") or "")
        rules.append(out)
    paths = []
    for r in policy.get("paths") or []:
        why = check_path_rule(r)
        if why:
            raise ValueError(f"policy path {r.get('id') if isinstance(r, dict) else r!r}: {why}")
        if r["id"] in seen:
            raise ValueError(f"policy rule {r['id']!r}: the id is used twice")
        seen.add(r["id"])
        paths.append({"id": r["id"], "paths": list(r["paths"]), "except": list(r.get("except") or []),
                      "access": list(r.get("access") or ["read", "write"]),
                      "decision": r.get("decision", "deny"), "reason": r.get("reason") or ""})
    if protect and policy.get("protect_agentdeck", True):
        paths.append({"id": SELF_RULE, "paths": _self_order(protect), "except": [],
                      "access": ["write"], "decision": "deny", "builtin": True,
                      "reason": "agentdeck's guard protects its own files and each CLI's hook "
                                "settings (set [policy] protect_agentdeck = false to allow)"})
        why = ("agentdeck changes (or removes) its own guard only when you run it yourself, "
               "not through an agent")
        rules.append({"id": SELF_COMMAND_RULE, "tool": "shell", "command": ["agentdeck"],
                      "args": ["|".join(OWN_GUARD_COMMANDS)], "decision": "deny", "builtin": True,
                      "reason": why})
        rules.append({"id": SELF_COMMAND_RULE + "-uninstall", "tool": "shell",
                      "command": ["pip", "pip3", "pipx", "uv"],
                      "args": ["uninstall|remove", "agentdeck"], "decision": "deny",
                      "builtin": True, "reason": why})
    on_error = policy.get("on_error") or ON_ERROR_DEFAULT
    if on_error not in ("allow", "deny"):
        raise ValueError(f"policy on_error {on_error!r} is not allow or deny")
    unresolved = policy.get("unresolved") or UNRESOLVED_DEFAULT
    if unresolved not in DECISIONS:
        raise ValueError(f"policy unresolved {unresolved!r} is not one of {', '.join(DECISIONS)}")
    doc = {"format": FORMAT, "target": target, "on_error": on_error, "unresolved": unresolved}
    if policy.get("inline_code") == "ask":       # absent: allow (earlier documents stay the same)
        doc["inline_code"] = "ask"
    if home:
        doc["home"] = home
    if mcp_servers:
        doc["mcp_servers"] = sorted(mcp_servers)
    doc["rules"] = rules
    doc["paths"] = paths
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


#: the user's shell start-up and session environment files: what they define runs in place of
#: every later command (Claude Code sources the user's shell set-up before each Bash call: a
#: `git()` function written into ~/.bashrc ran instead of `git status` in a real turn), and what
#: they export reaches every CLI started from that shell (`CLAUDE_CONFIG_DIR`, `OPENCODE_PURE`,
#: `BASH_ENV`): a layer that can switch the guard off, as each CLI's own settings files are
SHELL_STARTUP = ("~/.bashrc", "~/.bash_profile", "~/.bash_login", "~/.bash_logout", "~/.profile",
                 "~/.bash_aliases", "~/.zshrc", "~/.zshenv", "~/.zprofile", "~/.zlogin",
                 "~/.zlogout", "~/.kshrc", "~/.mkshrc", "~/.cshrc", "~/.tcshrc", "~/.login",
                 "~/.config/fish/config.fish", "~/.config/fish/conf.d/**",
                 "~/.config/fish/functions/**", "~/.pam_environment",
                 "~/.config/environment.d/**",
                 # the start-up files of programs a later, innocent-looking call runs: Python's
                 # user site (a .pth line starting with `import` and usercustomize.py run in
                 # every interpreter that is not a venv's or -I/-s), IPython's startup folder,
                 # curl's and wget's default options (an option there reads or sends a file),
                 # tmux's, sqlite3's, psql's and irb's start-up commands, the desktop session's
                 # autostart entries and the user's systemd units
                 "~/.local/lib/python3*/site-packages/*.pth",
                 "~/.local/lib/python3*/site-packages/usercustomize.py",
                 # and any environment's site-packages (a project's .venv: its python runs a
                 # .pth's `import` line and sitecustomize.py at every start; red team round 4)
                 "**/site-packages/*.pth", "**/site-packages/sitecustomize.py",
                 "**/site-packages/usercustomize.py",
                 "~/.ipython/profile_*/startup/**", "~/.curlrc", "~/.config/curlrc",
                 "~/.wgetrc", "~/.tmux.conf", "~/.config/tmux/tmux.conf", "~/.sqliterc",
                 "~/.psqlrc", "~/.irbrc", "~/.config/autostart/**",
                 # vim's and gdb's start-up files (not read at decision time; red team round 7
                 # ran a command from each through a later `vim -c q` or `gdb -batch`)
                 "~/.vimrc", "~/.vim/**", "~/.exrc", "~/.config/nvim/**", "~/.gdbinit",
                 "~/.config/gdb/**",
                 "~/.config/systemd/user/**",
                 # files a program sources or runs as code at its start (red team round 9: a
                 # line written there ran through a later `mvn -v`, `sensible-editor x`, `less
                 # f`, `python3 -m pdb f` or `kubectl get pods`): Maven's mavenrc (shell),
                 # sensible-editor's choice (shell), less's key file (its #env LESSOPEN runs),
                 # pdb's start-up commands (Python), kubectl's config (its exec plugins)
                 "~/.mavenrc", "~/.selected_editor", "~/.lesskey", "~/.config/lesskey",
                 "~/.pdbrc", "**/.pdbrc", "~/.kube/config",
                 # the home's own folders on PATH: a program written there (`~/.local/bin/git`)
                 # runs in place of the one a later call, or the CLI itself, names (red team
                 # round 4)
                 "~/.local/bin/**", "~/bin/**",
                 # and the tool managers' folders that put themselves first on PATH (round 12:
                 # a `git` in ~/.cargo/bin ran for a later plain `git status`)
                 "~/.cargo/bin/**", "~/.pyenv/shims/**", "~/.pyenv/bin/**", "~/go/bin/**",
                 "~/.rbenv/shims/**", "~/.nodenv/shims/**", "~/.volta/bin/**", "~/.bun/bin/**",
                 "~/.deno/bin/**", "~/.npm-global/bin/**", "~/.yarn/bin/**",
                 "~/.local/share/pnpm/**", "~/.nix-profile/bin/**", "~/.dotnet/tools/**",
                 "~/.asdf/shims/**", "~/.local/share/mise/shims/**")
#: what every process the CLI starts, the wrapper and the handler included, loads or sources
#: before any check of agentdeck's, outside the home (a model running as root reached each in
#: red team round 5): the dynamic loader's preload list and configuration, and the system-wide
#: shell start-up files. (The shells, `env`, the loader and the C library themselves are not
#: here: they are named as arguments everywhere, `docker exec -it c /bin/bash`, and a program
#: whose role is not known counts as writing what it is given; docs/policy.md says so.)
#: prefixes an interpreter shares with the rest of the system: only its own files there are
#: the handler's code (_base_stdlib)
SYSTEM_PREFIXES = frozenset({"/", "/usr", "/usr/local"})

SYSTEM_RUNTIME = ("/etc/ld.so.preload", "/etc/ld.so.conf", "/etc/ld.so.conf.d/**",
                  "/etc/ld.so.cache", "/etc/profile", "/etc/profile.d/**", "/etc/bash.bashrc",
                  "/etc/bashrc", "/etc/environment", "/etc/zsh/**",
                  # and the system-wide start-up files of programs a later call runs (red team
                  # round 9, as root): Debian's Python sitecustomize and the system
                  # site-packages' .pth files (an `import` line runs in every python), gdb's
                  # system init and auto-load scripts, wget's, tmux's, git's, npm's, Maven's,
                  # vim's, less's and readline's system files, man's configuration (its
                  # programs), and bash's command-not-found handler
                  "/etc/python3*/**", "/usr/lib/python3/dist-packages/*.pth",
                  "/usr/local/lib/python3*/dist-packages/*.pth", "/etc/gdb/**",
                  "/usr/share/gdb/auto-load/**", "/etc/wgetrc", "/etc/tmux.conf",
                  "/etc/gitconfig", "/etc/npmrc", "/usr/etc/npmrc", "/usr/local/etc/npmrc",
                  "/etc/mavenrc", "/usr/local/etc/mavenrc", "/etc/vim/**", "/etc/sysless",
                  "/etc/lesskey", "/etc/inputrc", "/etc/manpath.config",
                  "/usr/lib/command-not-found",
                  # red team round 10: glibc's character-set converters (gconv), which the
                  # handler's interpreter loads (a module listed there is a shared library run
                  # in every program that converts text: the guard off), git's default hook
                  # templates (copied into every new repository and run), and the
                  # alternatives' links (`awk` is /etc/alternatives/awk)
                  "/usr/lib/*/gconv/**", "/usr/lib/gconv/**", "/usr/lib64/gconv/**",
                  "/usr/share/git-core/templates/**", "/etc/alternatives/**",
                  # red team round 11: the name service's configuration and modules (a
                  # `libnss_*.so.2` it names is loaded into the handler when a word names
                  # `~user`), and the compiled locales (a glob's `[[:upper:]]` is the locale's)
                  "/etc/nsswitch.conf", "/usr/lib/*/libnss_*", "/lib/*/libnss_*",
                  "/usr/lib64/libnss_*", "/lib64/libnss_*", "/usr/lib/locale/**",
                  "/usr/share/i18n/**")


def self_protection(host, target: str, root=None) -> list[str]:
    """The guard's own files as globs (`~/...` inside the home): agentdeck's state and config
    dirs (compiled policies, manifests, operator profiles), each CLI's hook registrations,
    wrappers and hook settings, and the handler with the environment it runs from."""
    from ..targets.wrapper import own_handler

    home = str(host.home).rstrip("/")

    def g(p) -> str:
        p = str(p)
        return "~" + p[len(home):] if p == home or p.startswith(home + "/") else p

    out = [g(host.state_dir) + "/**", g(host.state_dir), g(host.config_dir) + "/**"]
    out += _guarded(host, g) + list(SHELL_STARTUP) + list(SYSTEM_RUNTIME)
    if target == "repo":    # committed and read on other machines: nothing of this machine's
        return [p for p in out if p.startswith("~")] + ["**/.github/agentdeck/**",
                                                         "**/.github/hooks/**"]
    # the code the handler runs, wherever it lives (a pipx or project venv, an editable
    # checkout, a venv outside the home as the README installs it): its package, the handler,
    # its interpreter and the environment they share. A write there (a file, a .pth, `pip
    # uninstall`: programs.uninstall_writes) would change or remove the guard's code. Code a
    # user cannot write (a root-owned install) is protected by the file system anyway.
    code = [os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + "/**"]
    handler = own_handler(host)
    if handler:
        from ..targets.wrapper import python_of   # local: as own_handler above (install time only)
        code.append(handler)
        python = python_of(host, handler)
        for exe in (handler, python):
            if not exe:
                continue
            env_root = os.path.dirname(os.path.dirname(exe))
            if host.exists(Path(env_root) / "pyvenv.cfg"):
                code.append(env_root + "/**")
                code.append(env_root)
                code += _base_stdlib(host, Path(env_root) / "pyvenv.cfg")
            elif exe == python:
                code.append(python)
    return out + [g(c) for c in dict.fromkeys(code)]


def _self_order(protect: list[str]) -> list[str]:
    """The self-protected paths, each once: the patterns of the CLIs' and agentdeck's files
    sorted, then the guard's code (absolute paths outside /etc: its package, handler, venv) in
    the order they were found, so the list reads the same wherever agentdeck is installed."""
    first = {p: i for i, p in reversed(list(enumerate(protect)))}

    def key(p: str) -> tuple[bool, int, str]:
        code = p.startswith("/") and not p.startswith("/etc/")
        return (code, first[p] if code else 0, p)
    return sorted(first, key=key)


def _base_stdlib(host, cfg: Path) -> list[str]:
    """The standard library of the interpreter a venv was made from (pyvenv.cfg's `home` and
    `version`): the venv's Python imports from it (a `sitecustomize.py` dropped there runs in
    the handler, `-I` or not), so it is the handler's code too. [] when the file does not say."""
    try:
        text = (host.read_bytes(cfg, limit=64 * 1024) or b"").decode("utf-8", "replace")
    except (HostError, OSError, UserError):
        return []
    conf = {k.strip(): v.strip() for k, _, v in
            (line.partition("=") for line in text.splitlines()) if k.strip()}
    home, version = conf.get("home", ""), conf.get("version") or conf.get("version_info", "")
    major_minor = ".".join(version.split(".")[:2])
    if not (os.path.isabs(home) and re.fullmatch(r"\d+\.\d+", major_minor)):
        return []
    prefix = os.path.dirname(home.rstrip('/'))
    lib = f"{prefix}/lib/python{major_minor}"
    bin_dir = home.rstrip('/')
    if prefix not in SYSTEM_PREFIXES:
        # an installation of its own (pyenv, uv, /opt/python): all of it is the handler's code.
        # Red team round 9 switched the guard off through what the narrower list below left
        # out there: a libpython in the loader's earlier folders of the interpreter's RUNPATH
        # (lib/glibc-hwcaps/x86-64-v2/, lib/tls/, lib/x86_64/), a libc.so.6 in lib/ itself,
        # and bin/pybuilddir.txt, which makes Python take its standard library from bin/Lib
        return [prefix + "/**", prefix]
    # the system's: the standard library, and what the interpreter reads before any of it:
    # the zipped standard library first on sys.path even under -I (absent, so a file made
    # there is imported: a sitecustomize.py in it ran), the interpreter binary the venv's
    # python links to, its shared library, and the landmarks Python's start-up (getpath)
    # looks for beside it: a pyvenv.cfg, a build tree's pybuilddir.txt, Lib/ and Modules/
    return [lib + "/**", lib, f"{prefix}/lib/python{major_minor.replace('.', '')}.zip",
            f"{bin_dir}/python{major_minor}", f"{bin_dir}/python3",
            f"{prefix}/lib/libpython{major_minor}*", f"{bin_dir}/pybuilddir.txt",
            f"{bin_dir}/pyvenv.cfg", f"{prefix}/pyvenv.cfg", f"{bin_dir}/Lib/**",
            f"{bin_dir}/Modules/**"]


def _guarded(host, g) -> list[str]:
    """The files each target's policy part names as its GUARDED (core/targets/parts/policy.py):
    relative to the target's home, or a `**/` glob as it is; in the registry's order."""
    from ..targets import registry

    out: list[str] = []
    for spec in registry.TARGETS:
        if not registry.has_part(spec.name, "policy"):
            continue
        home = spec.home(host)
        part = registry.part(spec.name, "policy")
        for rel in getattr(part, "GUARDED", ()):
            out.append(rel if rel.startswith("**/") else g(home / rel))
        at = getattr(part, "guarded_paths", None)      # files outside the CLI's home
        out += [g(p) for p in (at(host) if at else ())]
    return out


def _names_mcp_by_server(target: str) -> bool:
    """Whether the target's hooks name an MCP tool so that only a known server's spelling says
    it is one (its dialect part's MCP_NAMES.guess "servers": no prefix): then the compiled
    policy carries the profile's server names (mcp_servers) for the handler."""
    from ..targets import registry

    if target not in registry.BUILTIN or not registry.has_part(target, "dialect"):
        return False
    naming = getattr(registry.part(target, "dialect"), "MCP_NAMES", None)
    return naming is not None and naming.guess == "servers"


def desired_item(profile, host, target: str, root=None):
    """The compiled policy as a desired `file` item for `target`'s plan, or None when the
    profile has no rule (then no file: the handler allows every call and records it, whatever
    on_error says). `root`: the repository (target "repo")."""
    pol = policy_of(profile)
    if pol is None or not (pol["rules"] or pol["paths"]):
        return None          # nothing to enforce: no file, the handler allows and records
    from ..desired import Desired

    servers = (sorted((getattr(profile, "mcp_servers", None) or {}).keys())
               if _names_mcp_by_server(target) else [])
    try:
        text = compile_policy(pol, target, home=None if target == "repo" else str(host.home),
                              protect=self_protection(host, target, root),
                              mcp_servers=servers)
    except ValueError as e:
        raise UserError(str(e)) from None
    n = len(pol["rules"]) + len(pol["paths"])
    if target == "repo":
        path, mode = Path(root) / REPO_PATH, 0o644
        why = ("the profile's [policy] for the repository's hooks (committed beside the wrapper: "
               f"Copilot CLI, VS Code and the cloud agent enforce it); {count_of(n, 'rule')}")
    else:
        path, mode = Path(host.state_dir) / "policy" / f"{target}.json", 0o600
        why = f"the profile's [policy] as agentdeck's hook handler reads it; {count_of(n, 'rule')}"
    return Desired(target, path, "file", text, mode=mode, label="compiled policy",
                   group="hooks", reason=why)


# ---- the handler side (every decision) ---------------------------------------------------------
def add_to(state, profile, host, target: str, root=None) -> None:
    """The one call each adapter makes where it adds its hook wrapper: the compiled policy joins
    the target's plan when the profile has a [policy]."""
    item = desired_item(profile, host, target, root)
    if item is not None:
        state.add(item)
        for message in ask_notices(policy_of(profile), target):
            state.note(message, str(item.path))
