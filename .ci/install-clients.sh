#!/usr/bin/env bash
# Pre-install the pinned real CLIs (versions from core/facts) into the cache the `clients` tests
# use: $AGENTDECK_CLIENTS_DIR or ~/.cache/agentdeck-clients/<npm package>@<version>, with the
# shared XDG cache (<root>/xdg) where Copilot unpacks its bundle once.
# Always exits 0: when npm or the network is missing it says why, and those tests are skipped.
cd "$(dirname "$0")/.." || exit 0
if ! command -v npm >/dev/null 2>&1; then
  echo "install-clients: npm is not on PATH; the clients tests will be skipped"
  exit 0
fi
if ! command -v python3 >/dev/null 2>&1; then
  echo "install-clients: python3 is not on PATH; the clients tests will be skipped"
  exit 0
fi
# agentdeck installs core/ as agentdeck.core: give this bare python3 the same name for it
shim="$(mktemp -d)" && mkdir -p "$shim/agentdeck" && ln -s "$PWD/core" "$shim/agentdeck/core"
PYTHONPATH="$shim:$PWD${PYTHONPATH:+:$PYTHONPATH}" python3 -m tests.clients.clientkit \
  || echo "install-clients: the installer failed (exit $?); the clients tests will be skipped"
exit 0
