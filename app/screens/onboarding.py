"""The onboarding walkthrough: detect (CLIs, WSL, browsers), choose a profile, choose targets,
options (MCP default-disabled, browser, trusting agentdeck's hooks where a CLI gates hooks on
trust), review the plan, apply, run the doctor.

Nothing is written before the operator presses Apply on the review step: every earlier step only
reads (plans are computed in workers, and computing a plan reads only). Cancelling before that
dismisses with "cancelled", and the app says "no changes were made"."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import (Button, ContentSwitcher, Footer, RadioButton, RadioSet,
                             SelectionList, Static, Switch)
from textual.widgets.selection_list import Selection

from agentdeck.core import engine, overlay, profiles
from agentdeck.core.hooks_health import inert
from agentdeck.core.plan import Plan
from agentdeck.core.views import browser as browser_view, found as found_view, targets as views

from ..messages import Decided
from ..session import (Session, all_targets, and_list, available_profiles, available_targets,
                       home_relative, target_title)
from ..widgets.marks import MarkedRadioButton, MarkedSelectionList
from ..widgets.plan_pane import PlanPane
from ..widgets.plan_tree import PlanTree
from ..widgets.style import RESULT_STYLE
from .apply import ConfirmApplyScreen, backed_up
from .main import applied_note, run_only_note
from agentdeck.core.wording import count_of

STEPS = (("detect", "Detect"), ("profile", "Profile"), ("targets", "Targets"),
         ("options", "Options"), ("review", "Review"), ("apply", "Apply"), ("doctor", "Doctor"))
DECIDE = Binding.Group("keep/take/skip")


def browser_choices() -> tuple[tuple[str, str], ...]:
    """The browser option's choices (for the CLIs with a browser for MCP sign-in)."""
    own = [b.own_browser for t in views.browser_targets()
           if (b := views.of(t).browser) is not None]
    return (
        ("auto", "auto: under WSL, the first of wslview, Windows Chrome, Edge (elsewhere: nothing)"),
        ("none", " / ".join(own) or "the CLI's own browser (write nothing)"),
        ("suppress", "no browser: park OAuth URLs in a file and open them yourself"),
    )


def browser_clis() -> str:
    """The CLIs the browser option is for, by their short names."""
    return and_list([views.short(t) for t in views.browser_targets()])


@dataclass(frozen=True)
class OptionDefaults:
    """What the chosen profile (with the operator's layer) says about the options."""
    profile: str
    mcp_default_disabled: bool
    browser: str                    # a browser_choices() key
    trust_said_no: tuple[str, ...] = ()   # the layer's lasting no, per target


class OnboardPlanReady(Message):
    def __init__(self, plan: Plan | None, error: str | None, purpose: str, generation: int):
        super().__init__()
        self.plan, self.error, self.purpose, self.generation = plan, error, purpose, generation


class OnboardDoctorDone(Message):
    """`findings`: the doctor's own (what `agentdeck doctor` reports); `extra`: the hooks that
    cannot run after the apply and the drill's receipts, counted on their own."""
    def __init__(self, findings: list | None, error: str | None, extra: list | None = None) -> None:
        super().__init__()
        self.findings, self.error, self.extra = findings, error, extra or []


class OnboardDoctorProgress(Message):
    """What the last step's doctor is doing now (a check, a CLI's drill turn)."""
    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text


