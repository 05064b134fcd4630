"""Borrowed arrays for compiled hot loops: the same arrays without numba's reference counts.

numba counts the references to every array it passes around.  Each view (``a[i]``),
each array handed to an inlined helper and each array taken from a tuple of arrays
costs an atomic increment of the array's count and, later, an atomic decrement,
which its optimizer removes only where the code has no branches between them.
Measured with ``perf`` on a rollout (stop 61): 45% of the time went to those
increments and decrements, most of it in the loop that values a roll's results
(:func:`gammon.ai.evaluator.best_result`), where each result passed the nets'
arrays to half a dozen inlined helpers.

:func:`borrowed` gives the same array, or the same tuple (a named tuple too) with
each of its arrays, without an owner (a null ``meminfo``): numba's increments and
decrements of it then do nothing.  It is for the arrays a kernel receives from its
caller, who keeps them alive until the kernel returns; a borrowed array must never
be returned, stored, or allocated anew (numba allocates with an owner, as always).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


def _borrowable(ty: Any) -> bool:
    """Whether :func:`borrowed` takes a value of numba type ``ty``."""
    if isinstance(ty, types.Array | types.NoneType | types.Number | types.Boolean):
        return True
    return isinstance(ty, types.BaseTuple) and all(_borrowable(t) for t in _members(ty))


def _members(ty: Any) -> tuple[Any, ...]:
    """The member types of the numba tuple type ``ty`` (a named tuple's too)."""
    return tuple(ty.types)


def _borrow(context: Any, builder: Any, ty: Any, value: Any) -> Any:
    """``value`` of type ``ty`` with every array in it rebuilt without its owner."""
    if isinstance(ty, types.Array):
        src = context.make_array(ty)(context, builder, value=value)
        dst = context.make_array(ty)(context, builder)
        dst.meminfo = cgutils.get_null_value(dst.meminfo.type)  # type: ignore[no-untyped-call]
        dst.parent = cgutils.get_null_value(dst.parent.type)  # type: ignore[no-untyped-call]
        dst.nitems = src.nitems
        dst.itemsize = src.itemsize
        dst.data = src.data
        dst.shape = src.shape
        dst.strides = src.strides
        return dst._getvalue()
    if isinstance(ty, types.BaseTuple):
        out = value
        for i, member in enumerate(_members(ty)):
            if isinstance(member, types.Array | types.BaseTuple):
                item = _borrow(context, builder, member, builder.extract_value(value, i))
                out = builder.insert_value(out, item, i)
        return out
    return value


@intrinsic
def _borrowed(typingctx, value):  # type: ignore[no-untyped-def]
    """``value`` (an array, a tuple of arrays and numbers, or None) with its arrays borrowed.

    Compiled code only: ``value = borrowed(value)`` at the top of a kernel, for what its
    caller passed in (see the module doc).
    """
    if not _borrowable(value):
        return None

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        return _borrow(context, builder, value, args[0])

    return value(value), codegen


#: The intrinsic as compiled code calls it: ``borrowed(value)`` (one argument; numba
#: supplies the typing context).
borrowed: Callable[[Any], Any] = cast(Any, _borrowed)
