"""Capture the hook payloads the real CLIs send, into tests/fixtures/payloads/.

    python tests/clients/capture_payloads.py            # all three CLIs (each ~1-3 s)

For each CLI: a scratch home with agentdeck's default profile applied, the hook handler swapped
for a capturing one (it saves stdin per event, then runs agentdeck-hook), and one real offline
turn against tests/clients/scripted_model.py that runs one shell command. The payloads are
saved with their volatile values (paths, ids, times) replaced by placeholders, so re-capturing
gives the same files unless a CLI changes what it sends.
"""
from __future__ import annotations

import json
import os
import re
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from clientkit import install_all, scratch_host  # noqa: E402
from offline_turn import run_turn  # noqa: E402
from scripted_model import ScriptedModel  # noqa: E402

from agentdeck.core import engine  # noqa: E402

OUT = HERE.parent / "fixtures" / "payloads"
COMMAND = "echo agentdeck-capture > captured.txt"
PROMPT = "run the scripted command"
_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def _capture_handler(bindir: Path, store: Path) -> None:
    """An `agentdeck-capture` program: saves stdin as <store>/<target>-<event>.json, then hands
    it to the real handler (so the turn behaves as installed)."""
    bindir.mkdir(parents=True, exist_ok=True)
    real = Path(sys.executable).parent / "agentdeck-hook"
    script = bindir / "agentdeck-capture"
    script.write_text(
        "#!/bin/sh\n"
        f'f="{store}/$AGENTDECK_TARGET-$1.json"\n'
        'cat > "$f"\n'
        f'exec "{real}" "$1" < "$f"\n')
    script.chmod(0o755)


def normalize(value, base: str):
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if k in ("timestamp",) and isinstance(v, (int, float)):
                out[k] = 1764493200000
            elif k in ("timestamp",) and isinstance(v, str):
                out[k] = "2026-12-01T09:00:00.000Z"
            elif k in ("duration_ms",):
                out[k] = 1
            elif k in ("transcript_path", "transcriptPath") and isinstance(v, str):
                out[k] = "<transcript>"
            else:
                out[k] = normalize(v, base)
        return out
    if isinstance(value, list):
        return [normalize(v, base) for v in value]
    if isinstance(value, str):
        return _UUID.sub("<uuid>", value.replace(base, "<base>"))
    return value


def capture(target: str, clients) -> dict[str, dict]:
    base = Path(tempfile.mkdtemp(prefix=f"capture-{target}-"))
    host = scratch_host(base, clients)
    store = base / "store"
    store.mkdir()
    _capture_handler(base / "bin", store)
    host.env["PATH"] = f"{base / 'bin'}{os.pathsep}{host.env['PATH']}"
    prof = host.config_dir / "profiles" / "capture"
    prof.mkdir(parents=True)
    (prof / "profile.toml").write_text('[profile]\nextends = ["default"]\n[hooks]\n'
                                       'command = "agentdeck-capture"\n')
    engine.apply_plan(host, engine.build_plan(host, "capture", [target],
                                              trust_hooks=target == "codex"))
    work = base / "work"
    work.mkdir()
    with ScriptedModel(command=COMMAND) as m:
        r = run_turn(host, target, m.url, PROMPT, work)
    if r.returncode != 0:
        raise SystemExit(f"{target}: the turn failed ({r.returncode}): {r.stderr[-500:]}")
    out = {}
    for f in sorted(store.glob(f"{target}-*.json")):
        try:
            out[f.stem[len(target) + 1:]] = normalize(json.loads(f.read_text()), str(base))
        except ValueError:
            pass
    return out


def main() -> int:
    clients = install_all()
    for target in ("copilot", "codex", "claude"):
        if target in clients.failures:
            print(f"{target}: not installed ({clients.failures[target]})")
            continue
        got = capture(target, clients)
        d = OUT / target
        d.mkdir(parents=True, exist_ok=True)
        for event, payload in got.items():
            (d / f"{event}.json").write_text(json.dumps(payload, indent=2, sort_keys=True) + "\n")
        print(f"{target}: {', '.join(sorted(got))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
