"""mutmut 3, with the bodies of ``@property`` methods mutated too (``make mutation`` runs this).

mutmut 3 leaves every decorated function alone except ``@staticmethod`` and
``@classmethod``: it copies a function once per mutant and switches between the copies
with a "trampoline", and a copy that keeps a decorator such as ``@property`` is no longer
a function the trampoline can call.  Many rules here are properties (``Position.outcome``,
``pip_counts``, ``bar``; ``Match.is_over``, ``winner``; ``Game``'s phase and result), so
this wrapper lets mutmut mutate a method whose only decorator is ``@property``: the
copies (the original and each mutant) are plain methods without the decorator, and only
the trampoline, which keeps the method's name, carries ``@property`` (over mutmut's own
trampoline decorator).  The code under test is unchanged; nothing else of mutmut is.

    .venv/bin/python scripts/mutmut_properties.py run [NAME-PATTERN...]   (as ``mutmut``)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import libcst as cst
import libcst.matchers as m
from libcst.metadata import PositionProvider
from mutmut.__main__ import cli
from mutmut.mutation import file_mutation as fm


def is_property(function: cst.FunctionDef) -> bool:
    """Whether ``function``'s only decorator is a bare ``@property``."""
    return len(function.decorators) == 1 and m.matches(function.decorators[0].decorator, m.Name("property"))


if not (hasattr(fm, "MutationVisitor") and hasattr(fm.MutationVisitor, "_skip_node_and_children")
        and hasattr(fm, "function_trampoline_arrangement") and hasattr(fm, "NEVER_MUTATE_FUNCTION_NAMES")):
    raise SystemExit("error: this wrapper was written for mutmut 3.8 (make mutation installs it); "
                     "the installed mutmut lacks the parts it patches")

_skip_node_and_children = fm.MutationVisitor._skip_node_and_children
_function_trampoline_arrangement = fm.function_trampoline_arrangement


def skip_node_and_children(self: Any, node: cst.CSTNode) -> bool:
    """mutmut's own choice, except that a property's body is mutated like a plain method's
    (still not with ``# pragma: no mutate`` on its line or a name mutmut never mutates)."""
    if isinstance(node, cst.FunctionDef) and is_property(node):
        position = self.get_metadata(PositionProvider, node, None)
        if position and position.start.line in self._ignored_node_lines:
            self.ignored_functions.add(node.name.value)
            return True
        return node in self._enum_creation_hooks or node.name.value in fm.NEVER_MUTATE_FUNCTION_NAMES
    return bool(_skip_node_and_children(self, node))


def function_trampoline_arrangement(
    function: cst.FunctionDef, mutants: Iterable[fm.Mutation], class_name: str | None
) -> tuple[Sequence[Any], Sequence[Any], Sequence[Any], Sequence[str]]:
    """mutmut's arrangement of a property without its decorator (plain copies), then
    ``@property`` put back on the trampoline alone."""
    if not is_property(function):
        return _function_trampoline_arrangement(function, mutants, class_name)
    # with_changes is shallow: the body's nodes stay the ones the mutations point at
    bare = function.with_changes(decorators=[])
    declarations, methods, assignments, names = _function_trampoline_arrangement(bare, mutants, class_name)
    methods = list(methods)
    trampoline = methods[0]
    methods[0] = trampoline.with_changes(decorators=[*function.decorators, *trampoline.decorators])
    return declarations, methods, assignments, names


fm.MutationVisitor._skip_node_and_children = skip_node_and_children  # type: ignore[method-assign]
fm.function_trampoline_arrangement = function_trampoline_arrangement

if __name__ == "__main__":
    cli()
