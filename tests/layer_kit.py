"""Triggering content for a CLI's hook layers (core/targets/layers.py), from the layer's own
facts: the doctor table (tests/unit/test_doctor_checks.py) and tests/unit/test_layers.py."""
from __future__ import annotations

from agentdeck.core.targets import registry
from agentdeck.core.targets.layers import Layer, layers


def trigger(layer: Layer) -> tuple[str, str]:
    """(text that switches the hooks off in this layer's file, what the report names)."""
    if layer.kind == "env":
        name = next(v for v in layer.vars if not v.endswith("_")) if any(
            not v.endswith("_") for v in layer.vars) else layer.vars[0] + "POLICY"
        return f"# planted\nexport {name}=/nowhere\n", name
    if layer.keys:
        return '{"%s": true}' % layer.keys[0], layer.keys[0]
    name = layer.vars[0] + "POLICY"
    return '{"env": {"%s": "/nowhere"}}' % name, f"env {name}"


def file_of(target: str, layer: Layer, cwd: str = "proj") -> str:
    """The layer's file relative to the test home, for a session started in home/`cwd`."""
    if layer.project:
        return f"{cwd}/{layer.path[3:]}"
    home = registry.BY_NAME[target].home_dirname
    return f"{home}/{layer.path}"


def reported() -> list[tuple[str, Layer]]:
    """(target, layer) for every layer the doctor and status report, in the registry's order."""
    return [(s.name, layer) for s in registry.TARGETS for layer in layers(s.name) if layer.report]


def every() -> list[tuple[str, Layer]]:
    return [(s.name, layer) for s in registry.TARGETS for layer in layers(s.name)]
