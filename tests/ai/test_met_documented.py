"""The match equity table against its documentation (``docs/match_equity.md``).

Two independent checks:

* the published sample table of the model, the Crawford and post-Crawford rows and the single
  values quoted in the document are regenerated from the code and compared at the printed
  precision (0.1%); so is the sample of the table in use (the model with our rolled-out
  pre-Crawford entries);
* the Crawford and post-Crawford values are re-derived here from the document's formulas,
  written out independently, with the default parameters:

      T(0) = 1, T(1) = 1/2, T(n <= 0) = 1
      T(n) = E_q[ min(q [s T(n-2) + g T(n-4) + bg T(n-6)], T(n-1)) ],
             q in {1/2 - spread*sqrt(3), 1/2, 1/2 + spread*sqrt(3)} with weights 1/6, 2/3, 1/6
      C(n) = 1/2 [s T(n-1) + g T(n-2) + bg T(n-3)]     (the Crawford game: gammons count)

  where ``T(n)`` is the trailer's chance n-away against a 1-away leader after the Crawford
  game, ``C(n)`` the same in the Crawford game, and ``s, g, bg`` the shares of single,
  gammon and backgammon wins.
"""

from __future__ import annotations

import math
import re

import pytest

from gammon.ai.met import MatchEquityTable, MetParameters, default_met
from paths import ROOT

DOC = ROOT / "docs" / "match_equity.md"


@pytest.fixture(scope="module")
def doc() -> str:
    return DOC.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def met() -> MatchEquityTable:
    """The model table the document's method section describes."""
    return MatchEquityTable()


def _code_blocks(text: str) -> list[str]:
    return re.findall(r"```\n(.*?)```", text, flags=re.S)


def published_table(text: str, which: int = 0) -> dict[tuple[int, int], float]:
    """The ``which``-th 9x9 sample table (0: the model's, 1: the table in use):
    ``{(a, b): percent}`` (rows player 0 away, columns player 1 away)."""
    block = [b for b in _code_blocks(text) if b.lstrip().startswith("away")][which]
    lines = block.strip().splitlines()
    columns = [int(x) for x in lines[0].split()[1:]]
    out: dict[tuple[int, int], float] = {}
    for line in lines[1:]:
        cells = line.split()
        a = int(cells[0])
        for b, v in zip(columns, cells[1:], strict=True):
            out[(a, b)] = float(v)
    return out


def published_rows(text: str) -> dict[str, list[float]]:
    block = next(b for b in _code_blocks(text) if "post-Crawford" in b)
    out = {}
    for line in block.strip().splitlines():
        name, numbers = re.match(r"([A-Za-z -]+?)\s+([\d. ]+)$", line.strip()).groups()  # type: ignore[union-attr]
        out[name] = [float(x) for x in numbers.split()]
    return out


def test_the_document_has_the_tables(doc: str) -> None:
    table = published_table(doc)
    assert len(table) == 81
    rows = published_rows(doc)
    assert set(rows) == {"Crawford game", "post-Crawford"}
    assert len(rows["Crawford game"]) == len(rows["post-Crawford"]) == 12


def test_sample_table_matches_the_code(doc: str, met: MatchEquityTable) -> None:
    # "Entries with a side 1-away are for the Crawford game."
    bad = []
    for (a, b), percent in published_table(doc).items():
        got = 100 * met.equity(a, b, crawford=True)
        if abs(got - percent) > 0.05 + 1e-9:
            bad.append(f"{a}-away/{b}-away: documented {percent}, code {got:.3f}")
    assert not bad, "\n".join(bad)
    # and the code prints the same table
    printed = met.format(9)
    assert published_table("```\n" + printed + "\n```") == published_table(doc)


def test_the_sample_of_the_table_in_use_matches_the_code(doc: str) -> None:
    in_use = published_table(doc, 1)
    model = published_table(doc, 0)
    assert len(in_use) == 81
    table = default_met()
    for (a, b), percent in in_use.items():
        assert 100 * table.equity(a, b, crawford=True) == pytest.approx(percent, abs=0.05 + 1e-9), (a, b)
        if a == 1 or b == 1:  # the Crawford game is the model's in both
            assert percent == model[(a, b)]
    assert published_table("```\n" + table.format(9) + "\n```") == in_use


def test_leader_rows_match_the_code(doc: str, met: MatchEquityTable) -> None:
    rows = published_rows(doc)
    for b, percent in enumerate(rows["Crawford game"], start=1):
        assert 100 * met.equity(1, b, crawford=True) == pytest.approx(percent, abs=0.05 + 1e-9), b
    for b, percent in enumerate(rows["post-Crawford"], start=1):
        assert 100 * met.equity(1, b, crawford=False) == pytest.approx(percent, abs=0.05 + 1e-9), b
    assert [round(100 * v, 1) for v in met.crawford_row(12)] == rows["Crawford game"]
    assert [round(100 * v, 1) for v in met.post_crawford_row(12)] == rows["post-Crawford"]


