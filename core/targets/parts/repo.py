"""The `repo` part: what a CLI reads from a repository (its project layer), for the repository
scope -- core/targets/repo.py plans agentdeck's repository hooks, core/doctor/repo_checks.py
audits a repository; both loop over the registry's targets and ask this part.

A target whose CLI reads hooks (or a switch that turns hooks off) from a repository has
`core/targets/<name>/repo.py` providing (`RepoPart`):

    FACTS               a `RepoFacts`: the CLI version they were observed with, the readers it
                        brings (`RepoReader`, by id) and the repository files they read
                        (`RepoFile`: hooks found there are reported as other hook sources, a
                        `HookSwitch` in them by the doctor)

One target's part also carries agentdeck's own repository hook file (`CarrierPart`, with
`FACTS.hooks` set, a `RepoHooks`: the file, its readers, the committed wrapper, the optional
setup workflow) and provides these functions:

    registered_events(profile)      (the event names to register, warnings)
    event_key(event)                the key agentdeck writes for an event in the shared file
    resolve_event(key)              (event, alias or None) of a key found in a hook file, or None
    disable_key(key, action)        the CLI's key for one action (its disabled-hooks list)
    reader_view(event, key)         what each reader does with `key`: {reader id: {"fires",
                                    "dialect", "note"}}
    action(key, timeout)            the action registered for `key` (plain JSON data)
    render_hooks_file(actions)      the hook file's text ({key: action})
    file_reason(keys, timeout)      the plan's reason for the hook file
    trust(view, root)               whether the CLI loads the repository's hooks here (plain
                                    data: "trusted", "via", "subfolders", "allow_all", "config")
    plan_lines(events, trust, root, host)
                                    the plan's lines about the readers (`RepoLine`s; `events`:
                                    each planned event's event, key, command, action,
                                    disable_key and readers)
    home_hooks(host)                agentdeck's home hook file of the same CLI (it fires in the
                                    repository too); home_twice(shown) / home_twice_row(shown):
                                    the plan's line and the doctor's row when it exists
    home_switches(host)             the home's files with a `HookSwitch` ((path, switch) pairs)
    reader_rows(trust, keys, found, root, host)
                                    the doctor's row per reader (`RepoRow`s) for the events of
                                    agentdeck's hook file (`keys`: (key, event)); `found`: the
                                    file exists
    hook_file_rows(rel, text, data) what is wrong with one parsed hook file of the readers'
                                    folder, as they read it: its `RepoRow`s and the
                                    `HookCommand`s to check, in file order (`data`: the JSON
                                    that parsed; `rel`: the file relative to the repository)
    unparsed_row(rel, error)        the row for a hook file that does not parse
    command_fails(event)            what a failing command of `event` does, in words
    live_probe(root)                the doctor's `--live` probe: (what is asked, in words; a
                                    callable of the host, run on a scratch copy of the CLI's
                                    home)
    live_rows(result, expected, trusted)
                                    its rows from the probe's result; `expected`: {disable key:
                                    event} of agentdeck's hook file

A target without the module reads nothing from a repository that agentdeck knows of. Nothing
here imports a feature.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping, NamedTuple, Protocol, runtime_checkable

if TYPE_CHECKING:  # pragma: no cover
    from ...disk import DiskView
    from ...host import Host
    from ...model import Profile


@dataclass(frozen=True)
class RepoReader:
    """Something that reads a repository's hooks (a CLI, an editor, a cloud agent)."""
    title: str
    loads: str = ""             # when and what it loads


@dataclass(frozen=True)
class HookSwitch:
    """A key in a settings file that turns hooks off, and what its value does. Each message is
    a template: `{file}` is the file as the host shows it, `{rel}` relative to the repository,
    `{value}` the value found (repr), `{error}` why the file does not parse."""
    key: str
    level: str                  # the finding's result when it is true (error | warning | info)
    on_true: str                # the message when it is true; "{who}" is `who`
    fix: str = ""
    who: str = ""               # what it turns off
    #: the message when the value is not a boolean, "" when nothing is said (level error)
    on_invalid: str = ""
    invalid_fix: str = ""
    #: the message when the file does not parse, "" when nothing is said (level error)
    on_unparsed: str = ""
    #: true turns agentdeck's repository hooks off (its absence is the doctor's ok row)
    stops_ours: bool = False


@dataclass(frozen=True)
class RepoFile:
    """A file of the repository a reader loads hooks from, besides agentdeck's."""
    path: str                   # relative to the repository root; "<dir>/*.json": each such file
    kind: str                   # the other source's kind (RepoReport.other_sources)
    readers: tuple[str, ...]    # reader ids (a `RepoReader` of some target's FACTS)
    note: str                   # what it means that it is there
    jsonc: bool = True          # comments allowed
    #: a hook file: listed whenever it exists (else only when it has a "hooks" key)
    hook_file: bool = False
    switch: HookSwitch | None = None


