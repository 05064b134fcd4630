"""The ``gammon`` command line and the terminal board renderer."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from gammon import Position
from gammon.cli import app
from gammon.cli.app import parse_dice
from gammon.cli.board import board_text, render_board

START = "4HPwATDgc/ABMA"
runner = CliRunner()


def make(me: dict[int, int], opp: dict[int, int], variant: str = "standard") -> Position:
    """A position from ``{point: count}`` per side, each side numbered from its own view."""
    rows = []
    for side in (me, opp):
        row = [0] * 25
        for point, count in side.items():
            row[point - 1] = count
        rows.append(row)
    return Position(rows[0], rows[1], variant)


#: The player on roll has a checker on the bar against a closed board: no play.
CLOSED_OUT = make({25: 1, 6: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3})


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


# -- moves ------------------------------------------------------------------


def test_moves_human_start_31() -> None:
    code, out, err = run("moves", START, "31")
    assert code == 0, err
    lines = out.splitlines()
    assert "16 legal plays" in lines[0]
    plays = [line for line in lines[1:] if line.strip()]
    assert len(plays) == 16
    assert plays[0].lstrip().startswith("1.")
    assert any("8/5 6/5" in line and "4HPwATCwZ/ABMA" in line for line in plays)


@pytest.mark.parametrize("dice", [["31"], ["3-1"], ["3,1"], ["3", "1"], ["13"], ["3 1"]])
def test_moves_dice_spellings(dice: list[str]) -> None:
    code, out, _ = run("moves", START, *dice, "--json")
    assert code == 0
    assert len(json.loads(out)) == 16


def test_moves_json_start_31() -> None:
    code, out, _ = run("moves", START, "3-1", "--json")
    assert code == 0
    data = json.loads(out)
    assert isinstance(data, list) and len(data) == 16
    assert all(set(item) == {"play", "position_id"} for item in data)
    by_play = {item["play"]: item["position_id"] for item in data}
    assert by_play["8/5 6/5"] == "4HPwATCwZ/ABMA"
    # The result is seen from the mover: decoding it gives the moved checkers to "me".
    moved = Position.from_position_id(by_play["8/5 6/5"])
    assert moved.me[4] == 2 and moved.opp == Position.initial().opp
    assert len(set(by_play.values())) == 16


def test_moves_agree_with_library() -> None:
    pos = make({24: 1, 8: 2, 6: 3}, {20: 1, 13: 2})
    code, out, _ = run("moves", pos.position_id, "6-6", "--json")
    assert code == 0
    expected = {p.position.position_id for p in pos.legal_plays((6, 6))}
    assert {item["position_id"] for item in json.loads(out)} == expected


def test_moves_no_legal_play() -> None:
    assert len(CLOSED_OUT.legal_plays((6, 5))) == 0
    code, out, _ = run("moves", CLOSED_OUT.position_id, "65")
    assert code == 0
    assert "cannot move" in out and "pass" in out
    code, out, _ = run("moves", CLOSED_OUT.position_id, "65", "--json")
    assert code == 0
    assert json.loads(out) == []


def test_moves_variant() -> None:
    hyper = Position.initial("hypergammon")
    code, out, _ = run("moves", hyper.position_id, "21", "--variant", "hypergammon", "--json")
    assert code == 0
    expected = {p.position.position_id for p in hyper.legal_plays((2, 1))}
    assert {item["position_id"] for item in json.loads(out)} == expected


def test_parse_dice() -> None:
    assert parse_dice("31") == (3, 1)
    assert parse_dice(" 6-6 ") == (6, 6)
    assert parse_dice("2x5") == (2, 5)


# -- show -------------------------------------------------------------------


def test_show_start() -> None:
    code, out, err = run("show", START)
    assert code == 0, err
    assert START in out
    assert out.count("pips 167") == 2
    assert "\x1b[" not in out  # no colour codes when not writing to a terminal
    lines = out.splitlines()
    assert len(lines) <= 24
    assert max(len(line) for line in lines) <= 80


def test_show_without_argument_is_the_start() -> None:
    code, out, _ = run("show")
    assert code == 0
    assert START in out


def test_show_xgid_without_support(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "gammon.core.xgid", None)  # import now fails
    code, out, err = run("show", "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10")
    assert code == 2
    assert err.startswith("error:") and "Traceback" not in err + out


START_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"


def test_show_xgid() -> None:
    code, out, err = run("show", START_XGID)
    assert code == 0, err
    assert out.count("pips 167") == 2
    assert START in out and START_XGID in out


def test_show_xgid_match_cube_dice() -> None:
    # Cube 2 owned by the opponent (-1), player on roll, dice 5-2, score 2-4 to 7.
    code, out, err = run("show", "XGID=-b----E-C---eE---c-e----B-:1:-1:1:52:2:4:0:7:10")
    assert code == 0, err
    lines = out.splitlines()
    top = "\n".join(lines[:8])
    assert "cube 2 (owns it)" in top and "score 4 of 7" in top
    assert "score 2 of 7" in "\n".join(lines[8:])
    assert "[5]  [2]" in out and "7-point match" in out


def test_moves_xgid_uses_its_dice() -> None:
    code, out, _ = run("moves", START_XGID.replace(":00:", ":31:"), "--json")
    assert code == 0
    assert len(json.loads(out)) == 16
    code, _, err = run("moves", START_XGID)  # no dice anywhere
    assert code == 2 and err.startswith("error:")


# -- renderer ---------------------------------------------------------------


def grid(text: str) -> list[str]:
    """The 5 + 1 + 5 lines of the playing area (between the two frame lines)."""
    lines = text.splitlines()
    frames = [i for i, line in enumerate(lines) if line.startswith(" +")]
    return lines[frames[0] + 1 : frames[1]]


def column(text: str, cell: int) -> list[str]:
    """One 3-column cell, top to bottom: 0..5 left half, 6 bar, 7..12 right half, 13 off.

    Each entry is what the cell shows on that line ('' when empty); the middle
    line shows the labels ``BAR`` and ``OFF``.
    """
    start = 2 + 3 * cell + (cell >= 6) + (cell >= 7) + (cell >= 13)
    return [line[start : start + 3].strip() for line in grid(text)]


def test_render_start_layout() -> None:
    text = board_text(Position.initial())
    o, x = ["O"], ["X"]
    # Top left: the viewer's 13 point (five O); below it the opponent's 13 (the viewer's 12).
    assert column(text, 0) == o * 5 + [""] + x * 5
    # The viewer's 19 point is the opponent's 6 (five X); the 6 point has five O.
    assert column(text, 7) == x * 5 + [""] + o * 5
    # 24 point above (two O), 1 point below (two X).
    assert column(text, 12) == o * 2 + [""] * 7 + x * 2
    assert "13 14 15 16 17 18      19 20 21 22 23 24" in text
    assert "12 11 10  9  8  7       6  5  4  3  2  1" in text
    assert f"Position ID: {START}" in text


def test_render_more_than_five_shows_count() -> None:
    text = board_text(make({6: 9, 5: 6}, {6: 15}))
    # Stacks grow from the edge; the fifth place (nearest the middle) shows the count.
    assert column(text, 7) == ["X"] * 4 + ["15", "", "9"] + ["O"] * 4
    assert column(text, 8) == [""] * 6 + ["6"] + ["O"] * 4
    assert "pips 84" in text  # 9*6 + 6*5
    assert "pips 90" in text  # 15*6


def test_render_exactly_five_shows_no_count() -> None:
    text = board_text(make({6: 5}, {6: 5}))
    assert column(text, 7) == ["X"] * 5 + [""] + ["O"] * 5


def test_render_both_bars() -> None:
    text = board_text(make({25: 2, 6: 13}, {25: 3, 6: 12}))
    # Bar stacks grow from the middle outwards: the top player's above, the viewer's below.
    assert column(text, 6) == ["", "", "X", "X", "X", "BAR", "O", "O", "", "", ""]
    assert "pips 128" in text  # 2*25 + 13*6
    assert "pips 147" in text  # 3*25 + 12*6


def test_render_bar_count_beyond_five() -> None:
    text = board_text(make({25: 7, 6: 8}, {6: 15}))
    assert column(text, 6)[6:] == ["O", "O", "O", "O", "7"]


def test_render_all_checkers_off() -> None:
    p = make({}, {6: 15})
    assert p.is_game_over
    text = board_text(p)
    assert "pips 0   off 15" in text
    assert column(text, 13) == [""] * 5 + ["OFF", "15"] + ["O"] * 4
    assert all(cell == "" for c in range(7) for cell in column(text, c) if cell != "BAR")


def test_render_opponent_checkers_off() -> None:
    text = board_text(make({1: 1}, {1: 2}))
    assert column(text, 13)[:5] == ["X", "X", "X", "X", "13"]
    assert column(text, 13)[6:] == ["14", "O", "O", "O", "O"]
    assert "off 13" in text and "off 14" in text


def test_render_options_fit() -> None:
    p = make({25: 12, 1: 3}, {25: 15})
    text = render_board(
        p,
        cube=64,
        cube_owner="opp",
        score=(12, 24),
        match_length=25,
        crawford=True,
        dice=(6, 6),
        cards=("6♥", "6♠"),
        names=("A very long player name indeed, longer than the panel", "gammon"),
        match_id="cAkAAAAAAAAA",
    )
    plain = text.plain
    lines = plain.splitlines()
    assert len(lines) <= 24
    assert max(len(line) for line in lines) <= 80
    for snippet in ("cube 64", "score 12 of 25", "score 24 of 25", "25-point match",
                    "Crawford", "[6]  [6]", "[6♥]", "Match ID: cAkAAAAAAAAA", "…"):
        assert snippet in plain, snippet


def test_render_centred_cube_and_money() -> None:
    plain = board_text(Position.initial(), cube=1, dice=(3, 1))
    assert "money game, cube 1" in plain and "[3]  [1]" in plain
    assert "owns it" not in plain


def test_render_viewer_opp_keeps_the_other_side_at_the_bottom() -> None:
    p = make({24: 2, 6: 5}, {6: 7})
    mine = board_text(p, names=("me", "you"))
    theirs = board_text(p, names=("me", "you"), viewer="opp")
    assert "O  me  (on roll)" in mine.splitlines()[-4]
    assert "O  you" in theirs.splitlines()[-4]
    assert "X  me  (on roll)" in theirs.splitlines()[2]
    # From the opponent's side their 6 point (seven checkers) is bottom right.
    assert column(theirs, 7)[6:] == ["7", "O", "O", "O", "O"]


def test_render_crowded_game_board() -> None:
    # Eight on a point, both sides on the bar (six of ours), the other side bearing off.
    p = make({25: 6, 6: 8, 1: 1}, {25: 2, 1: 3})
    text = board_text(p, cube=4, cube_owner="me", dice=(6, 6), score=(2, 4), match_length=7)
    assert column(text, 7)[6:] == ["8", "O", "O", "O", "O"]
    assert column(text, 6) == ["", "", "", "X", "X", "BAR", "O", "O", "O", "O", "6"]
    assert column(text, 13)[:5] == ["X", "X", "X", "X", "10"]
    assert "cube 4 (owns it)" in "\n".join(text.splitlines()[8:])
    assert "[6]  [6]" in text and "7-point match" in text
    assert all(len(line) <= 80 for line in text.splitlines())


def test_render_opponent_on_roll_keeps_the_viewer_and_moves_the_dice() -> None:
    # The computer (on roll) rolled 5-2; the person stays at the bottom and the dice sit on the left.
    p = Position.initial()
    text = board_text(p, dice=(5, 2), viewer="opp", names=("Computer", "You"), cube=1)
    middle = grid(text)[5]
    assert middle.index("[5]") < middle.index("BAR")
    assert "X  Computer  (on roll)" in text and "O  You" in text


def test_render_crawford_game_fits() -> None:
    text = board_text(Position.initial(), cube=1, match_length=25, crawford=True, score=(24, 3))
    middle = grid(text)[5]
    assert "25-point match, Crawford game" in middle and "…" not in middle


def test_render_hypergammon_counts_three_checkers() -> None:
    plain = board_text(Position.initial("hypergammon"))
    assert plain.count("off 0") == 2 and plain.count("pips 69") == 2


# -- bad input --------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["moves", "notanid", "31"],
        ["moves", "4HPwATDgc/ABM", "31"],
        ["moves", "////////////////", "31"],
        ["moves", "//////////////", "31"],  # 14 chars, too many checkers
        ["moves", START, "37"],
        ["moves", START, "0-1"],
        ["moves", START, "3"],
        ["moves", START, "312"],
        ["moves", START, "3", "1", "2"],
        ["moves", START, "ab"],
        ["moves", START],
        ["moves", START, "31", "--variant", "chess"],
        ["moves", START, "31", "--variant", "hypergammon"],
        ["show", "notanid"],
        ["show", "//////////////"],
        ["show", "--variant", "chess"],
        ["show", "XGID=garbage"],
        ["moves", "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"],
    ],
)
def test_bad_input_exits_2_without_traceback(args: list[str]) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error:")
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


# -- other commands and entry points ------------------------------------------


def test_play_help() -> None:
    result = runner.invoke(app, ["play", "--help"])
    assert result.exit_code == 0
    assert "--match-length" in result.stdout and "--two-players" in result.stdout


def test_help() -> None:
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    for command in ("moves", "show", "play"):
        assert command in result.stdout


def test_python_dash_m() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "gammon", "moves", START, "31", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        env={"NO_COLOR": "1", "PATH": ""},
    )
    assert proc.returncode == 0, proc.stderr
    assert len(json.loads(proc.stdout)) == 16
    bad = subprocess.run(
        [sys.executable, "-m", "gammon", "moves", START, "77"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert bad.returncode == 2
    assert bad.stderr.startswith("error:") and "Traceback" not in bad.stderr


def test_help_shows_flags_without_a_fake_value() -> None:
    for command in ("play", "hint", "selfplay", "rollout", "train", "convert"):
        result = runner.invoke(app, [command, "--help"])
        assert result.exit_code == 0
        assert "<bool>" not in result.stdout
        assert "--help" in result.stdout


def test_usage_errors_are_one_line() -> None:
    for args in (["nosuch"], ["moves"], ["rollout", START, "--trials", "x"], ["play", "-m", "99"]):
        result = runner.invoke(app, args)
        assert result.exit_code == 2
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr


def test_weights_with_a_crashed_net_are_taken_and_four_nets_refused(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """``--weights`` takes a contact and a race net, and the shipped 0-ply net's third net for
    crashed positions; a file of four nets is refused in one line, before anything runs."""
    import numpy as np

    from gammon.ai.variant_nets import ZERO_PLY_NET, load_variant_network

    zero = load_variant_network(ZERO_PLY_NET)
    assert zero is not None and zero.nets == 3
    three = tmp_path / "three.npz"
    zero.save(three)
    code, out, _ = run("eval", START, "--plies", "0", "--weights", str(three))
    assert code == 0 and "equity" in out.lower()
    four = tmp_path / "four.npz"
    np.savez(four, w1=np.zeros((4, 214, 3)), b1=np.zeros((4, 3)), w2=np.zeros((4, 3, 5)), b2=np.zeros((4, 5)))
    code, out, err = run("eval", START, "--weights", str(four))
    assert code == 2 and "does not hold a contact and a race net" in out + err
