#!/usr/bin/env bash
# ansible-test sanity on the agentdeck.fleet collection (integrations/ansible), with the
# venv's ansible-core. ansible-test bootstraps pip in each of its venvs from a script it
# downloads; where that host is not reachable, a bootstrap made from ensurepip is put in its
# cache first (.ci/get_pip_from_ensurepip.py).
set -euo pipefail
cd "$(dirname "$0")/.."
venv="${AGENTDECK_VENV:-$PWD/.venv}"
cache="$HOME/.ansible/test/cache"
mkdir -p "$cache"
version=$("$venv/bin/python" - <<'PY'
import re, pathlib, ansible_test
src = pathlib.Path(ansible_test.__file__).parent / "_internal" / "python_requirements.py"
m = re.search(r"\bpip='([0-9.]+)'", src.read_text()) if src.exists() else None
print(m.group(1) if m else "24.2")
PY
)
target="$cache/get_pip_${version//./_}.py"
[ -f "$target" ] || cp .ci/get_pip_from_ensurepip.py "$target"
cd integrations/ansible/ansible_collections/agentdeck/fleet
# a temp dir of its own: ansible-doc's version banner reads the git info of a `.git` it finds
# above its temp copy, and fails on a stray /tmp/.git
TMPDIR="$(mktemp -d)/t"
mkdir -p "$TMPDIR"
export TMPDIR
PATH="$venv/bin:$PATH" "$venv/bin/ansible-test" sanity --python "$("$venv/bin/python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')" --color no "$@"
