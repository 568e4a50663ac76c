"""Type checks for the settings.json values agentdeck writes for Copilot.

One invalid value anywhere in settings.json makes Copilot 1.0.102 ignore the WHOLE file
(docs/facts/copilot.md: `"disableAllHooks": "no"` -> `copilot config --list --json` prints
`{}`), and a key it does not know draws a warning on every launch. So before a profile key
becomes a plan item:

- the key must be one of the 105 keys Copilot knows (agentdeck.core.targets.copilot.facts.SETTINGS_KEYS, or a
  legacy alias it still accepts); an unknown key is not written;
- where the value's type is known (TYPES below, the keys whose type the reference or the real CLI
  establishes), it must match; otherwise any JSON value is let through.

The real-client tests (tests/clients/test_copilot_real.py) check that the written settings.json
is loaded: `copilot config --list --json` is not `{}`.
"""
from __future__ import annotations

from typing import Any, Callable

from . import facts


def _bool(v: Any) -> bool:
    return isinstance(v, bool)


def _str(v: Any) -> bool:
    return isinstance(v, str)


def _str_list(v: Any) -> bool:
    return isinstance(v, list) and all(isinstance(x, str) for x in v)


def _status_line(v: Any) -> bool:
    return (isinstance(v, dict) and v.get("type") == "command" and isinstance(v.get("command"), str)
            and bool(v["command"].strip()))


#: key -> (check, what the value must be)
TYPES: dict[str, tuple[Callable[[Any], bool], str]] = {
    "disableAllHooks": (_bool, "true or false"),
    "disabledHooks": (_str_list, "a list of strings"),
    "disabledMcpServers": (_str_list, "a list of server names"),
    "enabledMcpServers": (_str_list, "a list of server names"),
    "statusLine": (_status_line, '{"type": "command", "command": "<command>"}'),
    "model": (_str, "a string"),
    "theme": (_str, "a string"),
    "autoUpdate": (_bool, "true or false"),
    "respectGitignore": (_bool, "true or false"),
    "includeCoAuthoredBy": (_bool, "true or false"),
    "renderMarkdown": (_bool, "true or false"),
    "screenReader": (_bool, "true or false"),
    "storeTokenPlaintext": (_bool, "true or false"),
    "stream": (_bool, "true or false"),
    "allowedUrls": (_str_list, "a list of strings"),
    "deniedUrls": (_str_list, "a list of strings"),
    "skillDirectories": (_str_list, "a list of strings"),
    "disabledSkills": (_str_list, "a list of strings"),
    "enabledFeatureFlags": (lambda v: isinstance(v, (list, dict)), "a list or an object"),
}


def check_setting(key: str, value: Any) -> str | None:
    """A one-line problem with writing `key: value` into Copilot's settings.json, or None."""
    if key in facts.COPILOT.settings_misplaced_keys:
        return f"it belongs in {facts.COPILOT.settings_misplaced_keys[key]}, not settings.json"
    if key not in facts.SETTINGS_KEYS and key not in facts.SETTINGS_LEGACY_ALIASES:
        return (f"Copilot {facts.COPILOT.verified_versions[1]} does not know this key (it would "
                "warn on every launch)")
    canon = facts.SETTINGS_LEGACY_ALIASES.get(key, key)
    rule = TYPES.get(canon)
    if rule is not None and not rule[0](value):
        return f"the value must be {rule[1]}"
    return None