@dataclass(frozen=True)
class SetupWorkflow:
    """A workflow the carrier's cloud reader runs before it starts, where agentdeck may add the
    step that installs the hook handler."""
    path: str                   # relative to the repository root
    job: str                    # the job whose steps the reader runs
    begin: str                  # agentdeck's block markers (a YAML comment each)
    end: str
    header: str                 # the whole file's text up to `jobs:` (a new file only)
    runs_on: str = "ubuntu-latest"


@dataclass(frozen=True)
class RepoHooks:
    """The carrier's repository hook file: what agentdeck writes and who reads it."""
    dir: str                    # the folder every reader loads *.json from
    file: str                   # agentdeck's file in it
    wrapper: str                # the committed wrapper (the actions' command)
    readers: tuple[str, ...]    # the readers of `file`, in display order (ids of FACTS.readers)
    #: the hook file's version that the CLI accepts ("version" key; any other rejects the file)
    version: int
    #: timeout keys that look right and are ignored
    wrong_timeout_keys: tuple[str, ...] = ()
    #: keys that look right and are dropped, with the spelling every reader takes
    rejected_keys: Mapping[str, str] = field(default_factory=dict)
    #: payload dialects (core.hookhandler's labels) in words
    dialects: Mapping[str, str] = field(default_factory=dict)
    #: the committed wrapper's comment lines (after the shebang), each ending in a newline
    wrapper_comment: str = ""
    #: the doctor's ok row when no switch turns agentdeck's hooks off
    switches_ok: str = ""
    setup: SetupWorkflow | None = None


@dataclass(frozen=True)
class RepoFacts:
    target: str
    verified: str               # the CLI version these were observed with
    readers: Mapping[str, RepoReader] = field(default_factory=dict)
    files: tuple[RepoFile, ...] = ()
    hooks: RepoHooks | None = None     # set for the carrier of agentdeck's repository hooks


class RepoLine(NamedTuple):
    level: str                  # note | warn
    message: str


class RepoRow(NamedTuple):
    """One doctor row; `check` is the id after "repo." ("reader.<reader id>", "live.discover")."""
    result: str                 # ok | info | warning | error | skipped
    check: str
    message: str
    fix: str = ""
    line: int | None = None     # in the file the row is about (a hook file's rows)


class HookCommand(NamedTuple):
    """A command one action of a hook file runs: the doctor checks that what it runs by a
    relative path is there, executable, in a fresh clone."""
    key: str                    # the event key as written
    event: str                  # the event it means
    command: str
    cwd: Any = None             # the action's cwd, as written


def line_of(text: str | None, needle: str) -> int | None:
    """The 1-based line of `needle`'s first occurrence in `text`, or None."""
    if not text:
        return None
    i = text.find(needle)
    return text.count("\n", 0, i) + 1 if i >= 0 else None


@runtime_checkable
class RepoPart(Protocol):
    @property
    def FACTS(self) -> RepoFacts: ...


@runtime_checkable
class CarrierPart(RepoPart, Protocol):
    """The part of the target that carries agentdeck's repository hook file."""
    def registered_events(self, profile: "Profile") -> tuple[list[str], list[str]]: ...

    def event_key(self, event: str) -> str: ...

    def resolve_event(self, key: str) -> tuple[str, str | None] | None: ...

    def disable_key(self, key: str, action: dict[str, Any]) -> str: ...

    def reader_view(self, event: str, key: str) -> dict[str, dict[str, Any]]: ...

    def action(self, key: str, timeout: int) -> dict[str, Any]: ...

    def render_hooks_file(self, actions: dict[str, dict[str, Any]]) -> str: ...

    def file_reason(self, keys: str, timeout: int) -> str: ...

    def trust(self, view: "DiskView", root: Path) -> dict[str, Any]: ...

    def plan_lines(self, events: list[dict[str, Any]], trust: dict[str, Any], root: Path,
                   host: "Host") -> list[RepoLine]: ...

    def home_hooks(self, host: "Host") -> Path: ...

    def home_twice(self, shown: str) -> RepoLine: ...

    def home_twice_row(self, shown: str) -> RepoRow: ...

    def home_switches(self, host: "Host") -> list[tuple[Path, HookSwitch]]: ...

    def reader_rows(self, trust: dict[str, Any], keys: list[tuple[str, str]], found: bool,
                    root: Path, host: "Host") -> list[RepoRow]: ...

    def hook_file_rows(self, rel: str, text: str | None, data: Any
                       ) -> list[RepoRow | HookCommand]: ...

    def unparsed_row(self, rel: str, error: str) -> RepoRow: ...

    def command_fails(self, event: str) -> str: ...

    def live_probe(self, root: Path) -> tuple[str, Callable[..., Any]]: ...

    def live_rows(self, result: Any, expected: dict[str, str], trusted: bool
                  ) -> list[RepoRow]: ...
