"""What a target is, as plain data: `TargetSpec`, declared by each target package's `__init__`.

A spec is read without importing the target's adapter or facts (a Copilot-only plan stays
Copilot-only): the name, the title shown to the operator, the binary on PATH and its npm
package, the variable that moves the CLI's home (or, for an XDG home, the folder it sits in) and
its default under $HOME, where the manifest
lives, the package that holds everything else about the CLI, and its capabilities.
Standard library only: the hook handler reads specs too.
"""
from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Callable
    from pathlib import Path

    from agentdeck.core.host import Host

MANIFEST_NAME = ".agentdeck-managed.json"

#: what an adapter may declare it can do (RunOptions fields it honours, facts it reports)
TRUST_HOOKS = "trust_hooks"        # the CLI gates hooks on trust: `--trust-hooks` adds trust items
MCP_SWITCHES = "mcp_switches"      # per-server on/off switches (the app's MCP pane), planned
                                   # through the profile's disabled-server list
DISABLE_ALL = "disable_all_hooks"  # the CLI has one setting that switches every hook off
                                   # (`disableAllHooks`): the Hooks pane shows it as found
BROWSER = "browser_setting"        # the CLI opens a browser for an MCP server's sign-in and
                                   # agentdeck resolves which (TargetOutput.browser: the
                                   # Browser pane, onboarding's detect step)
SKILLS = "skills"                  # agentdeck installs the profile's skills, commands and agents
                                   # for the CLI (TargetOutput.skills)
ENV_FILE = "env_file"              # the profile's directives become environment variables in an
                                   # env file ~/.bashrc sources (TargetOutput.env)
CAPABILITIES = (TRUST_HOOKS, MCP_SWITCHES, DISABLE_ALL, BROWSER, SKILLS, ENV_FILE)


#: the channel through which agentdeck's guard reaches the CLI (TargetSpec.enforcement)
HOOKS = "hooks"      # the CLI runs agentdeck's hook wrapper as a command for each event
PLUGIN = "plugin"    # an in-process plugin agentdeck writes asks agentdeck's handler
NO_GUARD = "none"    # nothing agentdeck installs sees a tool call: files only (MCP, persona)
ENFORCEMENTS = (HOOKS, PLUGIN, NO_GUARD)

#: the parts of a target package (core/targets/parts/ declares each one's interface):
#: every target has these
REQUIRED_PARTS = ("adapter", "facts", "doctor")
#: the parts the guard's channel needs: the handler reads the dialect, `policy show` and
#: `policy test` the policy part, the doctor the health part (why the hooks cannot run)
CHANNEL_PARTS: dict[str, tuple[str, ...]] = {
    HOOKS: ("dialect", "policy", "health"),
    PLUGIN: ("dialect", "policy", "health"),
    NO_GUARD: (),
}
#: the parts a target may have, each declared in TargetSpec.parts (the registry checks that the
#: declared ones exist and that no undeclared one does)
OPTIONAL_PARTS = ("probes", "drill", "org", "repo", "takeover", "demo", "views")


