"""What `agentdeck policy show` / `policy test` say and try for Qwen Code
(core/targets/parts/policy.py; docs/facts/qwen.md section 2, "What a PreToolUse answer does")."""
from __future__ import annotations

CAVEATS = {
    "qwen": ["Qwen Code lets the tool run on a crash, a timeout, any exit but 2, and an exit 2 "
             "with nothing on stderr: agentdeck denies with a hookSpecificOutput deny on stdout "
             "(exit 0, the reason on stderr too), the form another hook's allow cannot outrank",
             "a hook of a Qwen extension (in the user's ~/.qwen/extensions) answering allow "
             "outranks every settings file's hooks: it lets a denied call run",
             "a folder's .qwen/settings.json with disableAllHooks turns every hook off in a "
             "session started there (folder trust is off by default, so Qwen reads any "
             "folder's): agentdeck-self denies an agent writing one, but a cloned repository can "
             "carry one and agentdeck does not check folders; security.folderTrust.enabled: "
             "true in ~/.qwen/settings.json makes Qwen ignore an untrusted folder's settings",
             "list_directory (opt-in) lists a folder's names: a path rule does not act on it"],
}

#: what the built-in rule agentdeck-self keeps an agent from writing (docs/facts/qwen.md
#: section 2, "Switches"): the user settings.json holds agentdeck's hooks and its
#: disableAllHooks turns every hook off; the wrapper they call; and a working folder's
#: .qwen/settings.json, whose disableAllHooks turns the user's hooks off too in the next
#: session started there (folder trust is off by default, so Qwen reads any folder's)
GUARDED = ("settings.json", "agentdeck-hook.sh", "**/.qwen/settings.json")

#: docs/facts/qwen.md section 7: Qwen's own permissions.deny blocks, agentdeck does not write it
NATIVE_LAYER = ("Qwen Code 0.24.4's own permissions.deny (settings.json, Claude-style "
                "Read(...)/Bash(...) rules) also blocks read_file and simple shell reads, but not "
                "`python3 -c` or grep_search; agentdeck does not write it")
