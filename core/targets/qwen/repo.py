"""Qwen Code's `repo` part (core/targets/parts/repo.py): its project layer,
`<repository>/.qwen/settings.json` (docs/facts/qwen.md sections 1 and 2, Qwen Code 0.24.4).

Qwen Code does not read agentdeck's repository hook file (`.github/hooks`): agentdeck writes
nothing into a repository for it. What the repository scope reports is what Qwen reads there:

- hooks in the project file fire, before the user's, in every folder while folder trust is off
  (the default); with `security.folderTrust.enabled` an untrusted folder's project file is
  ignored [switches project_hook_default_trust, project_hook_folderTrust_on_*];
- `"disableAllHooks": true` in the project file turns the user's hooks off too -- agentdeck's
  hooks for Qwen in the home among them; only a system file's `false` wins over it
  [switches project_disableAllHooks_vs_user_hook, system_/user_disableAllHooks_false_vs_project_true].
"""
from __future__ import annotations

from ..parts.repo import HookSwitch, RepoFacts, RepoFile, RepoReader
from . import SPEC
from .facts import FACTS as QWEN

PROJECT_SETTINGS = f"{SPEC.home_dirname}/{QWEN.settings_file}"

FACTS = RepoFacts(
    target=SPEC.name, verified=QWEN.verified_versions[-1],
    readers={SPEC.name: RepoReader(
        SPEC.title, f"<repository>/{PROJECT_SETTINGS} of the folder it is started in (not the "
                    "home itself); every folder while folder trust is off (the default)")},
    files=(
        RepoFile(PROJECT_SETTINGS, "repo-qwen-hooks", (SPEC.name,),
                 f"{SPEC.title}'s project hooks: they run before the user's, in every folder "
                 "while folder trust is off (the default)",
                 switch=HookSwitch(
                     key=QWEN.disable_all_key, level="warning",
                     on_true=f"{{rel}} has {QWEN.disable_all_key}: true: {SPEC.title} runs none "
                             "of the user's hooks in this repository either (agentdeck's hooks "
                             f"for {SPEC.title} in the home among them); only a system settings "
                             f"file's {QWEN.disable_all_key}: false wins over it",
                     fix=f"remove it, or pin {QWEN.disable_all_key}: false in the system file "
                         "(`agentdeck org`)")),
    ),
)


TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover  (mypy checks this module against its part's interface)
    from ..parts.repo import RepoPart
    from . import repo as _this
    _conforms: RepoPart = _this
