"""Names a package exports but imports on first use (PEP 562's module ``__getattr__``).

``gammon`` and ``gammon.play`` export names whose modules load numba or the game loop;
a command that needs none of them should not wait for those imports, so each package
lists its lazy names and their modules and answers ``__getattr__`` with :func:`lazy_attribute`.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, MutableMapping


def lazy_attribute(package: str, table: Mapping[str, str], namespace: MutableMapping[str, object],
                   name: str) -> object:
    """``name`` of ``package``, imported from its module in ``table`` and kept in ``namespace``
    (the package's globals) so the next lookup is a plain one.

    :raises AttributeError: ``name`` is not one of ``table``'s.
    """
    module = table.get(name)
    if module is None:
        raise AttributeError(f"module {package!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    namespace[name] = value
    return value
