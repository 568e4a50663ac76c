"""Typed views: what the app's panes show, as frozen dataclasses the core builds from a plan.

The adapters describe each target in `DesiredState.output` (typed facts, core/targets/output.py,
that the core's own features, the doctor and the drill, read too); a pane never reads it. It
asks a module here for the view of one target -- `hooks.of(plan, target)`,
`mcp.of(plan, target)`, `browser.of(plan, target)`, `found.of(plan, target)`,
`status.of(plan, target)` -- or for the view of a feature's result (`policy.of(describe())`,
`drill.rows(report)`, `activity.line(record)`, `repo.of(plan)`), and reads attributes only
(tests/unit/test_app_reads_views.py holds the app to it). What only one CLI knows (its words
for switching an MCP server by hand, its browser default, its hook trust) is that target's
`views` part (core/targets/parts/views.py), read through `targets.of(name)`; the app loops
over the registry and never names a target.

Standard library only (dataclasses), and no Textual: the views are plain data.
"""
