"""The main screen: the host header, the target list with badges, and per-target panes (Plan,
Hooks, Keys, MCP, Browser, Notices, Policy, Org). The plan is computed in a worker; the screen is interactive
before it exists."""
from __future__ import annotations

import json

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer, Static, Switch, TabbedContent, TabPane

from agentdeck.core import overlay
from agentdeck.core.disk import MISSING
from agentdeck.core.plan import KEPT_CLASSES, Plan
from agentdeck.core.views import (hooks as hooks_view, mcp as mcp_view, org as org_view,
                                  policy as policy_view)
from agentdeck.core.views.org import OrgView, with_live
from agentdeck.core.views.policy import PolicyView

from ..messages import Decided, McpToggled
from ..session import (Session, available_targets, all_targets, DECIDE_HINT, home_relative, key_title,
                       target_status, target_title, trust_names)
from ..widgets.browser_pane import BrowserPane
from ..widgets.header import HostHeader
from ..widgets.hooks_pane import HooksPane
from ..widgets.keys_pane import KeysPane
from ..widgets.mcp_pane import McpPane
from ..widgets.org_pane import OrgPane
from ..widgets.plan_pane import PlanPane
from ..widgets.policy_pane import PolicyPane
from ..widgets.tabs import step_tab, switch_tab
from ..widgets.style import level_prefix, no_plan
from ..widgets.target_list import TargetEntry, TargetList
from .apply import ConfirmApplyScreen

DECIDE = Binding.Group("keep/take/skip")
TAB = Binding.Group("tab")
TABS = (("tab-plan", "Plan"), ("tab-hooks", "Hooks"), ("tab-keys", "Keys"), ("tab-mcp", "MCP"),
        ("tab-browser", "Browser"), ("tab-notices", "Notices"), ("tab-policy", "Policy"),
        ("tab-org", "Org"))


def tab_bindings() -> list[Binding]:
    """[ and ] step through the tabs (shown in the footer); 1..8 jump to one (listed by ?)."""
    out = [Binding("left_square_bracket", "prev_tab", "Previous tab", group=TAB),
           Binding("right_square_bracket", "next_tab", "Next tab", group=TAB)]
    for n, (tab_id, title) in enumerate(TABS, 1):
        out.append(Binding(str(n), f"tab('{tab_id}')", f"{title} tab", show=False))
    return out


class PlanReady(Message):
    """`policy`: the Policy tab's view per target (None: this build has no guardrail policy);
    `policy_error`: why the policy could not be described; `org`: the Org tab's view per
    target (the system layer as read with the plan), `org_error`: why it could not be read."""
    def __init__(self, plan: Plan, generation: int,
                 policy: dict[str, PolicyView] | None = None, policy_error: str = "",
                 org: dict[str, OrgView] | None = None, org_error: str = "") -> None:
        super().__init__()
        self.plan = plan
        self.generation = generation
        self.policy = policy
        self.policy_error = policy_error
        self.org = org
        self.org_error = org_error


def policy_views(session, plan: Plan) -> dict[str, PolicyView] | None:
    """The Policy tab's view per target (core/views/policy.py), or None when this build has no
    guardrail policy."""
    return policy_view.for_plan(session.host, session.profile, list(plan.targets))


def org_views(session) -> dict[str, OrgView]:
    """The Org tab's view per target (core/views/org.py): each CLI's system layer as found,
    read-only (under AGENTDECK_ORG_ROOT when the host's environment names one)."""
    return org_view.for_targets(session.host, all_targets())


class PlanFailed(Message):
    def __init__(self, error: str, generation: int) -> None:
        super().__init__()
        self.error = error
        self.generation = generation


def canonical(value) -> str:
    """A value as comparable text (MISSING is a value of its own)."""
    if value is MISSING:
        return "\0missing"
    return json.dumps(value, sort_keys=True, default=str)


