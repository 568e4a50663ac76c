"""What several targets' doctor checks share (core/targets/<name>/doctor.py and probes.py): a
value's type and likely spelling, hook commands (agentdeck's wrapper and the handler it runs),
persona markers and skill links, literal credentials and file modes, "fires twice", and the live
comparisons' wording. Below the targets: nothing here imports the doctor, nor a target package by its name.
"""
