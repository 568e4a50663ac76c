"""The agentdeck app: the App subclass, its global bindings, the command palette (the current
screen's actions), and `run_app`, which the CLI calls (`agentdeck tui`, `agentdeck demo`)."""
from __future__ import annotations

import os
from functools import partial
from pathlib import Path
from typing import Callable, Iterable

from textual import work
from textual.actions import parse
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.reactive import reactive
from textual.screen import Screen

from agentdeck.core import engine
from agentdeck.core.host import Host

from .screens.apply import ApplyScreen, QuitScreen
from .screens.main import MainScreen
from .session import Session, VersionProbe, all_targets, detect_version, upgrade_words

CHECKING = "checking…"


class AgentDeckApp(App):
    """Review and apply a plan, walk through onboarding, read the doctor."""

    CSS_PATH = "agentdeck.tcss"
    TITLE = "agentdeck"
    BINDINGS = [
        Binding("q", "request_quit", "Quit"),
        Binding("ctrl+t", "toggle_theme", "Theme", show=False),
        Binding("question_mark", "show_keys", "All keys", show=False),
    ]
    ENABLE_COMMAND_PALETTE = True

    versions: reactive[dict] = reactive(dict, always_update=True)
    #: target -> the header's short upgrade words (core/upgrade.py), for a CLI that moved
    upgrades: reactive[dict] = reactive(dict, always_update=True)

    def __init__(self, host: Host, profile: str = engine.DEFAULT_PROFILE,
                 targets: list[str] | None = None, onboard: bool = False, *,
                 version_probe: VersionProbe | None = None,
                 home_path_label: str | None = None, dark: bool = True,
                 repo: str | None = None) -> None:
        super().__init__()
        self.repo = repo
        self.session = Session(host=host, profile=profile or engine.DEFAULT_PROFILE,
                               targets=list(targets) if targets else None)
        self.onboard = onboard
        self.version_probe = version_probe or detect_version
        self.home_path_label = home_path_label or ""
        self.theme = "textual-dark" if dark else "textual-light"
        self.versions = {t: CHECKING for t in all_targets()}
        self.doctor_findings = None   # the last doctor run, kept while the app runs

    # ---- start-up -----------------------------------------------------------------------------
    def get_default_screen(self) -> Screen:
        return MainScreen()

    def on_mount(self) -> None:
        self._detect_versions()
        if self.repo is not None:
            self.open_repo(self.repo)
        elif self.onboard:
            self.open_onboarding(first_run=not self.session.host.state_dir.exists())

    @work(thread=True, group="versions")
    def _detect_versions(self) -> None:
        """Each CLI's version, read from its files (no CLI is run)."""
        host = self.session.host
        for t in all_targets():
            try:
                v = self.version_probe(host, t)
            except Exception:  # noqa: BLE001 - a broken install is "version unknown", not a crash
                v = "installed (version unknown)"
            self.call_from_thread(self._set_version, t, v)
            if v is not None:
                self.call_from_thread(self._set_upgrade, t, upgrade_words(host, t))

    def _set_version(self, target: str, version: str | None) -> None:
        v = dict(self.versions)
        v[target] = version
        self.versions = v

    def _set_upgrade(self, target: str, words: str | None) -> None:
        u = dict(self.upgrades)
        if words:
            u[target] = words
        else:
            u.pop(target, None)
        self.upgrades = u

    # ---- screens ------------------------------------------------------------------------------
    def make_apply_screen(self, plan, title: str = "Applying the plan", *, recompute=None,
                          note: str = ""):
        return ApplyScreen(self.session.host, plan, title=title, recompute=recompute, note=note)

    def open_repo(self, path: str | None = None) -> None:
        from .screens.repo import RepoScreen   # local: the repo screen loads when first opened

        if isinstance(self.screen, RepoScreen):
            return
        self.push_screen(RepoScreen(self.session, path))

    def open_activity(self) -> None:
        from .screens.activity import ActivityScreen   # local: the activity screen loads when first opened

        if isinstance(self.screen, ActivityScreen):
            return
        self.push_screen(ActivityScreen(self.session))

    def open_doctor(self) -> None:
        from .screens.doctor import DoctorScreen   # local: the doctor screen loads when first opened

        if isinstance(self.screen, DoctorScreen):
            return
        self.push_screen(DoctorScreen(self.session))

    def open_onboarding(self, first_run: bool = False) -> None:
        from .screens.onboarding import OnboardingScreen   # local: only a first run or a request opens it

        if isinstance(self.screen, OnboardingScreen):
            return

        def done(outcome: str | None) -> None:
            main = self.get_screen_main()
            if outcome == "cancelled":
                self.notify("Onboarding cancelled: no changes were made.", title="Onboarding",
                            timeout=6)
            if main is not None:
                main.compute_plan()

        self.push_screen(OnboardingScreen(self.session, first_run=first_run), done)

    def get_screen_main(self):
        for s in self.screen_stack:
            if isinstance(s, MainScreen):
                return s
        return None

    def bindings_changed(self) -> None:
        """Redraw the footer once, after the current burst of changes (every redraw recomposes
        it, and one operator action can change several panes)."""
        if getattr(self, "_bindings_pending", False):
            return
        self._bindings_pending = True

        def run() -> None:
            self._bindings_pending = False
            self.refresh_bindings()

        self.call_after_refresh(run)

    # ---- global actions -----------------------------------------------------------------------
    def unsaved(self) -> int:
        """Choices a quit now would lose, on every screen that holds some."""
        n = 0
        for s in self.screen_stack:
            count = getattr(s, "unsaved", None)
            if callable(count):
                n += count()
        return n

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "request_quit":

            if isinstance(self.screen, ApplyScreen) and not self.screen.finished:
                return None     # never quit halfway through an apply
        return True

    def action_request_quit(self) -> None:
        """q: quit, but ask first when decisions or switches would be lost."""
        if not self.check_action("request_quit", ()):
            return
        n = self.unsaved()
        if not n:
            self.exit()
            return

        if isinstance(self.screen, QuitScreen):
            return

        def answer(quit_: bool | None) -> None:
            if quit_:
                self.exit()

        self.push_screen(QuitScreen(n), answer)

    async def action_quit(self) -> None:
        """ctrl+q and the palette's Quit ask too, like q."""
        self.action_request_quit()

    def action_toggle_theme(self) -> None:
        self.theme = "textual-light" if self.current_theme.dark else "textual-dark"

    def action_show_keys(self) -> None:
        """?: every key of the current screen (app/screens/keys.py); ? again closes it."""
        from .screens.keys import KeysScreen   # local: the keys screen loads on the first ?

        if isinstance(self.screen, KeysScreen):
            self.screen.dismiss(None)
            return
        self.push_screen(KeysScreen(self.screen))

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        """The command palette: the current screen's actions that can run now, then the app's."""
        palette = getattr(screen, "palette", None)
        entries = palette() if callable(palette) else getattr(screen, "PALETTE", ())
        for title, help_text, action in entries:
            name, params = _split_action(action)
            if screen.check_action(name, params) is True:
                yield SystemCommand(title, help_text, partial(screen.run_action, action))
        yield SystemCommand("Light or dark theme", "Switch between the light and the dark theme",
                            self.action_toggle_theme)
        yield SystemCommand("All keys", "Every key of this screen, the app's and each widget's (?)",
                            self.action_show_keys)
        yield from super().get_system_commands(screen)