def test_quoted_single_values_match_the_code(doc: str, met: MatchEquityTable) -> None:
    # "3a-1a in the Crawford game 24.7% (post-Crawford 31.5%); 5a-1a in the Crawford game 15.3%;
    #  2a-4a 68.7%; 3a-5a 65.9%; 25a-20a 33.5%", and the free-drop pairs of the method section.
    assert 100 * met.equity(3, 1, crawford=True) == pytest.approx(24.7, abs=0.05)
    assert 100 * met.equity(3, 1, crawford=False) == pytest.approx(31.5, abs=0.05)
    assert 100 * met.equity(5, 1, crawford=True) == pytest.approx(15.3, abs=0.05)
    assert 100 * met.equity(2, 4) == pytest.approx(68.7, abs=0.05)
    assert 100 * met.equity(3, 5) == pytest.approx(65.9, abs=0.05)
    assert 100 * met.equity(25, 20) == pytest.approx(33.5, abs=0.05)
    assert 100 * met.equity(1, 2) == pytest.approx(51.4, abs=0.05)
    assert 100 * met.equity(1, 3) == pytest.approx(68.5, abs=0.05)
    assert 100 * met.equity(1, 4) == pytest.approx(69.8, abs=0.05)
    assert met.equity(1, 1) == 0.5 and met.equity(2, 2) == pytest.approx(0.5, abs=1e-12)


def test_documented_parameters_are_the_defaults(doc: str) -> None:
    p = MetParameters()
    for name, value in (("gammons", p.gammons), ("backgammons", p.backgammons),
                        ("efficiency", p.efficiency), ("spread", p.spread)):
        assert re.search(rf"\| `{name}` \| {value} \|", doc), name


# -- the formulas of the document, written out here ------------------------------------------


def spec_rows(p: MetParameters, n: int) -> tuple[list[float], list[float]]:
    """``(T, C)``: the trailer's MWC post-Crawford and in the Crawford game, 0..n away."""
    single, gammon, bg = 1 - p.gammons, p.gammons - p.backgammons, p.backgammons
    d = p.spread * math.sqrt(3)
    points = [(0.5 - d, 1 / 6), (0.5, 2 / 3), (0.5 + d, 1 / 6)]
    t = [1.0, 0.5]

    def tv(k: int) -> float:
        return 1.0 if k <= 0 else t[k]

    for m in range(2, n + 1):
        win_2 = single * tv(m - 2) + gammon * tv(m - 4) + bg * tv(m - 6)
        t.append(sum(w * min(q * win_2, tv(m - 1)) for q, w in points))
    c = [1.0, 0.5] + [0.5 * (single * tv(m - 1) + gammon * tv(m - 2) + bg * tv(m - 3))
                      for m in range(2, n + 1)]
    return t, c


@pytest.mark.parametrize("params", [
    MetParameters(),
    MetParameters(gammons=0.4, backgammons=0.05, spread=0.1),
    MetParameters(gammons=0.0, backgammons=0.0, spread=0.0),
])
def test_crawford_and_post_crawford_follow_the_documented_formulas(params: MetParameters) -> None:
    n = 15
    table = MatchEquityTable(params, max_away=n)
    t, c = spec_rows(params, n)
    for b in range(2, n + 1):
        # the leader (1-away) has the rest
        assert table.equity(1, b, crawford=False) == pytest.approx(1 - t[b], abs=1e-12), ("post", b)
        assert table.equity(1, b, crawford=True) == pytest.approx(1 - c[b], abs=1e-12), ("crawford", b)
        assert table.equity(b, 1, crawford=False) == pytest.approx(t[b], abs=1e-12), ("post", b)
        assert table.equity(b, 1, crawford=True) == pytest.approx(c[b], abs=1e-12), ("crawford", b)


def test_gammons_count_in_the_crawford_game() -> None:
    """With gammons, the trailer's Crawford game is worth more than with singles only."""
    with_gammons = MatchEquityTable(MetParameters(gammons=0.3, backgammons=0.0), max_away=9)
    for b in range(3, 10):
        # counting every win as a single would give 1/2 T(b-1); a gammon takes the trailer a
        # point further, to T(b-2) > T(b-1)
        singles_only = 0.5 * with_gammons.equity(b - 1, 1, crawford=False)
        assert with_gammons.equity(b, 1, crawford=True) > singles_only + 1e-4, b
    # 3-away in the Crawford game: a single leaves 2-away post-Crawford, a gammon 1-away (50%)
    p = MetParameters(gammons=0.3, backgammons=0.0)
    t2 = with_gammons.equity(2, 1, crawford=False)
    assert with_gammons.equity(3, 1, crawford=True) == pytest.approx(0.5 * (0.7 * t2 + 0.3 * 0.5), abs=1e-12)
    assert p.mix == pytest.approx((0.7, 0.3, 0.0))


def test_pre_crawford_score_reaching_one_away_leads_to_the_crawford_game(met: MatchEquityTable) -> None:
    # after_pre: a side reaching 1-away in a pre-Crawford game plays the Crawford game next
    for b in range(2, 10):
        assert met.after_pre(1, b) == met.equity(1, b, crawford=True)
        assert met.after_pre(b, 1) == met.equity(b, 1, crawford=True)
        assert met.after_post(1, b) == met.equity(1, b, crawford=False)
        assert met.after_game(1, b, post_crawford=True) == met.equity(1, b, crawford=False)
        assert met.after_game(1, b) == met.equity(1, b, crawford=True)
    assert met.mwc(4, 2, 5) == met.equity(1, 3, crawford=False)
    assert met.mwc(4, 2, 5, crawford=True) == met.equity(1, 3, crawford=True)
