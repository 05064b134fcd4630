"""Match equity tables in GNU Backgammon's XML format (``met.dtd``), read safely.

Clubs and players quote take points from a published table (Kazaross-XG2,
Rockwell-Kazaross, Woolsey ...); GNU Backgammon ships them as XML files of one
shape, which this module reads into plain numbers (:class:`MetFile`).  Our own
table stays the default (:mod:`gammon.ai.met`); a user may load one of these
instead (``--met FILE``).

The format: ``<met>`` holds ``<info>`` (``name``, ``description``, ``length``),
one ``<pre-crawford-table>`` and one or two ``<post-crawford-table>``.

* pre-Crawford: ``length`` rows of ``length`` ``<me>`` values; row ``i``,
  column ``j`` (from 0) is the match winning chance of a player ``i + 1`` away
  against an opponent ``j + 1`` away, at the start of a game with the cube at 1.
  Where one side is 1-away the entry is the Crawford game's.
* post-Crawford: one row; entry ``j`` is the chance of the trailer ``j + 1``
  away against a leader 1-away, after the Crawford game.  ``player="both"``,
  or one table for ``player="0"`` and one for ``player="1"``; those two must
  agree, since our tables are the same for both players.  A row shorter than
  ``length`` (some published files stop one short) limits the table to the
  scores it covers.

Only ``type="explicit"`` tables are read: the parametric ones (``mec``,
``zadeh``) are formulas of another program, refused with a message.

A table file is input like any other: at most 1 MiB, a regular file (not a
pipe or device), parsed by ``defusedxml`` (no entity expansion, no external
references), every number finite and between 0 and 1, the pre-Crawford table
square and complementary (a player's chance and the opponent's add up to 1).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from xml.etree.ElementTree import Element

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import ParseError, fromstring

from gammon.core.errors import GammonError
from gammon.formats.bounded_read import read_bounded

#: The largest table file read.
MAX_MET_BYTES = 1 << 20
#: The longest match a table may cover.
MAX_MET_LENGTH = 64
#: How far a pre-Crawford entry and its mirror may miss adding up to 1 (published tables
#: are rounded to 4-6 decimals).
COMPLEMENT_TOLERANCE = 0.005


@dataclass(frozen=True, slots=True)
class MetFile:
    """A match equity table as a file gives it.

    ``pre[i][j]``: a player ``i + 1`` away against ``j + 1`` away (1-away rows and
    columns: the Crawford game); ``post[j]``: the trailer ``j + 1`` away against a
    leader 1-away, post-Crawford.
    """

    name: str
    description: str
    length: int
    pre: tuple[tuple[float, ...], ...]
    post: tuple[float, ...]


def _text(parent: Element, tag: str, where: str) -> str:
    node = parent.find(tag)
    if node is None:
        raise GammonError(f"{where}: the table has no <{tag}>")
    return (node.text or "").strip()


def _number(text: str | None, where: str) -> float:
    try:
        value = float((text or "").strip())
    except ValueError:
        raise GammonError(f"{where}: {text!r} is not a number") from None
    if not math.isfinite(value) or not 0.0 <= value <= 1.0:
        raise GammonError(f"{where}: {value} is not a chance between 0 and 1")
    return value


def _rows(table: Element, where: str) -> list[list[float]]:
    kind = table.get("type", "explicit")
    if kind != "explicit":
        raise GammonError(
            f"{where}: a {kind!r} table is a formula of another program; only explicit tables "
            "(rows of <me> values) can be loaded")
    rows = []
    for r, row in enumerate(table.findall("row"), start=1):
        rows.append([_number(me.text, f"{where}, row {r}, entry {c}")
                     for c, me in enumerate(row.findall("me"), start=1)])
    return rows


def _pre_table(root: Element, length: int, where: str) -> tuple[tuple[float, ...], ...]:
    node = root.find("pre-crawford-table")
    if node is None:
        raise GammonError(f"{where}: the table has no <pre-crawford-table>")
    rows = _rows(node, f"{where}, pre-Crawford table")
    if len(rows) < length or any(len(r) < length for r in rows[:length]):
        raise GammonError(f"{where}: the pre-Crawford table must be {length} x {length} "
                          f"(the <length> given), not {len(rows)} rows of {min(map(len, rows), default=0)}")
    pre = tuple(tuple(r[:length]) for r in rows[:length])
    if abs(pre[0][0] - 0.5) > COMPLEMENT_TOLERANCE:
        raise GammonError(f"{where}: the table favours one player (1-away against 1-away is "
                          f"{pre[0][0]}, not 0.5); only tables for players of equal strength can be loaded")
    for i in range(length):
        for j in range(i, length):
            if abs(pre[i][j] + pre[j][i] - 1.0) > COMPLEMENT_TOLERANCE:
                raise GammonError(
                    f"{where}: {i + 1}-away against {j + 1}-away is {pre[i][j]} and the other way "
                    f"{pre[j][i]}; a player's chance and the opponent's must add up to 1")
    return pre


def _post_row(root: Element, length: int, where: str) -> tuple[float, ...]:
    tables = root.findall("post-crawford-table")
    if not tables:
        raise GammonError(f"{where}: the table has no <post-crawford-table>")
    rows: list[tuple[float, ...]] = []
    for t in tables:
        got = _rows(t, f"{where}, post-Crawford table")
        if len(got) != 1 or not got[0]:
            raise GammonError(f"{where}: a post-Crawford table is one row of up to {length} entries")
        rows.append(tuple(got[0][:length]))
    if any(len(r) != len(rows[0]) or max(abs(a - b) for a, b in zip(rows[0], r, strict=True)) > 1e-9
           for r in rows[1:]):
        raise GammonError(f"{where}: the post-Crawford tables of the two players differ; "
                          "only tables that are the same for both players can be loaded")
    return rows[0]


def parse_met(data: bytes, where: str = "the table") -> MetFile:
    """A :class:`MetFile` from the bytes of a GNU Backgammon XML table.

    :raises GammonError: not such a table (the message says what is wrong and where).
    """
    if len(data) > MAX_MET_BYTES:
        raise GammonError(f"{where} is too large ({len(data):,} bytes; at most {MAX_MET_BYTES:,})")
    try:
        root = fromstring(data, forbid_dtd=False, forbid_entities=True, forbid_external=True)
    except (ParseError, DefusedXmlException) as exc:
        raise GammonError(f"{where} is not a match equity table in XML: {exc}") from None
    if root.tag != "met":
        raise GammonError(f"{where}: the root element is <{root.tag}>, not <met>")
    info = root.find("info")
    if info is None:
        raise GammonError(f"{where}: the table has no <info>")
    for table in root.findall("pre-crawford-table") + root.findall("post-crawford-table"):
        _rows(table, where)  # a parametric table is refused as such, whatever its <length>
    raw_length = _text(info, "length", where)
    if not raw_length.isdigit() or not 1 <= int(raw_length) <= MAX_MET_LENGTH:
        raise GammonError(f"{where}: <length> must be a whole number from 1 to {MAX_MET_LENGTH}, "
                          f"not {raw_length!r}")
    length = int(raw_length)
    pre = _pre_table(root, length, where)
    post = _post_row(root, length, where)
    n = len(post)
    return MetFile(_text(info, "name", where)[:200], _text(info, "description", where)[:2000],
                   n, tuple(row[:n] for row in pre[:n]), post)


def read_met(path: Path | str) -> MetFile:
    """The table in the XML file ``path`` (see the module text for the checks).

    :raises GammonError: unreadable, too large, special, or not such a table.
    """
    return parse_met(read_bounded(path, MAX_MET_BYTES, "match equity table"), str(path))


__all__ = ["MAX_MET_BYTES", "MAX_MET_LENGTH", "MetFile", "parse_met", "read_met"]