def _split_action(action: str) -> tuple[str, tuple]:
    """"decide('keep')" -> ("decide", ("keep",))."""
    _, name, params = parse(action)
    return name, params


def starts_in_walkthrough(host: Host, onboard: bool = False, repo: str | None = None) -> bool:
    """The app opens on the walkthrough when asked (`--onboard`) or on a home agentdeck has
    never written to (no state folder: a first run, the demo's home too), unless it opens a
    repository."""
    return onboard or (not host.state_dir.exists() and repo is None)


def run_app(host: Host, profile: str = engine.DEFAULT_PROFILE, targets: list[str] | None = None,
            onboard: bool = False, repo: str | None = None) -> int:
    """Open the app on `host`. Onboarding starts when asked for, or on a home agentdeck has
    never written to (no state folder). `repo`: open the repository screen on that folder
    (relative to the current folder) instead of the walkthrough."""
    label = ""
    real_home = os.environ.get("HOME")
    if real_home and Path(real_home).absolute() != Path(host.home).absolute():
        label = str(host.home)
    if repo is not None:
        repo = os.path.abspath(os.path.expanduser(repo))
    app = AgentDeckApp(host, profile=profile, targets=targets,
                       onboard=starts_in_walkthrough(host, onboard, repo),
                       home_path_label=label, repo=repo)
    app.run()
    return app.return_code or 0
