"""An import-linter contract type (pyproject.toml's [tool.importlinter] `contract_types`): no
import cycle between agentdeck's modules.

import-linter's own `acyclic_siblings` compares packages as wholes (core/targets/ holds layers
that import each other's modules one way only), so this checks modules: every strongly
connected component of the module import graph (function-local imports included, `if
TYPE_CHECKING:` imports left out as the root options say) with more than one module is a
cycle, printed with one shortest loop through it. `lint-imports` runs from the repository's
root, which it puts on sys.path: this file loads as `scripts.import_cycles`.
"""
from __future__ import annotations

import sys
from typing import Any

import grimp
from importlinter.application import contract_utils, output
from importlinter.application.contract_utils import AlertLevel
from importlinter.domain import fields
from importlinter.domain.contract import Contract, ContractCheck


class AcyclicModulesContract(Contract):
    """Options: `containers` (the packages whose modules are checked), `ignore_imports` (import
    expressions left out of the check, as in the built-in contracts)."""

    type_name = "acyclic_modules"

    containers = fields.SetField(subfield=fields.StringField())
    ignore_imports = fields.SetField(subfield=fields.ImportExpressionField(), required=False)
    unmatched_ignore_imports_alerting = fields.EnumField(AlertLevel, default=AlertLevel.ERROR)

    def check(self, graph: grimp.ImportGraph, verbose: bool) -> ContractCheck:
        removal = contract_utils.remove_ignored_imports_and_report(
            graph=graph, ignore_imports=self.ignore_imports,
            unmatched_alerting=self.unmatched_ignore_imports_alerting)
        containers = sorted(self.containers)
        mods = {m for m in graph.modules
                if any(m == c or m.startswith(c + ".") for c in containers)}
        edges = {m: sorted(graph.find_modules_directly_imported_by(m) & mods) for m in mods}
        cycles = [(comp, _shortest_loop(comp, edges)) for comp in _components(sorted(mods), edges)]
        return ContractCheck(kept=not cycles, warnings=list(removal.warnings),
                             ignored_import_count=removal.ignored_import_count,
                             metadata={"cycles": cycles})

    def render_broken_contract(self, check: ContractCheck) -> None:
        for comp, loop in check.metadata["cycles"]:
            output.print_error(f"Import cycle between {len(comp)} modules ({', '.join(comp)}); "
                               "one loop:")
            for a, b in zip(loop, loop[1:]):
                output.print_error(f"- {a} -> {b}")
            output.new_line()


def _components(mods: list[str], edges: dict[str, list[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components with more than one module, each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 4 * len(mods) + 100))
    try:
        for m in mods:
            if m not in index:
                visit(m)
    finally:
        sys.setrecursionlimit(limit)
    return sorted(found)


def _shortest_loop(comp: list[str], edges: dict[str, list[str]]) -> list[str]:
    """A shortest path from the component's first module back to itself (breadth first)."""
    start, members = comp[0], set(comp)
    prev: dict[str, Any] = {start: None}
    queue = [start]
    while queue:
        nxt = []
        for v in queue:
            for w in edges[v]:
                if w == start:
                    path = [v]
                    while prev[path[-1]] is not None:
                        path.append(prev[path[-1]])
                    return [*reversed(path), start]
                if w in members and w not in prev:
                    prev[w] = v
                    nxt.append(w)
        queue = nxt
    return comp + comp[:1]
