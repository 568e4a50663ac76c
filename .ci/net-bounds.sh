# Sourced by .ci/run and .ci/install-clients.sh: bounds on every install's network waits, so an
# unreachable registry fails CI in minutes, not an hour (each default is minutes per request,
# retried). tests/unit/test_ci_bounds.py adds them up and tries npm against a closed port.
# npm: a request times out after 60 s (the whole response: the largest CLI package is ~150 MB)
# and is retried twice, 5 to 15 s apart
export npm_config_fetch_timeout=60000 npm_config_fetch_retries=2 \
  npm_config_fetch_retry_mintimeout=5000 npm_config_fetch_retry_maxtimeout=15000
# pip: a connection waits 30 s and is retried twice
export PIP_TIMEOUT=30 PIP_RETRIES=2
# apt-get (bubblewrap): 30 s per connection, two retries
APT_BOUNDS=(-o Acquire::Retries=2 -o Acquire::http::Timeout=30 -o Acquire::https::Timeout=30)
