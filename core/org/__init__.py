"""The organisation layer (docs/org.md): a policy installed by root into each CLI's system
layer, above the user's home, so the user (or a model running as the user) cannot switch it off.

  scope.py      OrgScope / OrgHost: the plan/apply/manifest engine with a root prefix
  ownership.py  root-owned, not group/world-writable, no symlink: every file and parent
  handler.py    the handler copy (stdlib + the shell parser) and its entry (/usr/local/lib/agentdeck)
  targets.py    the org adapter: what each CLI's system layer should contain (from its org part)
  command.py    `agentdeck org plan|apply|uninstall|status|drill`
  drill.py      `agentdeck org drill`: a real turn as an unprivileged user who tries to get out

Facts (paths, keys, what each CLI enforces, with the versions observed): each target's org part,
core/targets/<name>/org.py (interface core/targets/parts/org.py); shared ones core/facts/org.py.
"""
