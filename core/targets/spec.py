"""What a target is, as plain data: `TargetSpec`, declared by each target package's `__init__`.

A spec is read without importing the target's adapter or facts (a Copilot-only plan stays
Copilot-only): the name, the title shown to the operator, the binary on PATH and its npm
package, the variable that moves the CLI's home and its default under $HOME, where the manifest
lives, the package that holds everything else about the CLI, and its capabilities.
Standard library only: the hook handler reads specs too.
"""
from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from pathlib import Path

    from agentdeck.core.host import Host

MANIFEST_NAME = ".agentdeck-managed.json"

#: what an adapter may declare it can do (RunOptions fields it honours)
TRUST_HOOKS = "trust_hooks"        # the CLI gates hooks on trust: `--trust-hooks` adds trust items
MCP_SWITCHES = "mcp_switches"      # per-server on/off switches (the app's MCP pane), planned
                                   # through the profile's disabled-server list


class TargetSpec:
    """Frozen, compared by value. A plain class, not a dataclass: the hook handler imports the
    target packages, and `dataclasses` costs it about 8 ms at every tool call."""
    __slots__ = ("name", "title", "short", "binary", "npm_package", "home_env", "home_dirname",
                 "package", "adapter_class", "capabilities", "adapter_module", "profile_files",
                 "directives_file", "never_write")
    name: str                   # the --target name, manifest target, plan target
    title: str                  # the CLI's full name, shown to the operator
    short: str                  # its short name (badges, notes)
    binary: str                 # executable looked up on the host's PATH
    npm_package: str
    home_env: str               # the environment variable that moves the CLI's home
    home_dirname: str           # its default under $HOME
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

    def __init__(self, *, name: str, title: str, short: str, binary: str, npm_package: str,
                 home_env: str, home_dirname: str, package: str, adapter_class: str,
                 capabilities: frozenset[str] = frozenset(), adapter_module: str = "",
                 profile_files: tuple[str, ...] = (), directives_file: str = "",
                 never_write: tuple[str, ...] = ()) -> None:
        values = dict(name=name, title=title, short=short, binary=binary,
                      npm_package=npm_package, home_env=home_env, home_dirname=home_dirname,
                      package=package, adapter_class=adapter_class,
                      capabilities=frozenset(capabilities),
                      adapter_module=adapter_module or f"{package}.adapter",
                      profile_files=tuple(profile_files), directives_file=directives_file,
                      never_write=tuple(never_write))
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
        return host.cli_home(self.home_env, self.home_dirname)

    def manifest_path(self, host: "Host") -> "Path":
        return self.home(host) / MANIFEST_NAME

    def can(self, capability: str) -> bool:
        return capability in self.capabilities