class TargetSpec:
    """Frozen, compared by value. A plain class, not a dataclass: the hook handler imports the
    target packages, and `dataclasses` costs it about 8 ms at every tool call."""
    __slots__ = ("name", "title", "short", "binary", "npm_package", "home_env", "home_dirname",
                 "home_subdir", "package", "adapter_class", "capabilities", "adapter_module",
                 "profile_files", "directives_file", "never_write", "enforcement", "parts")
    name: str                   # the --target name, manifest target, plan target
    title: str                  # the CLI's full name, shown to the operator
    short: str                  # its short name (badges, notes)
    binary: str                 # executable looked up on the host's PATH
    npm_package: str
    home_env: str               # the environment variable that moves the CLI's home
    home_dirname: str           # its default under $HOME
    #: "" when home_env names the home itself; else the home's folder under home_env's value
    #: (OpenCode: "opencode" under XDG_CONFIG_HOME, home_dirname ".config/opencode"; Gemini
    #: CLI: ".gemini" under GEMINI_CLI_HOME, default ~/.gemini)
    home_subdir: str
    package: str                # the target's package (its adapter, facts, dialect, ...)
    adapter_class: str          # the adapter's class in `<package>.adapter`
    capabilities: frozenset[str]
    adapter_module: str         # default `<package>.adapter`
    #: the CLI's own files a profile may carry in its `<name>/` folder (merged along the
    #: extends chain and handed to the adapter as `profile.native["<name>/<file>"]`)
    profile_files: tuple[str, ...]
    #: the one of them that may also hold agentdeck's `_agentdeck` directives block and the
    #: MCP switches' disabled list ("" for none; one target declares it)
    directives_file: str
    #: the CLI's own files in its home that agentdeck never writes nor removes, whatever a
    #: manifest or journal says (tool-managed: auth tokens and the like); Host.never_written
    #: asks the registry for them
    never_write: tuple[str, ...]
    #: how agentdeck's guard reaches the CLI: HOOKS, PLUGIN or NO_GUARD
    enforcement: str
    #: the optional parts (OPTIONAL_PARTS) its package provides; the required ones and its
    #: channel's are implied (`has`)
    parts: frozenset[str]
    def __init__(self, *, name: str, title: str, short: str, binary: str, npm_package: str,
                 home_env: str, home_dirname: str, package: str, adapter_class: str,
                 home_subdir: str = "",
                 capabilities: frozenset[str] = frozenset(), adapter_module: str = "",
                 profile_files: tuple[str, ...] = (), directives_file: str = "",
                 never_write: tuple[str, ...] = (), enforcement: str = HOOKS,
                 parts: frozenset[str] | tuple[str, ...] = ()) -> None:
        values = dict(name=name, title=title, short=short, binary=binary,
                      npm_package=npm_package, home_env=home_env, home_dirname=home_dirname,
                      home_subdir=home_subdir, package=package, adapter_class=adapter_class,
                      capabilities=frozenset(capabilities),
                      adapter_module=adapter_module or f"{package}.adapter",
                      profile_files=tuple(profile_files), directives_file=directives_file,
                      never_write=tuple(never_write), enforcement=enforcement,
                      parts=frozenset(parts))
        for k, v in values.items():
            object.__setattr__(self, k, v)

    def __setattr__(self, key: str, value: object) -> None:
        raise AttributeError(f"TargetSpec is frozen: cannot set {key}")

    def _key(self) -> tuple[object, ...]:
        return tuple(getattr(self, k) for k in self.__slots__)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TargetSpec) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"TargetSpec({self.name!r}, package={self.package!r})"

    @property
    def adapter(self) -> tuple[str, str]:
        """(module, class) of the adapter."""
        return (self.adapter_module, self.adapter_class)

    def home(self, host: "Host") -> "Path":
        return host.cli_home(self.home_env, self.home_dirname, self.home_subdir)

    def home_env_value(self, home: "Path") -> str:
        """What home_env is set to so that the CLI's home is `home` (a scratch copy's)."""
        return str(home.parent if self.home_subdir else home)

    def home_at(self, folder: "Path") -> "Path":
        """The CLI's home when `home_env` is set to `folder` (a scratch copy's: the drill and
        the live probes point the variable there and copy the files into this folder)."""
        return folder / self.home_subdir if self.home_subdir else folder

    def manifest_path(self, host: "Host") -> "Path":
        return self.home(host) / MANIFEST_NAME

    def can(self, capability: str) -> bool:
        return capability in self.capabilities

    @property
    def guarded(self) -> bool:
        """Whether anything agentdeck installs sees this CLI's tool calls (hooks or a plugin)."""
        return self.enforcement != NO_GUARD

    def all_parts(self) -> frozenset[str]:
        """Every part its package provides: the required ones, its channel's, the declared."""
        return frozenset(REQUIRED_PARTS) | frozenset(CHANNEL_PARTS.get(self.enforcement, ())) \
            | self.parts

    def has(self, part: str) -> bool:
        """Whether its package provides `part` (as declared: the registry checked it)."""
        return part in self.all_parts()

    def problems(self, exists: "Callable[[str], bool]") -> list[str]:
        """What is wrong with this spec as a registry entry, each a sentence naming the part;
        `exists(part)` says whether the package has that module."""
        where = f"core/targets/{self.name}"
        if self.enforcement not in ENFORCEMENTS:
            return [f"{where}: enforcement {self.enforcement!r} is none of {', '.join(ENFORCEMENTS)}"]
        out = [f"{where}: declares part {p!r}, which is none of {', '.join(OPTIONAL_PARTS)}"
               for p in sorted(self.parts - frozenset(OPTIONAL_PARTS))]
        out += [f"{where}: declares capability {c!r}, which is none of {', '.join(CAPABILITIES)}"
                for c in sorted(self.capabilities - frozenset(CAPABILITIES))]
        for p in sorted(self.all_parts()):
            if not exists(p):
                why = ("every target has one" if p in REQUIRED_PARTS else
                       f"its guard is {self.enforcement}" if p not in self.parts else
                       "its SPEC declares it")
                out.append(f"{where}: has no {p}.py ({why}; core/targets/parts/ describes it)")
        for p in OPTIONAL_PARTS + tuple(c for ps in CHANNEL_PARTS.values() for c in ps):
            if p not in self.all_parts() and exists(p):
                out.append(f"{where}: has {p}.py, which its SPEC does not declare "
                           f"(add {p!r} to parts=..., or remove the module)")
        return sorted(set(out))