def run_only_note(session: Session) -> str:
    """Said on the confirmation when the plan writes pending choices (and trusts hooks where a
    CLI gates them on trust, which lasts for this run only)."""
    out = []
    words = overlay.describe(session.pending())
    if words:
        out.append(f"This apply writes your choices ({'; '.join(words)}) to "
                   f"{session.layer_path()}, your layer on profile "
                   f"{overlay.base_of(session.profile)}: later plans (the app, `agentdeck plan`) "
                   "keep them.")
    if session.trust_only_for_this_run():
        out.append(f"{'Trusting' if session.trust_hooks else 'Not trusting'} agentdeck's "
                   f"{trust_names()} hooks lasts for this run: `agentdeck plan` plans without "
                   "that choice.")
    return " ".join(out)


def applied_note(session: Session, plan: Plan) -> str:
    """Said under the result of an apply: where the choices were written (or that the
    operator skipped writing them, so the next plan undoes them)."""
    words = overlay.describe(session.pending())
    out = []
    if words:
        layer = [i for i in plan.items if i.group == "choices"
                 and plan.action(i) in ("write", "remove")]
        skipped = [i for i in plan.items if i.group == "choices" and plan.decision(i) == "skip"]
        if skipped:
            out.append(f"You skipped writing your choices to {session.layer_path()}: the next "
                       "plan follows the profile and undoes them.")
        elif layer:
            out.append(f"Your choices ({'; '.join(words)}) are written to "
                       f"{session.layer_path()}: every plan with profile "
                       f"{overlay.base_of(session.profile)} now keeps them.")
    if session.trust_only_for_this_run():
        out.append(f"{'Trusting' if session.trust_hooks else 'Not trusting'} agentdeck's "
                   f"{trust_names()} hooks lasted for this run: `agentdeck plan` plans without "
                   "that choice.")
    return " ".join(out)


