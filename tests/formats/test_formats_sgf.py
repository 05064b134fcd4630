"""SGF for backgammon in GNU Backgammon's flavour: round trips, a hand-written sample, errors."""

from __future__ import annotations

import pytest

from gammon.core.game import AcceptResignation, Double, Move, Resign, Roll, Rules
from gammon.core.match import Match
from gammon.core.position import ResultKind
from gammon.formats.mat import RecordFormatError
from gammon.formats.sgf import SgfFormatError, match_from_sgf, read_sgf, write_sgf
from matches import MATCH_FEATURES, assert_same_match, find_match, play_match

# -- round trips ---------------------------------------------------------------------------


def test_round_trip_match() -> None:
    m = find_match(MATCH_FEATURES | {"resign-rejected", "resign-after-roll"}, Rules(match_length=7),
                   resign_rate=0.04)
    info = {"Event": "Club night", "Date": "2024-05-31"}
    text = write_sgf(m, ("Alice", "Bob"), info=info)
    data = read_sgf(text)
    assert data.names == ("Alice", "Bob")
    assert data.info == {"Event": "Club night", "Date": "2024-05-31"}
    assert data.rules == m.rules
    assert_same_match(data.replay(), m)
    assert write_sgf(data.replay(), ("Alice", "Bob"), info=info) == text


@pytest.mark.parametrize("seed", range(40, 48))
def test_round_trip_many_seeds(seed: int) -> None:
    m = play_match(seed, Rules(match_length=5), resign_rate=0.03)
    assert_same_match(match_from_sgf(write_sgf(m)), m)


def test_round_trip_money_beavers_jacoby_and_automatic_doubles() -> None:
    rules = Rules(match_length=0, beavers=True, jacoby=True, automatic_doubles=3, cube_limit=4096)
    found = None
    for seed in range(1, 400):
        m = play_match(seed, rules, games_limit=5, beaver_rate=0.5)
        autos = [g.auto_doubles for g in m.games]
        if any(autos) and any(len(g.record) > 1 and g.cube_value > 1 for g in m.games) and "beaver" in repr(
                [g.record for g in m.games]).lower():
            found = m
            break
    assert found is not None
    text = write_sgf(found)
    assert "RU[Jacoby]" in text and "CV[" in text
    data = read_sgf(text)
    assert data.rules.jacoby and data.rules.beavers and data.rules.automatic_doubles >= 1
    assert_same_match(Match.replay(data.rules, data.games, games_limit=5), found)


@pytest.mark.parametrize("variant", ["nackgammon", "hypergammon", "hypergammon2", "hypergammon1"])
def test_round_trip_variants(variant: str) -> None:
    m = play_match(2, Rules(variant=variant, match_length=3))
    text = write_sgf(m)
    assert read_sgf(text).rules.variant.name == variant
    assert_same_match(match_from_sgf(text), m)


def test_round_trip_cubeless_and_in_progress() -> None:
    m = play_match(6, Rules(match_length=9, cube=False), stop_after=120)
    text = write_sgf(m)
    assert "RU[NoCube:Crawford]" in text
    assert not read_sgf(text).rules.uses_cube
    assert_same_match(match_from_sgf(text), m)


def test_point_letters() -> None:
    # W's point p is 'a' + p - 1, B's is 'a' + 24 - p; y = bar, z = off.
    m = Match(Rules(match_length=3))
    for a in [Roll(0, (5, 3)), Move(0, "8/3 6/3"), Roll(1, (6, 2)), Move(1, "24/18 18/16"),
              Double(0), Resign(1), AcceptResignation(0)]:
        m.apply(a)
    text = write_sgf(m, ("W", "B"))
    assert ";W[53hcfc]" in text and ";B[62aggi]" in text and ";W[double]" in text
    assert "RE[W+1R]" in text


def test_names_are_escaped() -> None:
    m = play_match(1, Rules(match_length=1))
    text = write_sgf(m, ("A]\\B", "C"))
    assert "PW[A\\]\\\\B]" in text
    assert read_sgf(text).names == ("A]\\B", "C")


# -- a hand-written file in GNU Backgammon's style ----------------------------------------------

