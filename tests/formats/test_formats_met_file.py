"""Loading a published match equity table (GNU Backgammon's XML format) and using it.

The tables here are small ones written for the test (3 points), so each lookup can be
checked against the entry it must come from.
"""

from __future__ import annotations

import os

import pytest

from gammon.ai.cube import CubeInfo, cube_decision
from gammon.ai.met import ROLLOUT_TABLE_NAME, default_met, load_met, met_in_use
from gammon.core.errors import GammonError
from gammon.formats.met_file import MAX_MET_BYTES, parse_met, read_met

PRE = [[0.5, 0.70, 0.76], [0.30, 0.5, 0.60], [0.24, 0.40, 0.5]]
POST = [0.5, 0.49, 0.32]


def table_xml(pre: list[list[float]] = PRE, post: str | None = None, *, length: int = 3,
              pre_type: str = "explicit", doctype: str = "", name: str = "Test 3") -> bytes:
    rows = "".join("<row>" + "".join(f"<me>{v}</me>" for v in r) + "</row>" for r in pre)
    post_xml = post if post is not None else (
        '<post-crawford-table type="explicit" player="both"><row>'
        + "".join(f"<me>{v}</me>" for v in POST) + "</row></post-crawford-table>")
    return (f'<?xml version="1.0"?>{doctype}<met><info><name>{name}</name><description>d</description>'
            f'<length>{length}</length></info><pre-crawford-table type="{pre_type}">{rows}'
            f"</pre-crawford-table>{post_xml}</met>").encode()


def write(tmp_path, data: bytes):
    p = tmp_path / "table.xml"
    p.write_bytes(data)
    return p


def test_every_lookup_comes_from_its_entry(tmp_path):
    met = load_met(write(tmp_path, table_xml()))
    assert met.name == "Test 3" and met.max_away == 3
    # Pre-Crawford: row = player 0 away, column = player 1 away.
    assert met.equity(2, 3) == pytest.approx(0.60)
    assert met.equity(3, 2) == pytest.approx(0.40)
    assert met.equity(2, 2) == pytest.approx(0.5)
    # The Crawford game: the leader's 1-away entries.
    assert met.equity(1, 2, crawford=True) == pytest.approx(0.70)
    assert met.equity(3, 1, crawford=True) == pytest.approx(0.24)
    # Post-Crawford: the trailer's row.
    assert met.equity(2, 1) == pytest.approx(0.49)
    assert met.equity(1, 3) == pytest.approx(1 - 0.32)
    # A score reached by a pre-Crawford game puts the leader into the Crawford game.
    assert met.after_pre(1, 3) == pytest.approx(0.76)
    assert met.after_post(1, 3) == pytest.approx(0.68)
    with pytest.raises(GammonError, match="reaches 3 points away"):
        met.equity(4, 2)


def test_the_chosen_table_is_the_one_in_use_and_only_inside_the_block(tmp_path):
    met = load_met(write(tmp_path, table_xml()))
    ours = default_met(7)
    assert ours.name == ROLLOUT_TABLE_NAME
    with met_in_use(met):
        assert default_met(3) is met
        with pytest.raises(GammonError, match="'Test 3' reaches 3 points away, not 5"):
            default_met(5)
    assert default_met(7) is ours


def test_a_cube_decision_uses_the_chosen_table(tmp_path):
    """The take point at a score comes from the table: a table where the taker's drop leaves
    him far less needs less to take."""
    info = CubeInfo(match_length=3)  # 3-away, 3-away, cube centred
    probs = (0.70, 0.10, 0.0, 0.05, 0.0)
    base = cube_decision(probs, info, 0.68)
    # Our own 3-away/3-away against a table whose 3-away/1-away (the drop) is much worse.
    harsh = [[0.5, 0.70, 0.90], [0.30, 0.5, 0.60], [0.10, 0.40, 0.5]]
    with met_in_use(load_met(write(tmp_path, table_xml(harsh)))):
        changed = cube_decision(probs, info, 0.68)
    assert changed.take_point != pytest.approx(base.take_point, abs=1e-3)


@pytest.mark.parametrize(("data", "message"), [
    (table_xml(pre_type="zadeh"), "'zadeh' table is a formula"),
    (table_xml([[0.5, 0.70, 0.76], [0.35, 0.5, 0.60], [0.24, 0.40, 0.5]]), "must add up to 1"),
    (table_xml([[0.52, 0.70, 0.76], [0.30, 0.48, 0.60], [0.24, 0.40, 0.5]]), "favours one player"),
    (table_xml([[0.5, 1.7, 0.76], [0.30, 0.5, 0.60], [0.24, 0.40, 0.5]]), "between 0 and 1"),
    (table_xml([[0.5, "nan", 0.76], [0.30, 0.5, 0.60], [0.24, 0.40, 0.5]]), "between 0 and 1"),
    (table_xml([[0.5, "x", 0.76], [0.30, 0.5, 0.60], [0.24, 0.40, 0.5]]), "'x' is not a number"),
    (table_xml(length=4), "must be 4 x 4"),
    (table_xml(length=0), "from 1 to 64"),
    (table_xml(post=""), "no <post-crawford-table>"),
    (table_xml(post='<post-crawford-table player="0"><row><me>0.5</me><me>0.49</me></row>'
                    '</post-crawford-table><post-crawford-table player="1"><row><me>0.5</me>'
                    '<me>0.45</me></row></post-crawford-table>'), "differ"),
    (b"<met><info>", "not a match equity table in XML"),
    (b"<catalog/>", "not <met>"),
])
def test_bad_tables_are_refused_with_a_reason(data, message):
    with pytest.raises(GammonError, match=message):
        parse_met(data)


def test_entity_expansion_is_refused():
    """The 'billion laughs': entities that expand to gigabytes are never expanded."""
    bomb = ('<!DOCTYPE met [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">'
            '<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]>')
    with pytest.raises(GammonError, match="not a match equity table"):
        parse_met(table_xml(doctype=bomb, name="&c;"))


def test_an_external_entity_is_never_read(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("the secret")
    doctype = f'<!DOCTYPE met [<!ENTITY x SYSTEM "file://{secret}">]>'
    with pytest.raises(GammonError, match="not a match equity table"):
        parse_met(table_xml(doctype=doctype, name="&x;"))


def test_a_doctype_naming_the_dtd_is_fine():
    """GNU Backgammon's own files name their DTD; it is not fetched."""
    doctype = '<!DOCTYPE met PUBLIC "-//GNU Backgammon//DTD Match Equity Tables//EN" "met.dtd">'
    assert parse_met(table_xml(doctype=doctype)).length == 3


def test_a_short_post_crawford_row_limits_the_table():
    post = '<post-crawford-table player="both"><row><me>0.5</me><me>0.49</me></row></post-crawford-table>'
    data = parse_met(table_xml(post=post))
    assert data.length == 2 and len(data.pre) == 2 and all(len(r) == 2 for r in data.pre)


def test_files_that_are_not_tables_are_refused_before_reading(tmp_path):
    big = tmp_path / "big.xml"
    big.write_bytes(b" " * (MAX_MET_BYTES + 1))
    with pytest.raises(GammonError, match="too large"):
        read_met(big)
    with pytest.raises(GammonError, match="folder"):
        read_met(tmp_path)
    fifo = tmp_path / "fifo.xml"
    os.mkfifo(fifo)
    with pytest.raises(GammonError, match="not a regular file"):
        read_met(fifo)
    with pytest.raises(GammonError, match="cannot read"):
        read_met(tmp_path / "missing.xml")
