"""The one object through which agentdeck touches the file system and runs processes.

Every path the core reads or writes is reached through a Host, so tests point it at a temporary
home and nothing ever reaches the operator's real one. The Host knows the home root, the
environment (a copy, never os.environ itself), platform facts (WSL), and where agentdeck keeps its
own state for that home.
"""
from __future__ import annotations

import errno
import os
import shutil
import signal
import stat
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Callable, Iterator, Mapping, Sequence, TypeVar

if TYPE_CHECKING:
    import subprocess

_T = TypeVar("_T")

APP_NAME = "agentdeck"


class HostError(Exception):
    """A file-system or process problem worth one clear line to the operator."""


class HostBusy(Exception):
    """Host.lock: another process holds the lock (`holder`: the pid written in the file)."""

    def __init__(self, holder: str):
        super().__init__(holder)
        self.holder = holder


def os_error_line(path: os.PathLike[str] | str, op: str, e: OSError) -> str:
    """`<file>: cannot <op>: <what the errno means>` -- one line, e.g. for ENOSPC "No space
    left on device (ENOSPC)"."""
    code = errno.errorcode.get(e.errno or 0, "")
    meaning = os.strerror(e.errno) if e.errno else (e.strerror or str(e))
    return f"{e.filename if path is None else path}: cannot {op}: {meaning}" + (f" ({code})" if code else "")


@dataclass
class RunResult:
    argv: list[str]
    returncode: int
    stdout: str
    stderr: str
    timed_out: bool = False