SAMPLE = r"""(;FF[4]GM[6]CA[UTF-8]AP[GNU Backgammon:1.07.001]MI[length:3][game:0][ws:0][bs:0]
PW[Anna]PB[Ben]DT[2024-01-02]EV[Club \] night]RU[Crawford]RE[B+2]GS[M:6 23 24 25 0 0 0 0]
;B[31qtst]A[0][qtst E ver 3 0.51 0.16 0.01 0.14 0.005 0.06 0C 0 1 0.0 1]MR[]
;W[62xrrp]LU[+0.123]GW[1]C[A comment with a bracket \] and a backslash \\ inside]
;B[64aggk]
;W[double]DA[E ver 3 0C 1 0.0 1 0.54 0.18 0.006 0.10 0.004 0.15 0.51]
;B[take]
;W[55mhmhhchc]
;B[43kolo]
;W[33hehefcfc]
;B[double]
;W[drop])
(;FF[4]GM[6]CA[UTF-8]AP[GNU Backgammon:1.07.001]MI[length:3][game:1][ws:0][bs:2]PW[Anna]PB[Ben]
RU[Crawford:CrawfordGame]RE[W+1R]
;W[42hdfd]
;B[65aggl]
(;W[11hghgfefe]
;B[21lnst]
;W[33mjmjjgjg])
(;W[11hghg]C[a variation: skipped]))
(;FF[4]GM[6]CA[UTF-8]AP[GNU Backgammon:1.07.001]MI[length:3][game:2][ws:1][bs:2]PW[Anna]PB[Ben]
RU[Crawford]RE[W+2R]
;B[21lnst]
;W[66xrxrmgmg]
;PL[B]DI[52])
"""


def test_reads_gnubg_style_sample() -> None:
    data = read_sgf(SAMPLE.replace("\n", "\r\n"))
    assert data.names == ("Anna", "Ben")
    assert data.rules == Rules(match_length=3)
    assert data.info == {"Date": "2024-01-02", "Event": "Club ] night"}
    assert data.scores == [(0, 0), (0, 2), (1, 2)]
    m = data.replay()
    assert m.score == [3, 2] and m.winner == 0
    g1, g2, g3 = m.games
    assert g1.result is not None and g1.result.dropped and g1.result.points == 2
    assert [str(p) for p in g1.plays][:3] == ["8/5 6/5", "24/16", "24/14"]
    assert g2.crawford_game and g2.result is not None and g2.result.resigned
    assert len(g2.plays) == 5  # the main line, not the variation
    res = g3.record[-2]
    assert isinstance(g3.record[-3], Roll) and isinstance(res, Resign)
    assert res.player == 1 and res.kind is ResultKind.GAMMON


def test_sample_agrees_with_mat_sample() -> None:
    from test_formats_mat import GNU_SAMPLE

    from gammon.formats.mat import read_mat

    assert_same_match(read_sgf(SAMPLE).replay(), read_mat(GNU_SAMPLE).replay())


def test_non_backgammon_trees_are_skipped() -> None:
    go = "(;FF[4]GM[1]SZ[19];B[pd];W[dp])\n"
    assert read_sgf(go + SAMPLE).names == ("Anna", "Ben")


# -- errors ----------------------------------------------------------------------------------


HEAD = "(;FF[4]GM[6]MI[length:3][game:0][ws:0][bs:0]PW[A]PB[B]RU[Crawford]\n"


@pytest.mark.parametrize(("text", "line", "words"), [
    ("", 1, "no game tree"),
    ("hello", 1, "unexpected"),
    ("(;FF[4]GM[1];B[pd])", 1, "no backgammon game"),
    (HEAD + ";B[31qtst]\n;W[62xrrp", 3, "not closed"),
    (HEAD + ";B[31qtst]\n;W[62xrrp]", 1, "not closed"),
    (HEAD + ";B[31qtst]\n;W[62xrxr])", 3, "not a legal play"),
    (HEAD + ";B[31qtst]\n;W[62xrr])", 3, "not a turn"),
    (HEAD + ";B[31qtst]\n;W[77xrrp])", 3, "not a turn"),
    (HEAD + ";AE[a:y]AW[a][b]\n;B[31qtst])", 2, "edited position"),
    (HEAD + ";B[31qtst]\n;B[62xrrp])", 3, "turn"),
    (HEAD + ";B[31qtst]\n;B[take])", 3, "take"),
    (HEAD + "RE[W+1]\n;B[31qtst])", 2, "says the game is over"),
    (HEAD.replace("[ws:0]", "[ws:1]") + ";B[31qtst])", 1, "starts at 1-0"),
    (HEAD + ";B[31qtst]\n;W[62xrrp]C[x]\n;B)", 4, "no value"),
])
def test_bad_files_name_the_line(text: str, line: int, words: str) -> None:
    with pytest.raises(SgfFormatError) as info:
        read_sgf(text)
    err = info.value
    assert isinstance(err, RecordFormatError)
    assert err.line == line, str(err)
    assert words.lower() in str(err).lower(), str(err)


def test_writer_refuses_dutch_and_acey_deucey() -> None:
    for variant in ("dutch", "acey-deucey"):
        with pytest.raises(SgfFormatError):
            write_sgf(Match(Rules(variant=variant)))
    with pytest.raises(SgfFormatError):
        write_sgf(Match(Rules(match_length=1)), info={"Nonsense": "x"})
