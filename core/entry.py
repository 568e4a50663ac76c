"""The `agentdeck` command's entry point (pyproject's console script): its first lines of code.

Ctrl-C during start-up (importing the engine, argparse, reading the arguments) is one line and
exit 130, never a traceback: a SIGINT handler is installed before anything else is imported,
and since nothing has been written yet it exits at once. core.cli hands Ctrl-C back to Python
(`hand_back`) just before the command runs; there KeyboardInterrupt is caught and answered in
the same words once the command has stopped cleanly. Only the interpreter's own start-up (site,
the console script's own import line) is out of reach. The handler and its words are
core/interrupt.py (core.cli reads them there too)."""
from .interrupt import EXIT_INTERRUPTED, INTERRUPTED, install  # noqa: F401  (the words: tests read them here)


def main() -> int:
    install()
    from .cli import main as cli_main   # local: the handler is in place before the engine loads

    return cli_main()
