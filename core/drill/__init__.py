"""agentdeck drill: prove that the hooks run, with one real offline turn of each CLI.

    server.py    the scripted model server (127.0.0.1, OpenAI Chat/Responses, Anthropic Messages)
    runners.py   each target's drill part (core/targets/<name>/drill.py): its recipe, as data
    scratch.py   the scratch folder the CLI's state goes to (the home is not changed)
    inside.py    the inner process: server + CLI, inside `unshare -n` when available
    receipts.py  the audit lines tagged with the drill's id, counted
    report.py    judging and printing a drill
    run.py       drill(host, profile, targets) -> DrillReport

The CLI entry is `agentdeck drill` (core/cli.py); `doctor --live` and the app's doctor screen
run the same drill().
"""
