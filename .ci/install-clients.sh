#!/usr/bin/env bash
# Pre-install the pinned real CLIs (versions from core/facts) into the cache the `clients` tests
# use: $AGENTDECK_CLIENTS_DIR or <checkout>/.cache/clients/<npm package>@<version>, with the
# shared XDG cache (<root>/xdg) where Copilot unpacks its bundle once. npm's waits are bounded
# (.ci/net-bounds.sh) and each install is stopped after 5 minutes (tests/clients/clientkit.py).
# When npm, the network or an install is missing it says why; a local run then exits 0 (those
# tests are skipped with the reason), under CI (CI set, as .ci/run sets it) it exits 1.
cd "$(dirname "$0")/.." || exit 1
. .ci/net-bounds.sh
fail() {
  echo "install-clients: $1"
  case "$(echo "${CI:-}" | tr '[:upper:]' '[:lower:]')" in ""|0|false|no) exit 0;; *) exit 1;; esac
}
command -v npm >/dev/null 2>&1 || fail "npm is not on PATH; the clients tests cannot run"
command -v python3 >/dev/null 2>&1 || fail "python3 is not on PATH; the clients tests cannot run"
# agentdeck installs core/ as agentdeck.core: give this bare python3 the same name for it
shim="$(mktemp -d)" && mkdir -p "$shim/agentdeck" && ln -s "$PWD/core" "$shim/agentdeck/core"
PYTHONPATH="$shim:$PWD${PYTHONPATH:+:$PYTHONPATH}" python3 -m tests.clients.clientkit \
  || fail "a CLI could not be installed (above); the clients tests that need it cannot run"
exit 0