@dataclass
class Host:
    home: Path
    env: dict[str, str] = field(default_factory=dict)
    osrelease_path: Path = Path("/proc/sys/kernel/osrelease")
    #: when set, takes precedence over the computed state dir (tests, --state-dir)
    state_override: Path | None = None
    #: the folder a command was started in, where a CLI started there reads its project files
    #: (Qwen's .qwen/settings.json); None: the process's own, asked when needed
    cwd: Path | None = None

    @classmethod
    def from_environment(cls, home: str | os.PathLike[str] | None = None,
                         env: Mapping[str, str] | None = None) -> "Host":
        """Build a Host for `home` (default: $HOME). With an explicit home, the target homes
        default inside it unless their variables (each TargetSpec's home_env) are set."""
        base_env = dict(os.environ if env is None else env)
        if home is None:
            root = Path(base_env.get("HOME") or Path.home())
        else:
            root = Path(home).expanduser()
            base_env["HOME"] = str(root.absolute())
        return cls(home=root.absolute(), env=base_env)

    # ---- where things live -------------------------------------------------------------------
    def working_dir(self) -> Path:
        """The folder this command was started in (`cwd`, else the process's)."""
        return self.cwd if self.cwd is not None else Path(os.getcwd()).absolute()

    def _env_path(self, var: str, default: Path) -> Path:
        value = self.env.get(var)
        if value:
            return Path(value).expanduser()
        return default

    def cli_home(self, env_var: str, dirname: str, subdir: str = "") -> Path:
        """A CLI's home (a TargetSpec's): `env_var` when set (`subdir` under it, for a home in
        an XDG folder: XDG_CONFIG_HOME/opencode), else `dirname` under the home."""
        value = self.env.get(env_var)
        if value:
            return Path(value).expanduser() / subdir if subdir else Path(value).expanduser()
        return self.home / dirname

    def cli_homes(self) -> list[Path]:
        """Every registered target's home (core/targets/registry.py)."""
        # local: the org layer's handler copy (core/org/handler.py) takes host with it (the
        # facts' type hints name it); the registry and the target packages are no part of it
        from .targets import registry
        return [s.home(self) for s in registry.TARGETS]

    @property
    def agents_skills_dir(self) -> Path:
        return self.home / ".agents" / "skills"

    @property
    def state_dir(self) -> Path:
        """agentdeck's own state (journal, backups, lock, logs, audit), resolved for this home.

        platformdirs gives the location relative to the real home; we re-root it on ours so a
        throwaway home keeps its state with it."""
        if self.state_override is not None:
            return self.state_override
        explicit = self.env.get("AGENTDECK_STATE_DIR")
        if explicit:
            return Path(explicit)
        if _xdg_default("XDG_STATE_HOME"):
            return self.home / ".local" / "state" / APP_NAME
        import platformdirs   # local: only when no state dir is set (AGENTDECK_STATE_DIR, tests)

        return self._xdg_dir(Path(platformdirs.user_state_dir(APP_NAME)), Path(".local/state"))

    @property
    def config_dir(self) -> Path:
        """Operator profiles live under <config_dir>/profiles."""
        explicit = self.env.get("AGENTDECK_CONFIG_DIR")
        if explicit:
            return Path(explicit)
        if _xdg_default("XDG_CONFIG_HOME"):
            return self.home / ".config" / APP_NAME
        import platformdirs   # local: only when no config dir is set

        return self._xdg_dir(Path(platformdirs.user_config_dir(APP_NAME)), Path(".config"))

    def _xdg_dir(self, p: Path, default: Path) -> Path:
        """platformdirs' answer ``p`` (from the real home and the XDG variables) for this home.
        On the real home it is followed as it is, an XDG_CONFIG_HOME / XDG_STATE_HOME outside
        the home included (the XDG convention). A scratch home (``--home DIR``) keeps its dirs
        with it: ``p`` re-rooted on it, or the XDG default under it when ``p`` lies outside the
        real home."""
        real_home = Path.home()
        if _same_dir(self.home, real_home):
            return p
        try:
            rel = p.relative_to(real_home)
        except ValueError:
            rel = default / APP_NAME
        return self.home / rel

    def display(self, path: os.PathLike[str] | str) -> str:
        """A path as shown to people: the home as `~`."""
        s = str(path)
        h = str(self.home)
        if s == h:
            return "~"
        if s.startswith(h + os.sep):
            return "~" + s[len(h):]
        return s

    # ---- platform ----------------------------------------------------------------------------
    @property
    def is_wsl(self) -> bool:
        if self.env.get("WSL_DISTRO_NAME"):
            return True
        try:
            return "microsoft" in self.osrelease_path.read_text(errors="replace").lower()
        except OSError:
            return False

    def which(self, name: str) -> str | None:
        """Find an executable on this host's PATH (not the process's)."""
        if os.sep in name:
            return name if self.is_executable(Path(name)) else None
        return shutil.which(name, path=self.env.get("PATH", os.defpath))

    def run(self, argv: Sequence[str], *, timeout: float = 10.0, input: str | None = None,
            env: Mapping[str, str] | None = None, cwd: os.PathLike[str] | None = None) -> RunResult:
        """Run a process with this host's environment and a timeout. Never raises for a
        missing program or a timeout: the result says what happened."""
        import subprocess  # here, not at the top: `agentdeck plan` never runs a process

        full_env = dict(self.env)
        if env:
            full_env.update(env)
        try:
            cp = subprocess.run(list(argv), input=input, capture_output=True, text=True,
                                timeout=timeout, env=full_env, cwd=cwd,
                                stdin=None if input is not None else subprocess.DEVNULL)
            return RunResult(list(argv), cp.returncode, cp.stdout, cp.stderr)
        except subprocess.TimeoutExpired as e:
            out = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
            err = e.stderr.decode(errors="replace") if isinstance(e.stderr, bytes) else (e.stderr or "")
            return RunResult(list(argv), -1, out, err, timed_out=True)
        except OSError as e:
            return RunResult(list(argv), 127, "", str(e))

    def popen(self, argv: Sequence[str], *, env: Mapping[str, str] | None = None,
              cwd: os.PathLike[str] | None = None) -> subprocess.Popen[bytes]:
        """A long-lived child with pipes (JSON-RPC probes). The caller owns its lifetime."""
        import subprocess   # local: as in run()

        full_env = dict(self.env)
        if env:
            full_env.update(env)
        return subprocess.Popen(list(argv), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, env=full_env, cwd=cwd)

    def end_process(self, proc: subprocess.Popen[bytes], grace: float = 3.0) -> int | None:
        """End a child from popen() whose input the caller has closed: wait up to `grace`
        seconds, then kill it and every descendant (an npm launcher runs the real binary as a
        grandchild, which a kill of the launcher alone would leave running) and wait once more.
        Returns its exit code, None if it would not even die."""
        import subprocess   # local: as in run()

        try:
            return proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            pass
        family = descendants(proc.pid)
        proc.kill()
        for pid in family:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        try:
            return proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            return None

    def kill_self(self) -> None:
        """SIGKILL this process (the crash-safety suite's instrumentation, nothing else)."""
        os.kill(os.getpid(), signal.SIGKILL)

    @contextmanager
    def lock(self, path: Path, wait: float) -> Iterator[None]:
        """An exclusive flock on `path` (created 0600), waiting up to `wait` seconds; the
        holder's pid is written into it. Raises HostBusy(holder) when it stays taken."""
        import fcntl   # local: only a writing command takes the lock

        self.mkdir(path.parent, 0o700)
        fd = self._os("open", path, lambda: os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600))
        deadline = time.monotonic() + wait
        try:
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() >= deadline:
                        try:
                            holder = os.pread(fd, 64, 0).decode(errors="replace").strip() or "?"
                        except OSError:
                            holder = "?"
                        raise HostBusy(holder) from None
                    time.sleep(0.05)

            def stamp() -> None:     # the holder's pid, for the next one's "busy" line
                os.ftruncate(fd, 0)
                os.pwrite(fd, str(os.getpid()).encode(), 0)

            self._os("write", path, stamp)
            yield
        finally:
            try:
                fcntl.flock(fd, fcntl.LOCK_UN)
            finally:
                os.close(fd)

    def _os(self, op: str, path: os.PathLike[str] | str, fn: Callable[[], _T]) -> _T:
        """Run fn(); an OSError becomes one HostError line: the file, the operation, the errno's
        meaning."""
        try:
            return fn()
        except OSError as e:
            raise HostError(os_error_line(path, op, e)) from None

    # ---- reading -----------------------------------------------------------------------------
    def exists(self, path: Path, *, follow: bool = False) -> bool:
        """Something is at `path` (a dangling symlink too, unless `follow`)."""
        return os.path.exists(path) if follow else os.path.lexists(path)

    def is_file(self, path: Path) -> bool:
        return path.is_file()

    def is_dir(self, path: Path) -> bool:
        return path.is_dir()

    def is_symlink(self, path: Path) -> bool:
        return path.is_symlink()

    def is_executable(self, path: Path) -> bool:
        return path.is_file() and os.access(path, os.X_OK)

    def realpath(self, path: os.PathLike[str] | str) -> str:
        """`path` with every symlink resolved (it reads the links)."""
        return os.path.realpath(path)

    def readlink(self, path: Path) -> str:
        return os.readlink(path)

    def lstat(self, path: Path) -> os.stat_result | None:
        try:
            return os.lstat(path)
        except FileNotFoundError:
            return None

    def mode(self, path: Path) -> int | None:
        try:
            return stat.S_IMODE(os.stat(path).st_mode)
        except OSError:
            return None

    def listdir(self, path: Path) -> list[str]:
        try:
            return sorted(os.listdir(path))
        except (FileNotFoundError, NotADirectoryError):
            return []

    def read_bytes(self, path: Path, *, limit: int = 16 * 1024 * 1024) -> bytes | None:
        """The file's bytes, or None when it does not exist. Raises HostError (one line) for
        anything that is not a regular file (a directory, a FIFO, a device, a socket), an
        unreadable file, a symlink loop or a file too large to be a config.

        Never blocks: the kind is checked before opening, the open is O_NONBLOCK (a FIFO or a
        tty swapped in after the check opens at once instead of waiting for a writer) and the
        open file is checked again (fstat) before a byte is read."""
        try:
            st = os.stat(path)
        except FileNotFoundError:
            return None          # absent, or a dangling link: nothing there to read
        except OSError as e:
            if e.errno == errno.ELOOP:
                raise HostError(f"{path}: symlink loop") from None
            raise HostError(f"{path}: {e.strerror}") from None
        _refuse_non_regular(path, st)
        if st.st_size > limit:
            raise HostError(f"{path}: file is {st.st_size // (1024 * 1024)} MB, too large for a config file")
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | getattr(os, "O_NOCTTY", 0))
        except FileNotFoundError:
            return None
        except OSError as e:
            if e.errno == errno.ELOOP:
                raise HostError(f"{path}: symlink loop") from None
            raise HostError(f"{path}: {e.strerror}") from None
        try:
            st = os.fstat(fd)
            _refuse_non_regular(path, st)
            if st.st_size > limit:
                raise HostError(f"{path}: file is {st.st_size // (1024 * 1024)} MB, too large for a config file")
            chunks = []
            left = limit + 1
            while left > 0:
                chunk = os.read(fd, min(left, 1 << 20))
                if not chunk:
                    break
                chunks.append(chunk)
                left -= len(chunk)
            data = b"".join(chunks)
            if len(data) > limit:
                raise HostError(f"{path}: file is over {limit // (1024 * 1024)} MB, too large for a config file")
            return data
        except OSError as e:
            raise HostError(f"{path}: {e.strerror}") from None
        finally:
            os.close(fd)

    def read_text(self, path: Path) -> str | None:
        data = self.read_bytes(path)
        if data is None:
            return None
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as e:
            line = data[: e.start].count(b"\n") + 1
            col = e.start - (data.rfind(b"\n", 0, e.start) + 1) + 1
            raise HostError(f"{path}:{line}:{col}: not valid UTF-8") from None

    def read_range(self, path: Path, offset: int, limit: int = 1 << 20) -> tuple[bytes, int] | None:
        """(up to `limit` bytes of `path` from `offset`, the file's size now), or None when it
        does not exist: a growing log read piece by piece (core.activity). Opened O_NONBLOCK
        and refused unless a regular file, so a FIFO never blocks the reader."""
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        except FileNotFoundError:
            return None
        except OSError as e:
            raise HostError(f"{path}: {e.strerror}") from None
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode):
                raise HostError(f"{path}: not a regular file")
            return os.pread(fd, limit, offset) if offset < st.st_size else b"", st.st_size
        finally:
            os.close(fd)

    # ---- writing -----------------------------------------------------------------------------
    def resolve_write_path(self, path: Path) -> Path:
        """A symlinked file is written through to its target, never replaced by a plain file."""
        p = path
        for _ in range(40):
            if not os.path.islink(p):
                return p
            target = os.readlink(p)
            p = (p.parent / target) if not os.path.isabs(target) else Path(target)
        raise HostError(f"{path}: symlink loop")

    def check_writable(self, path: Path, real: Path | None = None, *, confine: bool = True) -> Path:
        """Where a write of `path` lands (its symlinks followed), refused with one HostError line
        when that is outside the home, the CLI homes and the state dir (resolved, not as
        written), a file a target declares never written (never_written), or something other
        than a regular file (a directory, a device, a FIFO: never replaced by a file)."""
        real = self.resolve_write_path(path) if real is None else real
        if confine and not self.real_confined(real):
            raise HostError(f"{path}: not written: it leads out of the home (to {real}); "
                            + write_through_hint(real))
        what = self.never_written_what(real)
        if what:
            raise HostError(f"{path}: not written: agentdeck never writes {what}")
        try:
            st = os.lstat(real)
        except FileNotFoundError:
            return real
        except OSError as e:
            raise HostError(os_error_line(path, "write", e)) from None
        if not stat.S_ISREG(st.st_mode):
            raise HostError(f"{path}: not written: it is {file_kind(st.st_mode)}, not a regular file, "
                            "and agentdeck never replaces one")
        return real

    def never_written(self, path: os.PathLike[str] | str) -> bool:
        """Whether `path` is a file a target declares agentdeck never writes nor removes
        (TargetSpec.never_write: a CLI's tool-managed file, auth tokens...), whatever a manifest
        or journal says; reached by any spelling or symlink."""
        return bool(self.never_written_what(path))

    def never_written_what(self, path: os.PathLike[str] | str) -> str:
        """"" when `path` is none of the never-written files (never_written); else what it is,
        for the refusal ("<target short name>'s <file>")."""
        from .targets import registry   # local: specs only (no adapter, no facts)

        if os.path.basename(path) not in registry.NEVER_WRITE_NAMES and not os.path.islink(path):
            return ""         # the common case, without resolving anything
        p = os.path.abspath(path)
        real = os.path.realpath(p)
        via_parent = os.path.join(os.path.realpath(os.path.dirname(p)), os.path.basename(p))
        for s in registry.TARGETS:
            for name in s.never_write:
                guarded = os.path.realpath(s.home(self) / name)
                if real == guarded or via_parent == guarded:
                    return f"{s.short}'s {name}"
        return ""

    def write_atomic(self, path: Path, data: bytes, *, mode: int | None = None,
                     confine: bool = True, durable: bool = True) -> None:
        """Temp file in the same directory, fsync, rename. Keeps the existing file's mode unless
        `mode` is given; a new file gets `mode` or 0644. `confine=False` (the apply's new
        content from the profile only) lets it go through a folder the operator symlinked out
        of the home; a never-written file (never_written) and non-regular files are refused
        always. A file with other hard links is rewritten in place instead (a rename would cut
        it from its other names; the apply's backup and journal cover that write).
        `durable=False`: a scratch copy nobody reads after a crash (the live probes' copies of
        the CLI homes): renamed into place, never fsynced. Every OSError is one HostError line
        naming the file, the operation and what the errno means."""
        import tempfile  # here, not at the top: planning never writes

        real = self.check_writable(path, confine=confine)
        self.mkdir(real.parent, confine=confine)
        st = os.stat(real) if os.path.lexists(real) else None
        old_mode = stat.S_IMODE(st.st_mode) if st is not None else None
        final_mode = mode if mode is not None else (old_mode if old_mode is not None else 0o644)
        if st is not None and st.st_nlink > 1:
            return self._write_in_place(path, real, data, final_mode)
        try:
            fd, tmp = tempfile.mkstemp(prefix=f".{real.name}.", suffix=TEMP_SUFFIX, dir=real.parent)
        except OSError as e:
            raise HostError(os_error_line(real.parent, "create a temporary file in", e)) from None
        try:
            os.fchmod(fd, final_mode)
            with os.fdopen(fd, "wb") as f:
                if self._crash_mid_write():
                    f.write(data[: len(data) // 2])
                    f.flush()
                    self.kill_self()
                if durable:
                    self._write_data(f, data)
                else:
                    f.write(data)
            os.replace(tmp, real)
        except BaseException as e:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            if isinstance(e, OSError):
                raise HostError(os_error_line(path, "write", e)) from None
            raise
        batch: dict[Path, None] | None = self.__dict__.get("_dir_sync_batch")
        if not durable:
            pass
        elif batch is None:
            self._fsync_dir(real.parent)
        else:
            batch[real.parent] = None     # synced once, when the batch ends (dir_syncs_batched)

    @contextmanager
    def dir_syncs_batched(self) -> Iterator[None]:
        """Inside this block each write_atomic still writes a temp file, fsyncs it and renames
        it over the old one, but the directory that holds it is fsynced once, when the block ends
        (also when it raises), not after every rename: the apply writes several files into one
        folder (~/.copilot holds five) and each directory fsync is a journal commit of the disk.
        The caller must not depend on a rename being durable before the block ends (the apply
        removes its journal only after it). Blocks nest; the outermost one syncs."""
        if self.__dict__.get("_dir_sync_batch") is not None:
            yield
            return
        self.__dict__["_dir_sync_batch"] = {}
        try:
            yield
        finally:
            self.sync_batched_dirs()
            self.__dict__["_dir_sync_batch"] = None

    def sync_batched_dirs(self) -> None:
        """Fsync now the directories a dir_syncs_batched block has written into so far (before
        removing a journal inside the block, say)."""
        batch: dict[Path, None] | None = self.__dict__.get("_dir_sync_batch")
        while batch:
            d = next(iter(batch))
            self._fsync_dir(d)
            del batch[d]

    def create_file(self, path: Path, data: bytes, mode: int = 0o644) -> None:
        """A file that does not exist yet, for `agentdeck demo` seeding its throwaway home (its
        Copilot config.json too, which write_atomic refuses). Never replaces anything."""
        if not self.real_confined(path):
            raise HostError(f"{path}: not created: it leads out of the home")
        self.mkdir(path.parent)

        def make() -> None:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, mode)
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.chmod(path, mode)
        self._os("create", path, make)

    def _write_data(self, f: IO[bytes], data: bytes) -> None:
        """Write and fsync an open file (a seam: tests make it fail with ENOSPC, EIO...)."""
        f.write(data)
        f.flush()
        os.fsync(f.fileno())

    def _write_in_place(self, path: Path, real: Path, data: bytes, mode: int) -> None:
        try:
            fd = os.open(real, os.O_WRONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK)
        except OSError as e:
            raise HostError(os_error_line(path, "write", e)) from None
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise HostError(f"{path}: not written: it is no longer a regular file")
            with os.fdopen(fd, "wb", closefd=False) as f:
                f.truncate(0)
                self._write_data(f, data)
            if stat.S_IMODE(os.fstat(fd).st_mode) != mode:
                os.fchmod(fd, mode)
        except OSError as e:
            raise HostError(os_error_line(path, "write", e)) from None
        finally:
            os.close(fd)

    def _crash_mid_write(self) -> bool:
        """Test instrumentation for the crash-safety suite: AGENTDECK_CRASH_MID_WRITE=N kills
        this process (SIGKILL) halfway through writing the temp file of atomic write N."""
        at = self.env.get("AGENTDECK_CRASH_MID_WRITE")
        if not at:
            return False
        self._writes = getattr(self, "_writes", 0) + 1
        return at.isdigit() and int(at) == self._writes

    def _fsync_dir(self, d: Path) -> None:
        try:
            fd = os.open(d, os.O_RDONLY)
        except OSError:
            return
        try:
            os.fsync(fd)
        except OSError:
            pass
        finally:
            os.close(fd)

    def chmod(self, path: Path, mode: int) -> None:
        self._os("change the mode of", path, lambda: os.chmod(path, mode))

    def chown(self, path: Path, uid: int, gid: int) -> None:
        """The owner of `path` itself (a symlink is not followed): `agentdeck org drill` hands
        its scratch home to the unprivileged user the turn runs as."""
        self._os("change the owner of", path, lambda: os.lchown(path, uid, gid))

    def mkdir(self, path: Path, mode: int = 0o755, *, confine: bool = True) -> None:
        if os.path.isdir(path):
            return
        if confine and not self.real_confined(path):
            raise HostError(f"{path}: not created: it leads out of the home")
        self._os("create the folder", path, lambda: path.mkdir(parents=True, exist_ok=True, mode=mode))

    def symlink(self, target: str, link: Path, *, confine: bool = True) -> None:
        if confine and not self.real_confined(link):
            raise HostError(f"{link}: not written: it is reached through a symlink that leads out of the home")
        what = self.never_written_what(link)
        if what:
            raise HostError(f"{link}: not written: agentdeck never writes {what}")
        self.mkdir(link.parent, confine=confine)
        tmp = link.parent / f".{link.name}.agentdeck-tmp"

        def make() -> None:
            if os.path.lexists(tmp):
                os.unlink(tmp)
            os.symlink(target, tmp)
            os.replace(tmp, link)
        self._os("create the symlink", link, make)

    def remove(self, path: Path, *, confine: bool = True) -> None:
        """Remove a file or a symlink (never what it points to). Refuses (HostError) a path that
        is reached through a symlink leading out of the home and the CLI homes, and a file a
        target declares never written (never_written). `confine=False`: a scratch folder of
        agentdeck's own outside the home (the org drill's, made with mkdir(confine=False))."""
        if confine and not self.real_confined(path):
            raise HostError(f"{path}: not removed: reached through a symlink that leads out of the home")
        what = self.never_written_what(path)
        if what and not os.path.islink(path):
            raise HostError(f"{path}: not removed: agentdeck never removes {what}")

        def unlink() -> None:
            try:
                os.unlink(path)
            except FileNotFoundError:
                pass
        self._os("remove", path, unlink)

    def rmdir_if_empty(self, path: Path, *, confine: bool = True) -> bool:
        """Remove an empty directory; never a symlink, never one reached through a symlink that
        leads out of the home and the CLI homes (unless `confine=False`, as for remove)."""
        if os.path.islink(path) or (confine and not self.real_confined(path)):
            return False
        try:
            os.rmdir(path)
            return True
        except OSError:
            return False

    def inside_home(self, path: Path) -> bool:
        """True when `path` (not following a final symlink) lies inside the home root."""
        try:
            Path(os.path.abspath(path)).relative_to(os.path.abspath(self.home))
            return True
        except ValueError:
            return False

    # ---- confinement -------------------------------------------------------------------------
    @property
    def write_through(self) -> list[Path]:
        """Folders outside the home the operator lets agentdeck write into through the home's
        symlinks (a config file linked into a dotfiles checkout elsewhere): WRITE_THROUGH_VAR,
        absolute folders separated by ':' (`~` is this home). Writes, restores and removals
        there are then what they are inside the home; anything else stays refused."""
        out = []
        for part in (self.env.get(WRITE_THROUGH_VAR) or "").split(os.pathsep):
            part = part.strip()
            if part.startswith("~"):
                part = str(self.home) + part[1:]
            if part and os.path.isabs(part) and os.path.normpath(part) != os.sep:
                out.append(Path(part))
        return out

    def roots(self) -> list[str]:
        """The folders agentdeck may change: the home, each CLI's home (wherever its variable,
        TargetSpec.home_env, puts it), agentdeck's state dir and the write-through
        folders the operator named, as written and with their own symlinks resolved."""
        out: list[str] = []
        for p in (self.home, *self.cli_homes(), self.state_dir,
                  *self.write_through):
            for s in (os.path.normpath(os.path.abspath(p)), os.path.realpath(p)):
                if s not in out:
                    out.append(s)
        return out

    def confined(self, path: os.PathLike[str] | str, roots: list[str] | None = None) -> bool:
        """True when `path`, its `..` taken literally, lies inside one of roots(). `roots`: that
        list, computed once by a caller checking many paths (roots() resolves every root)."""
        return _under(os.path.normpath(os.path.abspath(path)),
                      self.roots() if roots is None else roots)

    def real_confined(self, path: os.PathLike[str] | str) -> bool:
        """True when `path` is reached without a symlink leading out of roots(): its parent
        directory, every symlink resolved, lies inside one of them. The last component is not
        followed (removing a symlink removes the link, never its target)."""
        p = os.path.abspath(path)
        real = os.path.join(os.path.realpath(os.path.dirname(p)), os.path.basename(p))
        return _under(real, [os.path.realpath(r) for r in self.roots()])


TEMP_SUFFIX = ".agentdeck-tmp"
#: the environment variable naming folders outside the home agentdeck may write into through a
#: symlink of the home (docs/safety.md: a config file in a dotfiles checkout)
WRITE_THROUGH_VAR = "AGENTDECK_WRITE_THROUGH"


def write_through_hint(real: os.PathLike[str] | str) -> str:
    """The way out of a refused write through a symlink: the folder to allow, and how."""
    return (f"to let agentdeck write there, set {WRITE_THROUGH_VAR}={os.path.dirname(real)} "
            "(folders separated by ':'; docs/safety.md)")

_KINDS = ((stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


def descendants(pid: int) -> list[int]:
    """Every live descendant of `pid` (Linux /proc; empty elsewhere)."""
    parents: dict[int, int] = {}
    try:
        entries = os.listdir("/proc")
    except OSError:
        return []
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                st = f.read().decode("ascii", "replace")
            parents[int(entry)] = int(st.rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
    found, frontier = [], [pid]
    while frontier:
        p = frontier.pop()
        kids = [c for c, pp in parents.items() if pp == p]
        found += kids
        frontier += kids
    return found


def file_kind(mode: int) -> str:
    """What a non-regular file is, in words ("a FIFO (named pipe)", "a directory", ...)."""
    if stat.S_ISDIR(mode):
        return "a directory"
    for test, name in _KINDS:
        if test(mode):
            return name
    return "not a regular file"


def _refuse_non_regular(path: os.PathLike[str] | str, st: os.stat_result) -> None:
    if stat.S_ISREG(st.st_mode):
        return
    if stat.S_ISDIR(st.st_mode):
        raise HostError(f"{path}: is a directory, expected a file")
    raise HostError(f"{path}: is {file_kind(st.st_mode)}, not a regular file; agentdeck reads and "
                    "writes only regular files (replace it with a file or remove it)")


def _xdg_default(var: str) -> bool:
    """True where platformdirs would answer $HOME/<its default> for the XDG variable `var`
    (Linux, an absolute HOME, `var` unset, not Android): the dirs above then come out as
    <home>/.local/state/agentdeck and <home>/.config/agentdeck without importing platformdirs
    (~3 ms on every command). Like platformdirs, this reads the process environment.
    tests/unit/test_host_dirs.py checks the answer against platformdirs'."""
    return (sys.platform == "linux" and var not in os.environ
            and os.path.isabs(os.environ.get("HOME", ""))
            and not hasattr(sys, "getandroidapilevel") and "ANDROID_DATA" not in os.environ)


def _same_dir(a: Path, b: Path) -> bool:
    try:
        return os.path.realpath(a) == os.path.realpath(b)
    except (OSError, ValueError):
        return False


def _under(p: str, roots: list[str]) -> bool:
    return any(p == r or p.startswith(r.rstrip(os.sep) + os.sep) for r in roots)
