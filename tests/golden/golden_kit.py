"""What the golden tests share: the comparison with a golden file, the listing of a home's files,
and the description of a target's golden homes.

Every registered target (core/targets/registry.py) has a module `tests/golden/<name>/homes.py`
declaring `GOLDENS`, a `TargetGoldens`: its golden homes (how each is prepared before the plan)
and what of the home its listing shows. tests/unit/test_golden.py runs every home of every
target the same way (plan, pane info, apply, files, the plan after apply, which must be empty)
and fails when a registered target declares no golden homes.

Regenerate after an intended change with:
    AGENTDECK_UPDATE_GOLDEN=1 python -m pytest tests/unit/test_golden.py tests/unit/test_repo_golden.py
and review the diff of tests/golden/ (each rewritten file's diff is printed in pytest's warnings
summary; under CI, with `CI` set, the update flag fails instead).
"""
from __future__ import annotations

import dataclasses
import difflib
import importlib
import json
import os
import re
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

from agentdeck.core import profiles
from agentdeck.core.policy.programs import OWN_PACKAGE

GOLDEN = Path(__file__).resolve().parent
UPDATE = os.environ.get("AGENTDECK_UPDATE_GOLDEN") == "1"
#: agentdeck's own bookkeeping in its state dir: not part of what a target writes
SKIP_STATE = ("lock", "backups", "originals", "journal.json", "audit.jsonl")

#: prepare(host, monkeypatch) sets up the home before the plan; it may return a check run on
#: the host after the golden run (a per-target extra assertion), or None
Prepare = Callable[..., "Callable[[object], None] | None"]
#: stable_info(info, host) -> (info, substitutions): the pane info with its home-dependent
#: values checked and replaced, plus text substitutions applied to the whole golden text
StableInfo = Callable[[dict, object], "tuple[dict, dict[str, str]]"]


def _nothing(host, monkeypatch):
    return None


def _same_info(info: dict, host) -> tuple[dict, dict[str, str]]:
    return info, {}


@dataclass(frozen=True)
class GoldenHome:
    name: str                           # tests/golden/<target>/<name>.txt
    prepare: Prepare = _nothing
    profile: str = "default"
    trust_hooks: bool | None = None     # build_plan's trust_hooks (None: agentdeck's default)


@dataclass(frozen=True)
class TargetGoldens:
    homes: tuple[GoldenHome, ...]
    #: the home-relative prefixes the file listing shows (None: every file of the home)
    own: tuple[str, ...] | None = None
    stable_info: StableInfo = _same_info


def goldens_of(target: str) -> TargetGoldens | None:
    """The golden homes `tests/golden/<target>/homes.py` declares, or None when it has none."""
    if not (GOLDEN / target / "homes.py").is_file():
        return None
    return importlib.import_module(f"tests.golden.{target}.homes").GOLDENS


def check(path: Path, text: str) -> None:
    """`text` must equal the golden file `path` (written, then failed, when it is missing).
    Regenerating is a reviewed act: the update flag shows each file's diff (a warning in
    pytest's summary), and under CI (`CI` set) it refuses, and a missing file is not written."""
    if os.environ.get("CI") and (UPDATE or not path.exists()):
        pytest.fail(f"golden file {path} " + ("cannot be regenerated under CI "
                    "(AGENTDECK_UPDATE_GOLDEN=1): regenerate it locally and review the diff"
                    if UPDATE else "is missing; write it locally and review it"), pytrace=False)
    if UPDATE and path.exists() and path.read_text() != text:
        diff = "".join(difflib.unified_diff(path.read_text().splitlines(True), text.splitlines(True),
                                            str(path), f"{path} (new)"))
        warnings.warn(f"golden file rewritten, review it:\n{diff}", stacklevel=2)
    if UPDATE or not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        if not UPDATE:
            pytest.fail(f"golden file {path} was missing and has been written; review it and re-run")
        return
    assert text == path.read_text(), (f"differs from {path}; regenerate with "
                                      "AGENTDECK_UPDATE_GOLDEN=1 and review the diff")


def normalize(text: str, host, tmp_path: Path) -> str:
    """The text with this run's folders named, and the wrapper's seal digest (of a compiled
    policy that names this run's home) as <SHA256>, the agentdeck package's folder (the guard
    protects it wherever it is) as <AGENTDECK>: tests/unit/test_wrapper_seal.py checks
    the digest itself."""
    text = (text.replace(str(profiles.bundled_dir()), "<PROFILES>")
                .replace(OWN_PACKAGE + "/", "<AGENTDECK>/")
                .replace(str(host.home), "<HOME>")
                .replace(str(tmp_path / "bin"), "<BIN>"))
    return re.sub(r"(AGENTDECK_POLICY_SHA256=)[0-9a-f]{64}", r"\1<SHA256>", text)


def listing(root: Path, keep: Callable[[str], bool] = lambda rel: True,
            links: bool = True) -> str:
    """Every file and link under `root` (sorted) whose relative path `keep` accepts: a link as
    `--- rel -> target` (with `links=False`, a link to a file as that file), a file as
    `--- rel (mode)` and its text."""
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for name in sorted(dirnames + filenames):
            p = Path(dirpath) / name
            rel = str(p.relative_to(root))
            if not keep(rel):
                continue
            if links and p.is_symlink():
                out.append(f"--- {rel} -> {os.readlink(p)}")
            elif p.is_file():
                mode = os.stat(p).st_mode & 0o777
                out.append(f"--- {rel} ({mode:04o})\n{p.read_text()}")
    return "\n".join(out)


def home_listing(host, spec, own: tuple[str, ...] | None) -> str:
    """The target's files in the home: its manifest and agentdeck's bookkeeping left out, and
    only the `own` prefixes when given."""
    state_rel = os.path.relpath(host.state_dir, host.home)
    manifest = os.path.relpath(spec.manifest_path(host), host.home)

    def keep(rel: str) -> bool:
        if rel == manifest or (own is not None and not rel.startswith(own)):
            return False
        return not (rel.startswith(state_rel + "/")
                    and rel[len(state_rel) + 1:].split("/")[0] in SKIP_STATE)
    return listing(host.home, keep)


def info_json(info: dict) -> str:
    return json.dumps(info, indent=1, sort_keys=True)


def plain(value: object) -> object:
    """A typed adapter output (core/targets/output.py) as plain JSON data, by field name."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


def pane_info(plan, target: str) -> dict:
    """What the golden's info section shows: the adapter's typed output (its facts that are
    there, by field name)."""
    typed = plain(plan.output[target])
    assert isinstance(typed, dict)
    return {k: v for k, v in typed.items() if v is not None}
