"""The screens fit 80x24: every footer key is whole, a binding group's label keeps its space,
the walkthrough's step bar fits, and the Keys table cuts no column (at 120x40 either)."""
from __future__ import annotations

from textual.widgets import DataTable

from agentdeck.app.screens.onboarding import OnboardingScreen
from agentdeck.app.widgets.keys_pane import KeysPane

from app_helpers import choose_tab, go_to, settle


def footer_fits(screen, width: int) -> None:
    """Every footer key is whole and left of the command palette's key; a group's label keeps
    a space before the next key."""
    keys = [k for k in screen.query("FooterKey") if not k.has_class("-command-palette")]
    palette = [k for k in screen.query("FooterKey") if k.has_class("-command-palette")]
    right = palette[0].region.x if palette else width
    for k in keys:
        assert k.region.right <= right, f"{k.key} {k.description!r} is cut at {width} columns"
    widgets = sorted([*keys, *screen.query("FooterLabel")], key=lambda w: w.region.x)
    for a, b in zip(widgets, widgets[1:]):
        if type(a).__name__ == "FooterLabel":
            assert b.region.x > a.region.right, "no space after a binding group's label"


async def test_footers_fit_at_80x24_with_spaces_after_groups(demo_host, make_app, fake_doctor):
    demo_host.state_dir.mkdir(parents=True)
    app = make_app(demo_host)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        main = app.screen
        for tab in ("tab-plan", "tab-keys"):
            await choose_tab(pilot, tab)
            footer_fits(main, 80)
        labels = [str(l.content) for l in main.query("FooterLabel")]
        assert "keep/take/skip" in labels and "tab" in labels
        await pilot.press("d")
        await settle(pilot)
        footer_fits(app.screen, 80)
        await pilot.press("escape")
        await pilot.press("o")
        await settle(pilot)
        ob = app.screen
        bar = ob._step_bar()
        assert len(bar.plain) <= 78 and "7 Doctor" in bar.plain and "[1 Detect]" in bar.plain
        for step in ("detect", "targets", "review"):
            await go_to(pilot, ob, step)
            await settle(pilot)
            footer_fits(ob, 80)


async def test_keys_table_fits_without_cutting_columns(demo_host, make_app):
    for size in ((80, 24), (120, 40)):
        app = make_app(demo_host)
        async with app.run_test(size=size) as pilot:
            await settle(pilot)
            if isinstance(app.screen, OnboardingScreen):
                await pilot.press("escape")
                await settle(pilot)
            await choose_tab(pilot, "tab-keys")
            table = app.screen.query_one(KeysPane).query_one(DataTable)
            assert table.virtual_size.width <= table.scrollable_content_region.width, size
            for col in table.columns.values():
                assert col.get_render_width(table) - 2 >= len(str(col.label)), (size, col.label)
            # the key names keep room for themselves (the values are whole in the bar below)
            key = next(c for c in table.columns.values() if str(c.label) == "key")
            assert key.get_render_width(table) - 2 >= 20, (size, key.get_render_width(table))