class MainScreen(Screen):
    BINDINGS = [
        Binding("a", "apply", "Apply"),
        Binding("k", "decide('keep')", "Keep mine", group=DECIDE),
        Binding("t", "decide('take')", "Take profile's", group=DECIDE),
        Binding("s", "decide('skip')", "Skip", group=DECIDE),
        *tab_bindings(),
        Binding("d", "doctor", "Doctor"),
        Binding("p", "repo", "Repo"),
        Binding("l", "activity", "Activity", show=False),
        Binding("r", "refresh_plan", "Refresh", show=False),
        Binding("o", "onboard", "Onboard", show=False),
        Binding("u", "show_unchanged", "Show unchanged", show=False),
        Binding("greater_than_sign", "step_target(1)", "Next target", show=False),
        Binding("less_than_sign", "step_target(-1)", "Previous target", show=False),
        Binding("slash", "filter_plan", "Filter the plan", show=False),
        Binding("q", "app.request_quit", "Quit"),
    ]
    #: widget kinds `?` lists the keys of even before they are on screen (the MCP switches
    #: appear with the plan)
    KEY_WIDGETS = (Switch,)
    #: (title, help, action) for the command palette
    PALETTE = [
        ("Apply the plan", "Review the decisions and apply the plan", "apply"),
        ("Refresh the plan", "Compute the plan again from the disk (r)", "refresh_plan"),
        ("Doctor", "Audit what each CLI will really load", "doctor"),
        ("Trust agentdeck's hooks", "{trust} runs only trusted hooks: add their trust to the "
         "plan", "trust_hooks"),
        ("Onboarding walkthrough", "Detect, choose a profile and targets, review, apply (o)",
         "onboard"),
        ("Repository", "Open a repository folder: the hooks it carries for Copilot CLI, VS Code "
         "and the cloud agent (p)", "repo"),
        ("Show or hide unchanged items", "List the items already in sync in the plan tree (u)",
         "show_unchanged"),
        ("Keep mine", "Keep your value for the selected item (k)", "decide('keep')"),
        ("Take profile's", "Take the profile's value for the selected item (t)",
         "decide('take')"),
        ("Skip or unskip", "Leave the selected change out of the apply, or put it back (s)",
         "decide('skip')"),
        ("Filter the plan", "Show only the plan items whose path or key contains a text (/)",
         "filter_plan"),
        ("Activity", "Every allow, ask and deny the hooks recorded, live (l)", "activity"),
        ("Next target", "Show the next CLI's plan and panes (>)", "step_target(1)"),
        ("Previous target", "Show the previous CLI's plan and panes (<)", "step_target(-1)"),
    ]

    def palette(self) -> list[tuple[str, str, str]]:
        """PALETTE, then an entry per target and per tab."""
        out = [(title, help_text.replace("{trust}", trust_names()), action)
               for title, help_text, action in self.PALETTE]
        for t in available_targets():
            out.append((f"Target: {target_title(t)}", f"Show {target_title(t)}'s plan and panes "
                        "(< and > step through the targets)", f"target('{t}')"))
        for n, (tab_id, title) in enumerate(TABS, 1):
            out.append((f"Tab: {title}", f"Show the {title} tab ({n}; [ and ] step through "
                        "the tabs)", f"tab('{tab_id}')"))
        return out

    def __init__(self) -> None:
        super().__init__(id="main")
        self._plan: Plan | None = None
        self._computing = False
        self._target: str | None = None
        self.generation = 0
        self.error: str | None = None
        self.pending_mcp: tuple | None = None
        self.policy: dict[str, PolicyView] | None = None   # the Policy tab's view per target
        self.policy_error = ""               # why the policy could not be described
        self.org: dict[str, OrgView] | None = None  # the Org tab's view per target
        self.org_error = ""                  # why the system layer could not be read

    @property
    def session(self):
        return self.app.session

    # ---- layout -------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield HostHeader(id="host-header")
        avail = set(available_targets())
        entries = [TargetEntry(t, target_title(t), available=t in avail) for t in all_targets()]
        with Horizontal(id="main-body"):
            yield TargetList(entries, id="targets")
            with TabbedContent(id="panes"):
                with TabPane("Plan", id="tab-plan"):
                    yield PlanPane(id="plan-pane")
                with TabPane("Hooks", id="tab-hooks"):
                    yield HooksPane(id="hooks-pane")
                with TabPane("Keys", id="tab-keys"):
                    yield KeysPane(id="keys-pane")
                with TabPane("MCP", id="tab-mcp"):
                    yield McpPane(id="mcp-pane")
                with TabPane("Browser", id="tab-browser"):
                    yield BrowserPane(id="browser-pane")
                with TabPane("Notices", id="tab-notices"):
                    with VerticalScroll(id="notices-pane"):
                        yield Static("", id="notices-body")
                with TabPane("Policy", id="tab-policy"):
                    yield PolicyPane(id="policy-pane")
                with TabPane("Org", id="tab-org"):
                    yield OrgPane(id="org-pane")
        yield Static("", id="status")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        app = self.app
        host = app.session.host
        header = self.query_one(HostHeader)
        header.home = host.display(host.home)
        header.home_path = app.home_path_label
        header.profile = app.session.profile
        header.wsl = host.is_wsl
        header.targets = list(all_targets())
        header.versions = dict(app.versions)
        self.watch(app, "versions", self._versions_changed, init=False)
        header.upgrades = dict(app.upgrades)
        self.watch(app, "upgrades", self._upgrades_changed, init=False)
        self.call_after_refresh(lambda: self._versions_changed(self.app.versions))
        tl = self.query_one(TargetList)
        first = next((t for t in all_targets() if t in set(available_targets())), None)
        if first is not None:
            tl.highlighted = all_targets().index(first)
        self.target = first
        self._set_narrow(self.size.width)
        self.compute_plan()

    def on_resize(self, event) -> None:
        self._set_narrow(event.size.width)

    def _set_narrow(self, width: int) -> None:
        self.set_class(width < 110, "-narrow")

    def _upgrades_changed(self, upgrades: dict) -> None:
        self.query_one(HostHeader).upgrades = dict(upgrades)

    def _versions_changed(self, versions: dict) -> None:
        self.query_one(HostHeader).versions = dict(versions)
        tl = self.query_one(TargetList)
        for t in all_targets():
            if t in versions and versions[t] != "checking…":
                tl.update_entry(t, installed=versions[t] is not None)

    # ---- the plan -----------------------------------------------------------------------------
    def compute_plan(self) -> None:
        self.generation += 1
        self.computing = True
        self._status()
        self._plan_worker(self.generation)

    @work(thread=True, exclusive=True, group="plan")
    def _plan_worker(self, generation: int) -> None:
        try:
            plan = self.session.build_plan()
        except Exception as e:  # noqa: BLE001 - every failure becomes one line on screen
            msg = str(e) or type(e).__name__
            self.post_message(PlanFailed(home_relative(self.session.host, msg), generation))
            return
        policy, failed = None, ""
        try:
            policy = policy_views(self.session, plan)
        except Exception as e:  # noqa: BLE001 - the plan is shown; the Policy tab says why not
            failed = home_relative(self.session.host, str(e) or type(e).__name__) or "error"
        org, org_failed = None, ""
        try:
            org = org_views(self.session)
        except Exception as e:  # noqa: BLE001 - the plan is shown; the Org tab says why not
            org_failed = home_relative(self.session.host, str(e) or type(e).__name__) or "error"
        self.post_message(PlanReady(plan, generation, policy, failed, org=org,
                                    org_error=org_failed))

    def on_plan_ready(self, event: PlanReady) -> None:
        if event.generation != self.generation:
            return
        before = self._plan
        self._computing = False
        self.error = None
        self.policy = event.policy
        self.policy_error = event.policy_error
        self.org = event.org
        self.org_error = event.org_error
        if self.pending_mcp is not None:
            pending, self.pending_mcp = self.pending_mcp, None
            if len(pending) == 4:       # the second round of one switch (see _switch_follows)
                before = pending[3]
            self._switch_follows(before, event.plan, *pending[:3])
        self.plan = event.plan

    def on_plan_failed(self, event: PlanFailed) -> None:
        if event.generation != self.generation:
            return
        self._computing = False
        self.error = event.error
        self.pending_mcp = None
        self._plan = None
        self._refresh_all()

    # plain properties (not reactives): each change redraws exactly what depends on it
    @property
    def plan(self) -> Plan | None:
        return self._plan

    @plan.setter
    def plan(self, plan: Plan | None) -> None:
        self._plan = plan
        self._refresh_all()

    @property
    def target(self) -> str | None:
        return self._target

    @target.setter
    def target(self, target: str | None) -> None:
        changed = target != self._target
        self._target = target
        if changed and self.is_mounted:
            self._refresh_panes()

    @property
    def computing(self) -> bool:
        return self._computing

    @computing.setter
    def computing(self, value: bool) -> None:
        self._computing = value
        self._status()
        self.app.bindings_changed()

    def _refresh_all(self) -> None:
        plan = self.plan
        tl = self.query_one(TargetList)
        avail = set(available_targets())
        for t in all_targets():
            if t not in avail:
                continue
            if plan is None:
                tl.update_entry(t, badge="plan failed" if self.error else "computing…")
            else:
                tl.update_entry(t, badge=target_status(plan, t).badge())
        self._refresh_panes()
        self._status()
        self.app.bindings_changed()

    def _refresh_panes(self) -> None:
        host = self.session.host
        plan, target, error = self.plan, self.target, self.error
        if plan is not None and target in plan.errors:   # this target alone could not be planned
            error, plan = home_relative(host, plan.errors[target]), None
        self.query_one(PlanPane).load(host, plan, target, error=error)
        self.query_one(HooksPane).load(host, plan, target, error=error)
        self.query_one(KeysPane).load(host, plan, target, error=error)
        self.query_one(McpPane).load(host, plan, target, error=error,
                                     switched=self.session.mcp_enabled.get(target or "", {}),
                                     saved=self.session.saved_mcp(target or ""),
                                     layer=self.session.layer_path())
        self.query_one(BrowserPane).load(host, plan, target, error=error)
        pol = self.policy
        self.query_one(PolicyPane).load(
            host, pol.get(target or "") if pol is not None else None, target,
            ready=plan is not None, error=error,
            available=pol is not None or bool(self.policy_error), failed=self.policy_error)
        self._refresh_org()
        tabs = self.query_one(TabbedContent)
        notices = plan.notices.get(target, []) if plan is not None and target else []
        tabs.get_tab("tab-notices").label = f"Notices ({len(notices)})" if notices else "Notices"
        body = Text()
        if plan is None:
            body = no_plan(error)
        elif not notices:
            body.append("No notices for this target.", style="dim")
        for n, notice in enumerate(notices):
            if n:
                body.append("\n")
            body.append_text(level_prefix(notice.level))
            body.append(home_relative(host, notice.message))
            if notice.path:
                body.append(f"  ({host.display(notice.path)})", style="dim")
        self.query_one("#notices-body", Static).update(body)

    def _refresh_org(self) -> None:
        """The Org tab, with the live row of the doctor's last run (kept by the app)."""
        view = (self.org or {}).get(self.target or "")
        if view is not None:
            findings, live = self.app.doctor_findings or ((), False)
            view = with_live(view, findings, live)
        self.query_one(OrgPane).load(self.session.host, view, error=self.org_error)

    def on_screen_resume(self) -> None:
        """Back from the doctor: its live checks may have run."""
        if self.is_mounted:
            self._refresh_org()

    def _status(self) -> None:
        st = self.query_one("#status", Static)
        if self.computing:
            st.update(Text("Computing the plan…", style="italic"))
        elif self.error:
            line = Text("Could not compute the plan: ", style="bold red3", no_wrap=True,
                        overflow="ellipsis")
            line.append(self.error.splitlines()[0] if self.error else "")
            st.update(line)
        elif self.plan is not None and self.plan.errors:
            host = self.session.host
            line = Text("Could not compute the plan: ", style="bold red3", no_wrap=True,
                        overflow="ellipsis")
            failed = list(self.plan.errors)
            line.append(home_relative(host, self.plan.errors[failed[0]]).splitlines()[0])
            line.append(f"  ({', '.join(failed)}; the other targets are planned)")
            st.update(line)
        elif self.plan is not None:
            summary = self.plan.summary()
            t = Text(summary, style="bold")
            undecided = self.plan.undecided_conflicts()
            if undecided:       # the summary counts them; say what to press
                t.append("  " + DECIDE_HINT, style="bold red3")
            st.update(t)
        st.set_class(bool(self.error or (self.plan is not None and self.plan.errors)), "-error")

    # ---- messages from the panes --------------------------------------------------------------
    @on(TargetList.Chosen)
    def _target_chosen(self, event: TargetList.Chosen) -> None:
        if event.target in available_targets():
            self.target = event.target

    @on(Decided)
    def _decided(self, event: Decided) -> None:
        plan = self.plan
        if plan is None:
            return
        try:
            self.session.decide(plan, event.item_id, event.decision)
        except (KeyError, ValueError) as e:
            self.notify(str(e), severity="warning")
            return
        self.plan = plan   # always_update: redraw everything from the same plan

    @on(McpToggled)
    def _mcp_toggled(self, event: McpToggled) -> None:
        self.session.set_mcp(event.target, event.server, event.enabled)
        self.pending_mcp = (event.target, event.server, event.enabled)
        self.compute_plan()

    @on(HooksPane.TrustHooks)
    def _trust_hooks(self, event: HooksPane.TrustHooks) -> None:
        self._set_trust(event.trust)

    def _trust_targets(self) -> list[str]:
        """The planned targets whose CLI gates hooks on trust: the current one first."""
        plan = self.plan
        if plan is None:
            return []
        out = [t for t in plan.targets if hooks_view.of(plan, t).trust_gated]
        return sorted(out, key=lambda t: t != self.target)

    def _set_trust(self, on: bool) -> None:
        """Trust agentdeck's hooks (the default) or not: a choice in the operator's layer that
        the apply writes, so every later plan (`agentdeck plan` too) follows it."""
        self.session.trust_hooks = None
        for t in self._trust_targets()[:1]:
            self.session.set_trust(t, on)
        self.session.unapplied_switches += 1
        self.compute_plan()

    def _switch_follows(self, before: Plan | None, after: Plan, target: str, server: str,
                        enabled: bool) -> None:
        """A switch does what it says in one step. The items the switch changed (their desired
        value moved) that are the operator's own -- a settings key agentdeck did not write, or
        one edited since -- would be kept as they are by default, so apply would change
        nothing; the switch decides "take" for them and says so. Items taken earlier by a switch
        that now want nothing written go back to the default."""
        session = self.session
        row = mcp_view.of(after, target).server(server)
        if row is not None and row.enabled != enabled \
                and session.mcp_explicit(target, server, enabled):
            # dropping the saved choice was not enough (the profile says otherwise): plan the
            # switch as a choice of its own, compared with the plan from before the switch
            self.pending_mcp = (target, server, enabled, before)
            self.compute_plan()
            return
        old = {i.id: canonical(i.desired) for i in before.items} if before is not None else {}
        taken = []
        for it in after.for_target(target):
            if it.id in session.auto_taken:
                if "take" in it.choices and canonical(it.desired) != canonical(it.actual):
                    continue            # still needed: reapply() kept the "take"
                session.auto_taken.discard(it.id)
                session.decisions.pop(it.id, None)
                if it.default_decision in it.choices:
                    after.decide(it.id, it.default_decision)
                continue
            # changed by the switch: a new item (the profile did not want the key before), or
            # a new desired value
            moved = before is not None and old.get(it.id) != canonical(it.desired)
            if not moved or it.cls not in KEPT_CLASSES:
                continue
            if "take" not in it.choices or session.decisions.get(it.id) == "take":
                continue
            if canonical(it.desired) == canonical(it.actual):
                continue
            after.decide(it.id, "take")
            session.decisions[it.id] = "take"
            session.auto_taken.add(it.id)
            taken.append(it)
        # the server's own state, as the core now plans it
        view = mcp_view.of(after, target)
        row = view.server(server)
        if row is not None and row.enabled != enabled:
            # the core kept the operator's own state: say why and forget the override
            session.mcp_enabled.get(target, {}).pop(server, None)
            by_hand = view.by_hand_hint(server, enabled)
            hint = f" ({by_hand})" if by_hand else ""
            self.notify(f"{server} stays {'off' if enabled else 'on'}: you "
                        f"{'disabled' if enabled else 'enabled'} it yourself in "
                        f"{target_title(target)}, and agentdeck never overrides that{hint}.",
                        severity="warning", timeout=8)
            return
        msg = f"{server} {'on' if enabled else 'off'}: "
        if taken:
            host = session.host
            names = ", ".join(f"{key_title(i)} in {host.display(i.path)}" for i in taken)
            msg += (f"apply writes {names} (it was yours, so it is now decided \"take "
                    "profile's\"; what else you had in it stays).")
        else:
            msg += "the plan follows."
        if server not in session.mcp_enabled.get(target, {}):
            msg += " Back as saved: nothing to write for it."
        elif session.mcp_enabled[target][server] is None:
            msg += (f" Apply removes your saved choice for it from {session.layer_path()}: the "
                    "profile's own setting applies again.")
        else:
            msg += f" Apply also saves the switch in {session.layer_path()}, so later plans keep it."
        self.notify(msg, title="MCP switch", timeout=10)

    def unsaved(self) -> int:
        return self.session.unsaved(self.plan)

    # ---- actions ------------------------------------------------------------------------------
    def _decision_pane(self):
        """The pane whose selected item the decision keys act on (Plan or Keys tab)."""
        active = self.query_one(TabbedContent).active
        if active == "tab-plan":
            return self.query_one(PlanPane)
        if active == "tab-keys":
            return self.query_one(KeysPane)
        return None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "decide":
            pane = self._decision_pane()
            if pane is None or self.plan is None:
                return None
            return pane.check_action(str(parameters[0]), ())
        if action == "apply":   # a conflict alone opens the confirmation, which says what to do
            return bool(self.plan is not None and not self.computing and not self.plan.errors
                        and (self.plan.has_work or self.plan.undecided_conflicts())) or None
        if action == "refresh_plan":
            return not self.computing or None
        if action == "trust_hooks":
            plan = self.plan
            ok = plan is not None and any(hooks_view.of(plan, t).trust_gated
                                          for t in plan.targets)
            return ok or None
        return True

    def action_apply(self) -> None:
        if not self.check_action("apply", ()):
            return
        session = self.session
        note = run_only_note(session)

        def confirmed(ok: bool | None) -> None:
            if ok:
                self.app.push_screen(
                    self.app.make_apply_screen(self.plan, recompute=session.fresh_plan,
                                               note=applied_note(session, self.plan)),
                    self._applied)

        self.app.push_screen(ConfirmApplyScreen(session.host, self.plan, note=note), confirmed)

    def _applied(self, result) -> None:
        # decisions were for the plan that was applied; the choices are in the layer now
        if result is not None:
            self.session.applied()
        self.compute_plan()

    def action_trust_hooks(self) -> None:
        ts = self._trust_targets()
        self._set_trust(not (self.session.trusts(ts[0]) if ts else bool(self.session.trust_hooks)))

    def action_decide(self, what: str) -> None:
        pane = self._decision_pane()
        if pane is not None and pane.check_action(what, ()):
            getattr(pane, f"action_{what}")()

    @on(TabbedContent.TabActivated)
    def _tab_changed(self, event: TabbedContent.TabActivated) -> None:
        self.app.bindings_changed()
        if event.pane is not None and event.pane.id == "tab-mcp":
            # the MCP tab is its switches: the first takes the focus, so space toggles it
            # without a Tab first
            self.call_after_refresh(self._focus_first_switch)

    def _focus_first_switch(self) -> None:
        from textual.widgets import Switch   # local: the MCP tab's only

        found = self.query_one("#tab-mcp").query(Switch)
        if found:
            found.first().focus()

    def action_tab(self, tab_id: str) -> None:
        switch_tab(self.query_one(TabbedContent), tab_id)

    def _step_tab(self, step: int) -> None:
        step_tab(self.query_one(TabbedContent), [t for t, _ in TABS], step)

    def action_next_tab(self) -> None:
        self._step_tab(1)

    def action_prev_tab(self) -> None:
        self._step_tab(-1)

    def action_target(self, target: str) -> None:
        """Show `target` (the palette's per-target entries; < and > step)."""
        if target not in available_targets():
            return
        tl = self.query_one(TargetList)
        tl.highlighted = tl.get_option_index(target)
        self.target = target

    def action_step_target(self, step: int) -> None:
        avail = [t for t in all_targets() if t in set(available_targets())]
        if not avail:
            return
        cur = avail.index(self.target) if self.target in avail else 0
        self.action_target(avail[(cur + int(step)) % len(avail)])

    def action_filter_plan(self) -> None:
        """/: the plan tab's filter field."""
        switch_tab(self.query_one(TabbedContent), "tab-plan")
        self.query_one(PlanPane).open_filter()

    def action_activity(self) -> None:
        self.app.open_activity()

    def action_repo(self) -> None:
        self.app.open_repo()

    def action_refresh_plan(self) -> None:
        if not self.computing:
            self.compute_plan()

    def action_doctor(self) -> None:
        self.app.open_doctor()

    def action_onboard(self) -> None:
        self.app.open_onboarding()

    def action_show_unchanged(self) -> None:
        switch_tab(self.query_one(TabbedContent), "tab-plan")
        pane = self.query_one(PlanPane)
        pane.show_all = not pane.show_all
