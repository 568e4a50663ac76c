"""The `agentdeck` command's entry point (pyproject's console script): its first lines of code.

Ctrl-C during start-up (importing the engine, argparse, reading the arguments) is one line and
exit 130, never a traceback: a SIGINT handler is installed before anything else is imported,
and since nothing has been written yet it exits at once. core.cli hands Ctrl-C back to Python
(`hand_back`) just before the command runs; there KeyboardInterrupt is caught and answered in
the same words once the command has stopped cleanly. Only the interpreter's own start-up (site,
the console script's own import line) is out of reach."""
import os
import _signal as signal   # the C module signal.py wraps: nothing to import before the handler

INTERRUPTED = "agentdeck: interrupted; nothing more was written."
EXIT_INTERRUPTED = 130


def _quit(signum, frame) -> None:
    os.write(2, (INTERRUPTED + "\n").encode())
    os._exit(EXIT_INTERRUPTED)


def hand_back() -> None:
    """Ctrl-C raises KeyboardInterrupt again (the command catches it), unless it was not ours."""
    if signal.getsignal(signal.SIGINT) is _quit:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def main() -> int:
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:   # not ignored (nohup, &)
        signal.signal(signal.SIGINT, _quit)
    from .cli import main as cli_main

    return cli_main()
