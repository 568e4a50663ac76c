"""A pip bootstrap for ansible-test made from the standard library's ensurepip, for machines
where ansible-test's own download (ci-files.testing.ansible.com) is not reachable.

ansible-test runs its cached get-pip script with get-pip's arguments (pip install arguments such
as `pip==24.2 --disable-pip-version-check --no-setuptools --no-wheel`). This installs the pip
that ships with Python (ensurepip: no network), then lets that pip install what was asked for
from the configured package index. .ci/ansible-sanity.sh copies it to
~/.ansible/test/cache/get_pip_<version>.py.
"""
import ensurepip
import os
import subprocess
import sys

ensurepip.bootstrap(upgrade=True, default_pip=True)
args = [a for a in sys.argv[1:] if a not in ("--no-setuptools", "--no-wheel")]
# the system's CA bundle (a site's TLS proxy is in it, not in pip's own certifi copy)
for bundle in (os.environ.get("PIP_CERT"), os.environ.get("SSL_CERT_FILE"),
               "/etc/ssl/certs/ca-certificates.crt", "/etc/pki/tls/certs/ca-bundle.crt"):
    if bundle and os.path.isfile(bundle):
        args = ["--cert", bundle, *args]
        break
sys.exit(subprocess.call([sys.executable, "-m", "pip", "install", "-q", *args]))
