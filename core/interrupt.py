"""Ctrl-C's one line: the words and exit status, the start-up handler core/entry.py installs
before anything else is imported, and `hand_back` (core/cli.py, just before the command runs).
Standard library only, and only what a handler needs: it is imported first."""
import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    import signal
else:
    import _signal as signal   # the C module signal.py wraps (no enum): nothing to import first

INTERRUPTED = "agentdeck: interrupted; nothing more was written."
EXIT_INTERRUPTED = 130
#: what a Ctrl-C met, for the words the CLI answers it with (core/cli.py): the command's host,
#: once it has one, and whether an apply had finished (core/plan_run.py sets both)
STATE: dict[str, object] = {"host": None, "applied": False}


def _quit(signum: int, frame: object) -> None:
    os.write(2, (INTERRUPTED + "\n").encode())
    os._exit(EXIT_INTERRUPTED)


def install() -> None:
    """Ctrl-C exits at once with the one line (nothing has been written yet), unless SIGINT is
    not Python's default (ignored: nohup, &)."""
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _quit)


def hand_back() -> None:
    """Ctrl-C raises KeyboardInterrupt again (the command catches it), unless it was not ours."""
    if signal.getsignal(signal.SIGINT) is _quit:
        signal.signal(signal.SIGINT, signal.default_int_handler)
