"""The target interface beyond the adapter: one module per part a target package may provide.

A feature (the hook handler, policy, doctor, drill, org, the app's views) asks each target for
its part through `registry.part(name, "<part>")`, which imports `core/targets/<name>/<part>.py`;
the protocol that module satisfies, and the plain data it returns, are declared here in
`parts/<part>.py`. Features loop over `registry.TARGETS`; no feature keeps a table keyed by a
target's name or branches on one.
"""

#: the interface (a Protocol in parts/<part>.py) each part module satisfies. Each target's part
#: module ends with `_conforms: <Protocol> = _this` under TYPE_CHECKING, so mypy checks it
#: against the interface (tests/unit/test_target_conformance.py checks every one says so)
PROTOCOLS: dict[str, str] = {
    "dialect": "DialectModule", "policy": "PolicyModule", "probes": "ProbesPart",
    "drill": "DrillPart", "org": "OrgPart", "repo": "RepoPart", "takeover": "TakeoverPart",
    "demo": "DemoPart", "views": "ViewsPart",
}
