"""Guardrail policy: rules written once in a profile, enforced by agentdeck's hook
handler in each CLI's own channel, every decision recorded.

Small modules, each importable alone (the hook handler imports only what a call needs):

  vocabulary.py   a tool call of any dialect -> Call(class, name, subjects)
  rules.py        rule evaluation over Calls and prompt text (deny > ask > allow)
  answer.py       a decision -> (exit code, stdout, stderr) in the dialect's channel
                  (channel facts: core/facts/hook_channels.py)
  canary.py       the drill's canary: always denied while AGENTDECK_DRILL_ID is set
  compiled.py     the profile's [policy] -> the compiled JSON the handler reads; where it lives
  enforcement.py  per target, how each rule is enforced (the app's Policy tab)
  selftest.py     `agentdeck policy test`: every rule's examples in every dialect's payload shape
"""