class OnboardingScreen(Screen[str]):
    """Dismisses with "cancelled" (nothing written), "applied" or "skipped-apply"."""

    BINDINGS = [
        Binding("n", "next", "Next"),
        Binding("b", "back", "Back"),
        Binding("k", "decide('keep')", "Keep mine", group=DECIDE),
        Binding("t", "decide('take')", "Take profile's", group=DECIDE),
        Binding("s", "decide('skip')", "Skip", group=DECIDE),
        Binding("x", "leave_out", "Leave out what failed"),
        Binding("escape", "cancel", "Cancel"),
        Binding("escape", "close", "Close"),
    ]
    PALETTE = [
        ("Next step", "Go on to the next step of the walkthrough", "next"),
        ("Previous step", "Go back one step", "back"),
        ("Leave out what failed", "Untick each CLI whose plan failed and plan the others",
         "leave_out"),
        ("Cancel the walkthrough", "Leave without writing anything", "cancel"),
        ("Close the walkthrough", "Back to the main screen", "close"),
    ]

    def __init__(self, main_session: Session, first_run: bool = False) -> None:
        super().__init__(id="onboarding")
        self.main_session = main_session
        self.first_run = first_run
        host = main_session.host
        self.session = Session(host=host, profile=main_session.profile,
                               targets=list(main_session.targets) if main_session.targets else None)
        self.step = 0
        self.applied = False
        #: each CLI `x` left out of the plan because its plan failed, with why (said after Apply)
        self.left_out: dict[str, str] = {}
        self.plan: Plan | None = None
        self.detect_plan: Plan | None = None
        self.generation = 0
        self.computing = False
        self.error: str | None = None
        self.defaults: OptionDefaults | None = None
        self.doctor_findings: list | None = None
        self.doctor_extra: list = []      # hooks inert after the apply, the drill's receipts
        refs = available_profiles(host)
        #: profiles an operator can choose (the `_base`-style building blocks are left out)
        #: (and the operator's layers, core.overlay: each is used with the profile it extends)
        from agentdeck.core import overlay

        self.profile_refs = {n: r for n, r in sorted(refs.items())
                             if not n.startswith("_") and not overlay.is_overlay(n)}

    # ---- layout -------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static("", id="onboard-steps")
        with ContentSwitcher(initial="step-detect", id="onboard-body"):
            with VerticalScroll(id="step-detect", classes="onboard-step"):
                yield Static("", id="detect-body")
            with VerticalScroll(id="step-profile", classes="onboard-step"):
                yield Static(Text("Choose a profile: what to install into each CLI.",
                                  style="bold"))
                yield RadioSet(*[MarkedRadioButton(f"{name} ({ref.origin})",
                                             value=name == self.session.profile,
                                             id=f"profile-{_safe(name)}", name=name)
                                 for name, ref in self.profile_refs.items()], id="profile-set")
                yield Static("", id="profile-about")
            with VerticalScroll(id="step-targets", classes="onboard-step"):
                yield Static(Text("Choose the CLIs to configure (space toggles).", style="bold"))
                yield MarkedSelectionList(id="target-set")
                yield Static("", id="targets-note")
            with VerticalScroll(id="step-options", classes="onboard-step"):
                yield Static(Text("Options for this install", style="bold"))
                with Horizontal(classes="option-row"):
                    yield Switch(True, animate=False, id="opt-mcp-disabled")
                    yield Static("", id="opt-mcp-text")
                with Horizontal(classes="option-row", id="opt-trust-row"):
                    yield Switch(True, animate=False, id="opt-trust-hooks")
                    yield Static("", id="opt-trust-text")
                yield Static(Text(f"\nBrowser for MCP sign-in ({browser_clis()})", style="bold"))
                with RadioSet(id="opt-browser"):
                    for key, label in browser_choices():
                        yield MarkedRadioButton(label, id=f"browser-{key}")
                yield Static("", id="options-note")
            with Vertical(id="step-review", classes="onboard-step"):
                yield Static("", id="review-head")
                yield PlanPane(id="review-plan")
            with VerticalScroll(id="step-apply", classes="onboard-step"):
                yield Static("", id="apply-body")
            with VerticalScroll(id="step-doctor", classes="onboard-step"):
                yield Static("", id="doctor-body")
        with Horizontal(id="onboard-nav"):
            yield Button("Cancel", id="nav-cancel", compact=True)
            yield Button("Back", id="nav-back", compact=True)
            yield Button("Next", id="nav-next", variant="primary", compact=True)
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.set_class(self.size.width < 110, "-narrow")
        host = self.session.host
        # targets
        sl = self.query_one("#target-set", SelectionList)
        # the targets a command would cover (core.scopes.COVERAGE), ticked
        chosen = self.session.targets or self.session.covered_targets()
        for t in available_targets():
            sl.add_option(Selection(self._target_label(t), t, t in chosen, id=f"target-{t}"))
        self.watch(self.app, "versions", self._versions_changed, init=False)
        self._show_step()
        self._compute("detect")

    def on_resize(self, event) -> None:
        self.set_class(event.size.width < 110, "-narrow")

    def _target_label(self, t: str) -> str:
        v = self.app.versions.get(t)
        state = "checking…" if v == "checking…" else ("not installed" if v is None else v)
        return f"{target_title(t)} ({t}) — {state}"

    def _versions_changed(self, versions: dict) -> None:
        sl = self.query_one("#target-set", SelectionList)
        for t in available_targets():
            try:
                sl.replace_option_prompt(f"target-{t}", self._target_label(t))
            except Exception:  # noqa: BLE001 - the option list may be rebuilding
                pass
        if STEPS[self.step][0] == "detect":
            self._render_detect()

    # ---- steps --------------------------------------------------------------------------------
    @property
    def step_id(self) -> str:
        return STEPS[self.step][0]

    def _step_bar(self) -> Text:
        """Every step on one line, the current one marked [n Title] (not by colour alone):
        77 columns, so the bar fits at 80."""
        t = Text(no_wrap=True, overflow="ellipsis")
        for n, (_, title) in enumerate(STEPS):
            if n:
                t.append(" › ", style="dim")
            if n == self.step:
                t.append(f"[{n + 1} {title}]", style="bold reverse")
            else:
                t.append(f"{n + 1} {title}", style="" if n < self.step else "dim")
        return t

    def _show_step(self) -> None:
        self.query_one("#onboard-steps", Static).update(self._step_bar())
        sid = self.step_id
        self.query_one(ContentSwitcher).current = f"step-{sid}"
        nxt = self.query_one("#nav-next", Button)
        back = self.query_one("#nav-back", Button)
        cancel = self.query_one("#nav-cancel", Button)
        nxt.label = {"options": "Review the plan", "review": "Apply", "apply": "Run the doctor",
                     "doctor": "Finish"}.get(sid, "Next")
        back.disabled = self.step == 0
        back.display = not self.applied          # nothing to go back to after an apply
        cancel.label = "Close" if self.applied else "Cancel"
        for b in (nxt, cancel):
            b.refresh(layout=True)        # a new label, a new width (width: auto)
        nxt.disabled = not self._can_next()
        if sid == "detect":
            self._render_detect()
        elif sid == "profile":
            self._render_profile()
        elif sid == "targets":
            self._render_targets()
        elif sid == "options":
            self._render_options()
        elif sid == "review":
            self._render_review()
        elif sid == "apply":
            self._render_apply()
        elif sid == "doctor":
            self._render_doctor()
        self._focus_step()
        self.app.bindings_changed()

    def _focus_step(self) -> None:
        sid = self.step_id
        target = {"profile": "#profile-set", "targets": "#target-set",
                  "options": "#opt-mcp-disabled", "review": "#review-plan PlanTree"}.get(sid)
        if target:
            try:
                self.query_one(target).focus()
                return
            except Exception:  # noqa: BLE001
                pass
        self.query_one("#nav-next", Button).focus()

    def _can_next(self) -> bool:
        sid = self.step_id
        if self.computing and sid in ("review",):
            return False
        if sid == "targets":
            return bool(self.query_one("#target-set", SelectionList).selected)
        if sid == "review":
            return bool(self.plan is not None and self.plan.has_work
                        and not self.plan.undecided_conflicts() and not self.error
                        and not self.plan.errors)
        return True

    # ---- rendering each step ------------------------------------------------------------------
    def _render_detect(self) -> None:
        host = self.session.host
        t = Text()
        t.append("Welcome to agentdeck\n", style="bold")
        if self.first_run:
            t.append("agentdeck has not written anything to this home yet. ", style="")
        t.append("This walkthrough looks at this machine, lets you choose a profile and the CLIs "
                 "to configure, shows the plan, and applies it only when you say so. Nothing is "
                 "written before that: Cancel at any step leaves the home as it is.\n",
                 style="dim")
        tb = Table(box=None, show_header=False, pad_edge=False)
        tb.add_column(style="bold", no_wrap=True)
        tb.add_column()
        tb.add_row("home", host.display(host.home)
                   + (f"  ({self.app.home_path_label})" if self.app.home_path_label else ""))
        tb.add_row("WSL", "yes" if host.is_wsl else "no")
        for tname in all_targets():
            v = self.app.versions.get(tname, "checking…")
            tb.add_row(tname, Text("not installed", style="grey50") if v is None else str(v))
        tb.add_row("browsers", self._browser_summary())
        found = self._found_summary()
        if found is not None:
            tb.add_row("other tools", found)
        self.query_one("#detect-body", Static).update(_group(t, tb))

    def _found_summary(self) -> Text | None:
        """Another tool's hook install in this home (core/targets/takeover.py), per CLI: the
        review step shows what becomes of each part (docs/migrating.md)."""
        if self.detect_plan is None:
            return None
        out = Text()
        for tname in self.detect_plan.targets:
            for f in found_view.of(self.detect_plan, tname):
                if out:
                    out.append("\n")
                out.append(f"{tname}: {f.title}")
        if not out:
            return None
        out.append("\nagentdeck can take it over; the review step lists each part and what "
                   "becomes of it, and uninstall gives it back", style="dim")
        return out

    def _browser_summary(self) -> Text:
        if self.computing and self.detect_plan is None:
            return Text("probing…", style="dim")
        info = browser_view.first(self.detect_plan) if self.detect_plan is not None else None
        if info is None:
            return Text(f"not probed (no {browser_clis() or 'such'} target in this build)",
                        style="dim")
        out = Text()
        if not info.wsl:
            out.append(info.not_wsl)
        for n, c in enumerate(info.candidates):
            if n or out:
                out.append("\n")
            out.append(f"{c.name}: ")
            out.append("found" if c.found else "not found",
                       style="#2f9e44" if c.found else "grey50")
            out.append(f"  {home_relative(self.session.host, c.path)}", style="dim")
        return out

    def _render_profile(self) -> None:
        rs = self.query_one("#profile-set", RadioSet)
        pressed = rs.pressed_button
        name = pressed.name if pressed is not None else self.session.profile
        ref = self.profile_refs.get(name)
        t = Text()
        if ref is not None:
            t.append(f"\n{name}", style="bold")
            t.append(f" — {ref.description or '(no description)'}\n")
            t.append(f"from {self.session.host.display(ref.path)}", style="dim")
        self.query_one("#profile-about", Static).update(t)

    def _render_targets(self) -> None:
        sl = self.query_one("#target-set", SelectionList)
        note = Text()
        if not sl.selected:
            note.append("\nChoose at least one CLI.", style="bold red3")
        missing = [t for t in sl.selected if self.app.versions.get(t) is None]
        if missing:
            one = len(missing) == 1
            note.append(f"\n{and_list(missing)} {'is' if one else 'are'} not installed here; "
                        f"{'its' if one else 'their'} configuration is written anyway and takes "
                        "effect once installed.", style="dim")
        built = set(available_targets())
        absent = [t for t in all_targets() if t not in built]
        if absent:
            note.append(f"\nNot in this build yet: {', '.join(absent)}.", style="dim")
        self.query_one("#targets-note", Static).update(note)

    def _render_options(self) -> None:
        self._render_mcp_option()
        self._render_trust_option()
        t = Text()
        chosen = self._chosen_overrides()
        trial = Session(host=self.session.host, profile=self._chosen_profile(),
                        targets=self._chosen_targets(),
                        overrides=overlay.layer(directives=overlay.directives_of(chosen)))
        changed = trial.run_only()
        trust = overlay.describe(overlay.layer(trust_hooks=overlay.trust_of(chosen)))
        if not changed:
            t.append("\nThe MCP and browser options are as profile ", style="dim")
            t.append(trial.profile, style="bold")
            t.append(" has them.", style="dim")
        else:
            t.append("\nChanged from the profile: ", style="bold")
            t.append("; ".join(changed))
        if trust:
            t.append("\nYour choice: ", style="bold")
            t.append("; ".join(trust))
        if changed or trust:
            t.append(f"\nThe plan writes them to "
                     f"{trial.layer_path()}, your layer on profile "
                     f"{trial.profile}: the apply, the main screen, the doctor and every later "
                     "`agentdeck plan` use them.", style="dim")
        chosen_targets = self._chosen_targets() or []
        if not any(b in chosen_targets for b in views.browser_targets()):
            t.append(f"\n{browser_clis() or 'No CLI with a browser setting'} is not chosen: "
                     "the browser option has no effect.", style="dim")
        self.query_one("#options-note", Static).update(t)

    def _render_review(self) -> None:
        head = self.query_one("#review-head", Static)
        pane = self.query_one(PlanPane)
        host = self.session.host
        if self.computing:
            head.update(Text("Computing the plan…", style="italic"))
            pane.load(host, None, None)
            return
        if self.error:
            head.update(Text("Could not compute the plan: ", style="bold red3")
                        + Text(self.error))
            return
        plan = self.plan
        if plan is None:
            return
        t = Text()
        t.append(plan.summary(), style="bold")
        t.append(f"\nprofile {plan.profile} · targets {', '.join(plan.targets)}", style="dim")
        if not plan.has_work:
            t.append("\nNothing to apply: this home already matches the profile.", style="dim")
        und = plan.undecided_conflicts()
        if und:
            t.append(f"\n{count_of(len(und), 'conflict')}: choose keep mine (k) or take profile's (t) "
                     "before applying.", style="bold red3")
        for target, why in plan.errors.items():
            t.append(f"\n✗ {target}: its plan failed: ", style="bold red3")
            t.append(home_relative(host, why))
        if plan.errors:
            t.append(f"\nNothing is applied while a plan fails. Press x to leave "
                     f"{', '.join(plan.errors)} out and apply the others, or fix the file and "
                     "go Back, then Next, to plan again.", style="bold")
        head.update(t)

        pane.load(host, plan, PlanTree.ALL)

    def _render_apply(self) -> None:
        r = getattr(self, "apply_result", None)
        host = self.session.host
        t = Text()
        if r is None:
            t.append("Not applied.", style="bold")
        else:
            t.append(f"Applied: {count_of(len(r.written), 'file')} written, {len(r.removed)} removed.",
                     style="bold #2f9e44")
            if backed_up(host, r):
                t.append(f"\nBackups of what was replaced: {host.display(r.backup_dir)}")
            if r.leftover:
                t.append("\nAfter applying, the plan still has changes: "
                         + home_relative(host, "; ".join(r.leftover)), style="bold red3")
            else:
                applied = getattr(self, "applied_plan", None)
                t.append("\n" + (applied.after_apply_words() if applied is not None
                                  else "The plan is now empty."))
            chosen = self.query_one("#target-set", SelectionList).selected
            for target, why in self.left_out.items():
                if target not in chosen:      # still left out: not part of "now empty"
                    t.append(f"\nLeft out: {target}, whose plan failed: "
                             f"{home_relative(host, why)}. Fix that, then plan it again "
                             f"(`agentdeck plan --target {target}`).", style="bold dark_orange3")
            note = getattr(self, "apply_note", "")
            if note:
                t.append(f"\n\n{note}", style="dark_orange3")
            t.append("\n\nNext: the doctor checks what each CLI will really load.", style="dim")
        self.query_one("#apply-body", Static).update(t)

    def _finding_rows(self, t: Text, fs: list) -> None:
        for f in [f for f in fs if f.result in ("error", "warning", "info", "skipped")][:8]:
            t.append(f"\n{f.result:<8}", style=RESULT_STYLE.get(f.result, ""))
            t.append(f" {f.target}: {home_relative(self.session.host, f.message)}")
            if f.fix:
                t.append(f"\n         fix: {home_relative(self.session.host, f.fix)}",
                         style="dim")

    def _render_doctor(self) -> None:
        body = self.query_one("#doctor-body", Static)
        if self.doctor_findings is None:
            t = Text("Running the doctor…", style="italic")
            now = getattr(self, "doctor_progress", "")
            if now:
                t.append(f"\n{now}", style="dim")
            body.update(t)
            return
        if isinstance(self.doctor_findings, str):
            body.update(Text(self.doctor_findings, style="dim"))
            return
        from agentdeck.core.doctor.report import summary_line   # local: the doctor's modules are not loaded at the app's start

        t = Text()
        fs = self.doctor_findings
        t.append("Doctor  ", style="bold")        # counted as `agentdeck doctor` counts them
        t.append(summary_line(fs).removeprefix("Summary: "))
        self._finding_rows(t, fs)
        if self.doctor_extra:
            t.append("\n\nAfter the apply: the hooks, and the drill's real turns  ", style="bold")
            t.append(summary_line(self.doctor_extra).removeprefix("Summary: ").split(";")[0])
            self._finding_rows(t, self.doctor_extra)
        t.append("\n\nFinish opens the main screen; press d there for the full doctor report.",
                 style="dim")
        body.update(t)

    # ---- choices ------------------------------------------------------------------------------
    def _chosen_profile(self) -> str:
        pressed = self.query_one("#profile-set", RadioSet).pressed_button
        return pressed.name if pressed is not None and pressed.name else self.session.profile

    def _chosen_targets(self) -> list[str]:
        """In the CLIs' usual order, whatever order they were ticked in."""
        chosen = set(self.query_one("#target-set", SelectionList).selected)
        return [t for t in available_targets() if t in chosen]

    def _chosen_overrides(self) -> dict:
        """The options that differ from what the chosen profile says (those only: an option
        left as the profile has it is the profile's, not this run's)."""
        d: dict[str, Any] = {}
        defaults = self.defaults
        mcp = self.query_one("#opt-mcp-disabled", Switch).value
        if defaults is not None and mcp != defaults.mcp_default_disabled:
            d["mcpDefaultDisabled"] = mcp
        pressed = self.query_one("#opt-browser", RadioSet).pressed_button
        choice = pressed.id.removeprefix("browser-") if pressed is not None else None
        if defaults is None or choice == defaults.browser:
            pass
        elif choice == "auto":
            d["browserCommand"] = "auto"
            d["suppressBrowserLaunch"] = False
        elif choice == "none":
            d["browserCommand"] = None
            d["suppressBrowserLaunch"] = False
        elif choice == "suppress":
            d["browserCommand"] = None
            d["suppressBrowserLaunch"] = True
        out: dict[str, Any] = {"directives": d} if d else {}
        trust = self.query_one("#opt-trust-hooks", Switch).value
        said_no = set(defaults.trust_said_no if defaults is not None else ())   # a lasting no
        tr = {t: (None if trust else False) for t in self._trust_targets()
              if trust == (t in said_no)}
        if tr:
            out["trust_hooks"] = tr
        return out

    def _trust_targets(self) -> list[str]:
        """The chosen targets whose CLI gates hooks on trust."""
        return [t for t in self._chosen_targets() if t in overlay.trust_targets()]

    def _load_defaults(self) -> None:
        """Options start from what the chosen profile says, with the choices saved in the
        operator's layer for it (core.overlay) on top."""
        try:
            prof = profiles.resolve(self.session.host, self._chosen_profile())
            saved = overlay.load(self.session.host, self._chosen_profile())
            # directives are the same for every target: any one applies them
            d = engine.with_overrides(prof, {"directives": overlay.directives_of(saved)},
                                      all_targets()[0]).directives
        except Exception:  # noqa: BLE001 - shown later when the plan is computed
            return
        sw = self.query_one("#opt-mcp-disabled", Switch)
        sw.value = bool(d.mcpDefaultDisabled)
        key = "suppress" if d.suppressBrowserLaunch and not d.browserCommand else \
            ("auto" if d.browserCommand == "auto" else ("none" if d.browserCommand is None
                                                         else "auto"))
        btn = self.query_one(f"#browser-{key}", RadioButton)
        btn.value = True
        # trusting agentdeck's own hooks where a CLI gates hooks on trust: on (every plan's
        # default) unless switched off here or earlier (the layer's false); the hooks are of no
        # use until the CLI trusts them, the review shows each trust item and the apply asks first
        said_no = sorted(t for t, v in overlay.trust_of(saved).items() if v is False)
        self.query_one("#opt-trust-hooks", Switch).value = not said_no
        self.defaults = OptionDefaults(profile=prof.name,
                                       mcp_default_disabled=bool(d.mcpDefaultDisabled),
                                       browser=key, trust_said_no=tuple(said_no))

    @on(Switch.Changed, "#opt-mcp-disabled")
    @on(Switch.Changed, "#opt-trust-hooks")
    @on(RadioSet.Changed, "#opt-browser")
    def _option_changed(self) -> None:
        if self.step_id == "options":
            self._render_options()

    def _render_mcp_option(self) -> None:
        on = self.query_one("#opt-mcp-disabled", Switch).value
        t = Text()
        t.append("ON " if on else "OFF", style="bold #2f9e44" if on else "bold grey50")
        t.append("  MCP servers default-disabled: ", style="bold")
        t.append("servers stay configured but disconnected until you enable one; avoids a "
                 "browser OAuth tab per server at start-up.")
        for tn in self._chosen_targets():
            if how := views.of(tn).mcp_enable:
                t.append(f"\n  {target_title(tn)}: ", style="bold")
                t.append(how)
        self.query_one("#opt-mcp-text", Static).update(t)

    def _render_trust_option(self) -> None:
        row = self.query_one("#opt-trust-row")
        targets = self._trust_targets()
        row.display = bool(targets)
        if not targets:
            return              # no chosen CLI gates hooks on trust: nothing to choose
        host = self.session.host
        on = self.query_one("#opt-trust-hooks", Switch).value
        first = targets[0]
        words = views.of(first).trust
        config = host.display(views.trust_file(first, host))
        names = and_list([views.short(tn) for tn in targets])
        t = Text()
        t.append("ON " if on else "OFF", style="bold #2f9e44" if on else "bold grey50")
        t.append(f"  Trust agentdeck's {names} hooks: ", style="bold")
        if words is not None:
            t.append(f"{words.why} ")
        if on:
            t.append(f"The plan writes the trusted_hash of agentdeck's own hooks (no one "
                     f"else's) to {config}, and every later plan trusts them again when "
                     "agentdeck changes them (every plan's default).", style="dim")
        else:
            by_hand = f"{words.by_hand}, or " if words is not None and words.by_hand else ""
            t.append(f"Off: {names} skips agentdeck's hooks (status: \"hooks inert\"), and "
                     "your layer keeps that no for later plans, until you trust them "
                     f"({by_hand}`agentdeck apply --trust-hooks`).", style="dim")
        self.query_one("#opt-trust-text", Static).update(t)

    @on(RadioSet.Changed, "#profile-set")
    def _profile_changed(self) -> None:
        self._render_profile()

    @on(SelectionList.SelectedChanged)
    def _targets_changed(self) -> None:
        self._render_targets()
        self.query_one("#nav-next", Button).disabled = not self._can_next()
        self.app.bindings_changed()

    # ---- plans --------------------------------------------------------------------------------
    def _compute(self, purpose: str) -> None:
        self.generation += 1
        self.computing = True
        if purpose == "review":
            self.error = None
            self.plan = None
            self.session.profile = self._chosen_profile()
            self.session.targets = self._chosen_targets()
            self.session.overrides = self._chosen_overrides()
        self._plan_worker(purpose, self.generation)

    @work(thread=True, exclusive=True, group="onboard-plan")
    def _plan_worker(self, purpose: str, generation: int) -> None:
        try:
            plan = self.session.build_plan()
        except Exception as e:  # noqa: BLE001
            self.post_message(OnboardPlanReady(None, home_relative(self.session.host, str(e)),
                                               purpose, generation))
            return
        self.post_message(OnboardPlanReady(plan, None, purpose, generation))

    def on_onboard_plan_ready(self, event: OnboardPlanReady) -> None:
        if event.generation != self.generation:
            return
        self.computing = False
        if event.purpose == "detect":
            self.detect_plan = event.plan
            if self.step_id == "detect":
                self._render_detect()
        else:
            self.plan = event.plan
            self.error = event.error
            if self.step_id == "review":
                self._render_review()
        self.query_one("#nav-next", Button).disabled = not self._can_next()
        self.app.bindings_changed()

    @on(Decided)
    def _decided(self, event: Decided) -> None:
        if self.plan is None:
            return
        try:
            self.session.decide(self.plan, event.item_id, event.decision)
        except (KeyError, ValueError) as e:
            self.notify(str(e), severity="warning")
            return
        self._render_review()
        self.query_one("#nav-next", Button).disabled = not self._can_next()
        self.app.bindings_changed()

    # ---- navigation ---------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "leave_out":
            return (self.step_id == "review" and self.plan is not None
                    and bool(self.plan.errors)) or False
        if action == "decide":
            if self.step_id != "review" or self.plan is None:
                return False   # only the review step has items to decide on
            return self.query_one(PlanPane).check_action(str(parameters[0]), ())
        if action == "next":
            return self._can_next() or None
        if action == "back":
            if self.applied:
                return False                     # hidden: the apply cannot be walked back
            return self.step > 0 or None
        if action == "cancel":
            return not self.applied              # after an apply, escape closes instead
        if action == "close":
            return self.applied
        return True

    def action_leave_out(self) -> None:
        """Untick each CLI whose plan failed (the Targets step shows it unticked) and plan the
        others again."""
        plan = self.plan
        if self.step_id != "review" or plan is None or not plan.errors:
            return
        chosen = self.query_one("#target-set", SelectionList)
        for target in plan.errors:
            chosen.deselect(target)
        left = ", ".join(plan.errors)
        self.left_out.update(plan.errors)
        if not chosen.selected:       # nothing left to plan: back to choosing the CLIs
            self.notify(f"Left out {left}: no CLI is left to configure; choose one",
                        severity="warning")
            self.plan = None
            self.step = [sid for sid, _ in STEPS].index("targets")
            self._show_step()
            return
        self.notify(f"Left out {left}; planning the others")
        self._compute("review")
        self._render_review()
        self.query_one("#nav-next", Button).disabled = not self._can_next()
        self.app.bindings_changed()

    def action_decide(self, what: str) -> None:
        pane = self.query_one(PlanPane)
        if self.step_id == "review" and pane.check_action(what, ()):
            getattr(pane, f"action_{what}")()

    @on(Button.Pressed, "#nav-next")
    def action_next(self) -> None:
        if not self._can_next():
            return
        sid = self.step_id
        if sid == "targets":
            self._load_defaults()
        if sid == "options":
            self.step += 1
            self._compute("review")
            self._show_step()
            return
        if sid == "review":
            self._confirm_apply()
            return
        if sid == "apply":
            self.step += 1
            self._show_step()
            self._run_doctor()
            return
        if sid == "doctor":
            self._finish()
            return
        self.step += 1
        self._show_step()

    @on(Button.Pressed, "#nav-back")
    def action_back(self) -> None:
        if self.step > 0 and not self.applied:
            self.step -= 1
            self._show_step()

    @on(Button.Pressed, "#nav-cancel")
    def action_cancel(self) -> None:
        if self.applied:
            self._finish()
        else:
            self.dismiss("cancelled")

    def action_close(self) -> None:
        self._finish()

    def unsaved(self) -> int:
        """Decisions made on the review step and not applied (for the quit question)."""
        if self.applied or self.plan is None:
            return 0
        return self.session.unsaved(self.plan)

    def _confirm_apply(self) -> None:
        """The same confirmation as the main screen's Apply: the summary and the decisions."""
        plan = self.plan
        if plan is None:
            return

        # an error-level notice (a hook handler that cannot be found) holds the
        # apply until the operator presses Apply once more, having read it on the review step
        errors = [f"{t}: {n.message}" for t, ns in plan.notices.items() for n in ns
                  if n.level == "error"]
        if errors and getattr(self, "_errors_seen", None) != errors:
            self._errors_seen = errors
            head = self.query_one("#review-head", Static)
            t = Text("Not applied yet: ", style="bold red3")
            t.append("; ".join(home_relative(self.session.host, e) for e in errors))
            t.append("\nPress Apply again to apply anyway (the hooks will do nothing until "
                     "this is fixed).", style="bold")
            head.update(t)
            self.notify("The plan has errors: read them, then press Apply again to apply anyway",
                        severity="warning")
            return

        def confirmed(ok: bool | None) -> None:
            if ok:
                self._apply()

        self.app.push_screen(ConfirmApplyScreen(self.session.host, plan,
                                                note=run_only_note(self.session)), confirmed)

    def _apply(self) -> None:
        plan = self.plan
        if plan is None:
            return

        note = applied_note(self.session, plan)   # before applied() clears what is pending

        def done(result) -> None:
            if result is None:
                # refused or failed: stay on the review step with a fresh plan
                self._compute("review")
                self._render_review()
                return
            self.applied = True
            self.applied_plan = plan        # what it said was left: its skipped items
            self.apply_result = result
            self.apply_note = note
            # the main screen now plans with what was chosen here, and with the CLIs left out
            # because their plans failed: it says so, rather than "Everything is in sync"
            ms = self.main_session
            ms.profile = self.session.profile
            planned = set(self.session.targets or []) | set(self.left_out)
            ms.targets = [t for t in available_targets() if t in planned] or self.session.targets
            ms.overrides = {}          # written to the operator's layer by this apply
            ms.mcp_enabled.clear()
            ms.trust_hooks = self.session.trust_hooks
            ms.applied()
            self.session.applied()
            self.step = [s for s, _ in STEPS].index("apply")
            self._show_step()

        self.app.push_screen(self.app.make_apply_screen(plan, "Onboarding: applying the plan",
                                                        recompute=self.session.fresh_plan,
                                                        note=note),
                             done)

    def _run_doctor(self) -> None:
        from .doctor import load_doctor   # local: the doctor's modules are not loaded at the app's start

        run = load_doctor()
        if run is None:
            self.doctor_findings = "The doctor is not available in this build."
            self._render_doctor()
            return
        self.doctor_findings = None
        self.doctor_progress = ""
        self._render_doctor()
        self._doctor_worker(run)

    @work(thread=True, exclusive=True, group="onboard-doctor")
    def _doctor_worker(self, run) -> None:
        from .doctor import run_for_session   # local: the doctor's modules are not loaded at the app's start

        s = self.session
        turns: dict[str, str] = {}

        def checks(*args) -> None:
            text = next((a for a in args if isinstance(a, str)), "")
            if text:
                self.post_message(OnboardDoctorProgress(f"the checks: {text}"))

        def drill(target: str, status: str) -> None:
            turns[target] = status
            self.post_message(OnboardDoctorProgress(
                "the drill's real turns: " + ", ".join(f"{t} {st}" for t, st in turns.items())))

        try:
            findings = list(run_for_session(run, s, live=False, progress=checks))
            extra = _inert_findings(s) + _drill_findings(s, drill)
        except Exception as e:  # noqa: BLE001
            self.post_message(OnboardDoctorDone(None, str(e)))
            return
        self.post_message(OnboardDoctorDone(findings, None, extra))

    def on_onboard_doctor_progress(self, event: OnboardDoctorProgress) -> None:
        if self.doctor_findings is None:
            self.doctor_progress = home_relative(self.session.host, event.text)
            self._render_doctor()

    def on_onboard_doctor_done(self, event: OnboardDoctorDone) -> None:
        if event.error is not None:
            self.doctor_findings = f"The doctor failed: {home_relative(self.session.host, event.error)}"
        else:
            self.doctor_findings, self.doctor_extra = event.findings, event.extra
            self.app.doctor_findings = (event.findings, False)   # the doctor screen's, as run
        self._render_doctor()

    def _finish(self) -> None:
        self.dismiss("applied" if self.applied else "cancelled")


def _inert_findings(session) -> list:
    """The "installed, hooks inert: <reason>" finding with the fix, for each target whose
    registered hooks cannot run (core.hooks_health), from the plan after the apply."""
    from agentdeck.core.doctor.findings import Finding   # local: the doctor's modules are not loaded at the app's start

    plan = session.fresh_plan()
    return [Finding(t, "warning", f"{t}.hooks.inert", f"installed, hooks inert: {i.reason}",
                    fix=i.fix) for t in plan.targets for i in inert(plan, t)]


def _drill_findings(session, progress=None) -> list:
    """The last step runs the drill (one real offline turn of each chosen CLI); `progress(target,
    status)` as each turn starts and ends."""
    from agentdeck.core.drill.findings import findings   # local: the drill's modules load only when it runs
    from agentdeck.core.drill.run import drill   # local: as above

    return findings(drill(session.host, session.profile, list(session.fresh_plan().targets),
                          progress=progress))


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in name)


def _group(*parts):
    return Group(*parts)
