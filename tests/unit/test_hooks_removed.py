"""agentdeck's hooks taken out of a CLI's settings after an apply (by a person, or by a model
through a route the guard missed) are kept as the operator's edit -- nothing the operator wrote
is overwritten -- but never in silence: `status` says the hooks are inert and, where the
pre-tool hook is gone, that the CLI's tool calls are not guarded, with the exact `apply --take`
that registers them again; that command restores them."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from agentdeck.core import cli, engine
from agentdeck.core.targets import registry

GUARDED = [s.name for s in registry.TARGETS if s.guarded]


def _wipe(home: Path, target: str) -> None:
    from agentdeck.core.host import Host

    plan = engine.build_plan(Host.from_environment(home, env={"HOME": str(home)}), None,
                             [target])
    hfile = Path(plan.output[target].hooks.file)
    if any(i.type.whole_file for i in plan.items if i.path == str(hfile)):
        hfile.unlink()
    else:
        hfile.write_text("{}\n")


@pytest.mark.parametrize("target", GUARDED)
def test_status_says_the_guard_is_off_and_the_fix_restores_it(target, home, capsys,
                                                              handler_on_path):
    assert cli.main(["apply", "--home", str(home), "--target", target, "--yes"]) == 0
    _wipe(home, target)
    capsys.readouterr()
    assert cli.main(["status", "--home", str(home), "--target", target, "--json"]) == 2
    row = json.loads(capsys.readouterr().out)[0]
    removed = [i for i in row["hooks_inert"] if i["code"] == "removed"]
    assert removed, row
    assert f"{registry.title(target)}'s tool calls are not guarded" in removed[0]["reason"]
    fix = removed[0]["fix"].strip("`").split()
    assert fix[:2] == ["agentdeck", "apply"]
    takes = [a.strip("'") for a in " ".join(fix[4:]).split("--take") if a.strip()]
    args = ["apply", "--home", str(home), "--target", target, "--yes"]
    for t in takes:
        args += ["--take", t.strip().strip("'")]
    assert cli.main(args) == 0
    capsys.readouterr()
    assert cli.main(["status", "--home", str(home), "--target", target, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)[0]["hooks_inert"] == []
