"""``gammon play``: the terminal game, its commands, plays entered in parts, and whole matches.

Most tests drive :class:`TerminalGame` in the process with scripted input and a
rich console writing to a string (no terminal, so no colour codes).  The
``pexpect`` tests at the end run ``python -m gammon play`` in a pseudo-terminal
and play whole seeded matches the way a person would.
"""

from __future__ import annotations

import dataclasses
import io
import os
import re
import signal
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from gammon import Position
from gammon.cli import app
from gammon.cli.terminal.commands import COMMANDS, Command, CommandError, parse_command
from gammon.cli.terminal.loop import TerminalGame
from gammon.cli.terminal.settings import PlaySettings
from gammon.core.dice import ScriptedDice
from gammon.core.errors import AmbiguousPlayError, GammonError, IllegalPlayError, PlaySyntaxError
from gammon.core.plays import Play
from gammon.play.ai_player import AIPlayer
from gammon.play.levels import LEVELS, make_computer_player
from gammon.play.partial import PartialPlay, follow_parts
from gammon.play.players import HeuristicPlayer

START = Position.initial()


def make(me: dict[int, int], opp: dict[int, int], variant: str = "standard") -> Position:
    """A position from ``{point: count}`` per side, each side numbered from its own view (25 = bar)."""
    rows = []
    for side in (me, opp):
        row = [0] * 25
        for point, count in side.items():
            row[point - 1] = count
        rows.append(row)
    return Position(rows[0], rows[1], variant)


def play_lines(
    lines: Iterable[str],
    settings: PlaySettings | None = None,
    *,
    setup: Callable[[TerminalGame], None] | None = None,
    width: int = 1000,
    **options: object,
) -> tuple[int, str]:
    """Run a game on scripted input lines; the exit status and everything shown (prompts and echo).

    The console is wide, so that messages are not wrapped (the board never is).
    """
    out = io.StringIO()
    feed = iter(lines)

    def answer(prompt: str) -> str:
        out.write(prompt)
        try:
            line = next(feed)
        except StopIteration:
            raise EOFError from None
        out.write(line + "\n")
        return line

    console = Console(file=out, width=width, highlight=False)
    # The game-loop tests script the fast heuristic bot (some patch its cube
    # decisions) unless a test chooses another level.
    settings = settings or PlaySettings(seed=1)
    if settings.level == PlaySettings().level:
        settings = dataclasses.replace(settings, level="heuristic")
    game = TerminalGame(settings, input_fn=answer, console=console, **options)  # type: ignore[arg-type]
    if setup is not None:
        setup(game)
    return game.run(), out.getvalue()


# -- command parsing --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", Command("enter")),
        ("   ", Command("enter")),
        ("hint", Command("hint")),
        ("HINT", Command("hint")),
        ("undo", Command("undo")),
        ("u", Command("undo")),
        ("double", Command("double")),
        ("take", Command("take")),
        ("drop", Command("drop")),
        ("beaver", Command("beaver")),
        ("resign", Command("resign", arg="single")),
        ("resign gammon", Command("resign", arg="gammon")),
        ("resign BG", Command("resign", arg="backgammon")),
        ("resign 2", Command("resign", arg="gammon")),
        ("moves", Command("moves")),
        ("7", Command("pick", number=7)),
        (" 12 ", Command("pick", number=12)),
        ("save", Command("save")),
        ("save my match.mat", Command("save", arg="my match.mat")),
        ("help", Command("help")),
        ("?", Command("help")),
        ("quit", Command("quit")),
        ("q", Command("quit")),
        ("y", Command("accept")),
        ("no", Command("reject")),
        ("roll", Command("roll")),
        ("board", Command("board")),
    ],
)
def test_parse_command(text: str, expected: Command) -> None:
    assert parse_command(text) == expected


@pytest.mark.parametrize("text", ["24/18 13/11", "bar/22*", "6/off", "8/5(2)", "b/20", "xyzzy", "o"])
def test_plays_and_unknown_words_are_not_commands(text: str) -> None:
    assert parse_command(text) is None


@pytest.mark.parametrize("text", ["resign twice", "resign gammon now", "undo 3", "hint me", "quit now"])
def test_bad_command_arguments(text: str) -> None:
    with pytest.raises(CommandError):
        parse_command(text)
    assert issubclass(CommandError, GammonError)


def test_every_command_is_in_help() -> None:
    from gammon.cli.terminal.commands import HELP

    for name in COMMANDS:
        assert name in HELP, name


# -- settings and levels -------------------------------------------------------------------


def test_settings_defaults_and_names() -> None:
    s = PlaySettings().checked()
    assert s.names == ("You", "Computer")
    assert PlaySettings(opponent="human").checked().names == ("Player 1", "Player 2")
    assert PlaySettings(names=("Ann", "")).checked().names == ("Ann", "Computer")
    assert PlaySettings(names=("Ann", "Ann"), opponent="human").checked().names == ("Ann", "Ann (2)")
    rules = PlaySettings(match_length=0, beavers=True, auto_doubles=2).rules()
    assert rules.is_money and rules.jacoby and rules.beavers and rules.automatic_doubles == 2
    match_rules = PlaySettings(match_length=5, beavers=True, auto_doubles=2).rules()
    assert not (match_rules.jacoby or match_rules.beavers or match_rules.automatic_doubles)


@pytest.mark.parametrize(
    "settings",
    [
        PlaySettings(match_length=65),  # 64 at most (resumed; the option stops at 25)
        PlaySettings(match_length=-1),
        PlaySettings(variant="chess"),
        PlaySettings(dice="loaded"),
        PlaySettings(level="godlike"),
        PlaySettings(opponent="robot"),  # type: ignore[arg-type]
        PlaySettings(auto_doubles=-1),
    ],
)
def test_bad_settings(settings: PlaySettings) -> None:
    with pytest.raises(GammonError):
        settings.checked()


def test_levels() -> None:
    assert LEVELS[0] == "beginner" and "expert" in LEVELS and "heuristic" in LEVELS
    assert isinstance(make_computer_player("beginner", 1), AIPlayer)
    assert make_computer_player("Strong", 1).level == "strongest"  # type: ignore[attr-defined]
    assert isinstance(make_computer_player("heuristic", 1), HeuristicPlayer)
    with pytest.raises(GammonError, match="beginner"):
        make_computer_player("grandmaster")


def test_beginner_is_seeded_and_legal() -> None:
    from gammon.core.game import Game

    game = Game()
    game.roll((6, 5))
    plays = game.position.legal_plays((6, 5))
    picks = [make_computer_player("beginner", 3).choose_play(game, plays) for _ in range(2)]
    assert picks[0] == picks[1] and picks[0] in plays


# -- plays entered in parts ------------------------------------------------------------------


def test_parts_make_a_play() -> None:
    first = follow_parts(START, (3, 1), ["8/5"])
    assert isinstance(first, PartialPlay)
    assert first.moved == "8/5" and first.dice_left == (1,)
    assert first.position.me[4] == 1 and first.position.me[7] == 2
    assert START.parse_play("8/5 6/5", (3, 1)) in first.plays
    whole = follow_parts(START, (3, 1), ["8/5", "6/5"])
    assert isinstance(whole, Play) and str(whole) == "8/5 6/5"


def test_a_whole_play_in_one_part() -> None:
    assert str(follow_parts(START, (6, 5), ["24/13"])) == "24/13"


def test_one_checker_in_two_parts_either_order_of_dice() -> None:
    assert str(follow_parts(START, (6, 5), ["24/18", "18/13"])) == "24/13"
    # With both stops free, either die may come first (the generator writes only one order).
    pos = make({24: 1, 6: 14}, {3: 15})
    for stop in (18, 19):
        part = follow_parts(pos, (6, 5), [f"24/{stop}"])
        assert isinstance(part, PartialPlay) and part.moved == f"24/{stop}"
        whole = follow_parts(pos, (6, 5), [f"24/{stop}", f"{stop}/13"])
        assert isinstance(whole, Play) and str(whole) == "24/13"


def test_doubles_in_parts() -> None:
    one = follow_parts(START, (6, 6), ["13/7"])
    assert isinstance(one, PartialPlay) and one.dice_left == (6, 6, 6)
    three = follow_parts(START, (6, 6), ["13/7", "13/7", "24/18"])
    assert isinstance(three, PartialPlay) and three.dice_left == (6,)
    whole = follow_parts(START, (6, 6), ["13/7", "13/7", "24/18", "24/18"])
    assert isinstance(whole, Play) and str(whole) == "24/18(2) 13/7(2)"


def test_a_part_that_fits_no_play_is_refused_with_the_closest() -> None:
    with pytest.raises(IllegalPlayError, match="closest legal plays"):
        follow_parts(START, (6, 5), ["24/22"])
    with pytest.raises(IllegalPlayError, match="held by the opponent"):
        follow_parts(START, (6, 5), ["24/19"])
    with pytest.raises(PlaySyntaxError):
        follow_parts(START, (6, 5), ["24/x"])


def test_bar_first_in_parts() -> None:
    pos = make({25: 1, 13: 5, 8: 3, 6: 5, 24: 1}, {6: 5, 8: 3, 13: 5, 24: 2})
    with pytest.raises(IllegalPlayError, match="bar"):
        follow_parts(pos, (6, 5), ["13/7"])
    entered = follow_parts(pos, (6, 5), ["bar/20"])
    assert isinstance(entered, PartialPlay) and entered.dice_left == (6,)


def test_hit_in_parts() -> None:
    pos = make({24: 2, 13: 5, 8: 3, 6: 5}, {6: 4, 8: 3, 13: 5, 24: 2, 4: 1})  # opp blot on our 21
    part = follow_parts(pos, (3, 1), ["24/21*"])
    assert isinstance(part, PartialPlay)
    assert part.position.bar == (0, 1)


def test_ambiguous_text_is_refused() -> None:
    # Blots on our 23 and 22 points: 24/21 with 2-1 hits one of them, and the text does not say which.
    pos = make({24: 2, 13: 5, 8: 3, 6: 5}, {6: 3, 8: 3, 13: 5, 24: 2, 2: 1, 3: 1})
    with pytest.raises(AmbiguousPlayError, match="24/22\\*/21|24/23\\*/21"):
        follow_parts(pos, (2, 1), ["24/21"])
    assert str(follow_parts(pos, (2, 1), ["24/23*/21"])) == "24/23*/21"


# -- the game loop without a terminal --------------------------------------------------------------


def scripted(*rolls: tuple[int, int]) -> ScriptedDice:
    return ScriptedDice(list(rolls))


def test_opening_illegal_partial_undo_and_play() -> None:
    # You throw 3, the computer 1: you play 3-1 from the start.
    code, out = play_lines(
        ["xyzzy", "24/1", "8/5", "undo", "undo", "8/5", "6/5"],
        dice=scripted((3, 1), (6, 5)),
    )
    assert code == 0
    assert "Opening roll: You 3, Computer 1. You start with 3-1." in out
    assert "cannot read the play 'xyzzy'" in out and "type 'help'" in out
    assert "no legal play for 3-1 moves 24/1" in out and "closest legal plays" in out
    assert "(moved 8/5; to play: 1)" in out
    assert "Took back 8/5." in out and "nothing to undo" in out
    assert "You play 8/5 6/5." in out
    assert "Computer rolls 6-5." in out and re.search(r"Computer plays \S", out)
    assert "[You] roll or double > " in out
    assert out.rstrip().endswith("End of input: leaving the game. Bye.")
    assert "\x1b[" not in out


def test_board_shows_what_matters() -> None:
    _, out = play_lines([], dice=scripted((3, 1)))
    board = out[out.index("13 14 15") :]
    lines = board.splitlines()[:18]
    assert all(len(line) <= 80 for line in lines)
    assert "[3]  [1]" in board and "pips 167" in board
    assert "O  You  (on roll)" in board and "X  Computer" in board
    assert "3-point match, cube 1" in board and "score 0 of 3" in board
    assert "12 11 10  9  8  7       6  5  4  3  2  1" in board


def test_moves_pick_and_hint() -> None:
    code, out = play_lines(["moves", "hint", "99", "3"], dice=scripted((3, 1), (6, 5)))
    assert code == 0
    assert "Legal plays (16); type a number to make one:" in out
    third = START.legal_plays((3, 1))[2]
    assert re.search(rf"\b3\. {re.escape(str(third))}\b", out)
    assert "Engine's best plays (2-ply" in out and "win " in out
    assert len(re.findall(r"\d\. \S.* [+-]\d\.\d{3}.*win \d+\.\d%", out)) == 5
    assert "no play number 99" in out
    assert f"You play {third}." in out


def test_moves_after_a_part_lists_what_still_fits() -> None:
    _, out = play_lines(["8/5", "moves"], dice=scripted((3, 1)))
    assert "Plays that still fit (4)" in out


#: You have a checker on the bar; the computer holds its 1, 2, 4, 5 and 6 points.
ON_THE_BAR = make({25: 1, 6: 14}, {1: 2, 2: 2, 4: 2, 5: 2, 6: 2, 13: 5})


def start_at(position: Position) -> Callable[[TerminalGame], None]:
    def setup(game: TerminalGame) -> None:
        game.match.game.position = position

    return setup


def test_a_forced_play_is_made_without_asking() -> None:
    code, out = play_lines([], setup=start_at(ON_THE_BAR), dice=scripted((3, 1), (6, 5)))
    assert code == 0
    assert "You: the only legal play is bar/22 6/5." in out
    assert "You play bar/22 6/5." in out
    assert "[You] play" not in out


def test_a_roll_without_a_play_passes() -> None:
    code, out = play_lines([], setup=start_at(ON_THE_BAR), dice=scripted((2, 1), (6, 5)))
    assert code == 0
    assert "You start with 2-1." in out and "You cannot move." in out
    assert "[You] play" not in out


def test_double_and_drop_two_players(tmp_path: Path) -> None:
    target = tmp_path / "drop.mat"
    code, out = play_lines(
        ["8/5 6/5", "double", "drop", "y", str(target)],
        PlaySettings(seed=1, opponent="human", names=("Ann", "Bob")),
        dice=scripted((3, 1), (4, 2)),
    )
    assert code == 0
    assert "[Bob] roll or double > " in out
    assert "Bob doubles to 2." in out and "[Ann] take or drop > " in out
    assert "Ann drops." in out
    assert "Bob wins game 1 (Ann drops the double): 1 point." in out
    assert "Score: Ann 0, Bob 1 in a 3-point match." in out
    assert f"Saved the match to {target}." in out
    text = target.read_text()
    assert "3 point match" in text and "Doubles => 2" in text and "Drops" in text
    assert "Ann" in text and "Bob" in text
    assert "Game 2: Ann 0, Bob 1 in a 3-point match" in out


def test_double_and_take_against_the_computer() -> None:
    code, out = play_lines(
        ["double"],
        dice=scripted((1, 3), (6, 5)),  # the computer starts with 3-1
        computer=HeuristicPlayer(1),
    )
    assert code == 0
    assert "Computer starts with 3-1." in out
    assert "You double to 2." in out
    # At the start of a game the heuristic's chances are near 50%, far below its ~76% take
    # limit: it takes.
    assert "Computer takes: the cube is 2, owned by Computer." in out
    assert "Computer drops" not in out


def test_the_computer_doubles_and_you_take(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(HeuristicPlayer, "cube_action", lambda self, game: "double")
    code, out = play_lines(["8/5 6/5", "hint", "take"], dice=scripted((3, 1), (6, 5)))
    assert code == 0
    assert "Computer doubles to 2." in out and "[You] take or drop > " in out
    # A double after one play each is a clear take (beavers are off here); the advice names the
    # hint engine and its depth (world-class unless the game is played at strongest).
    assert "Engine (world-class, 2-ply): You win" in out
    assert "Advice: take" in out
    assert "Advice: pass" not in out and "Advice: beaver" not in out
    assert "You take: the cube is 2, owned by you." in out
    assert "cube 2 (owns it)" in out


def test_beaver_in_money_play(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(HeuristicPlayer, "cube_action", lambda self, game: "double")
    code, out = play_lines(
        ["8/5 6/5", "beaver"],
        PlaySettings(seed=1, match_length=0, beavers=True),
        dice=scripted((3, 1), (6, 5)),
    )
    assert code == 0
    assert "money session" in out and "beavers on" in out
    assert "[You] take, drop or beaver > " in out
    assert "You beaver: the cube is 4, owned by you." in out


def test_resign_accepted_ends_the_game_and_money_asks_for_another() -> None:
    code, out = play_lines(
        ["resign backgammon", "n", "n"],
        PlaySettings(seed=1, match_length=0, jacoby=False),
        dice=scripted((3, 1)),
    )
    assert code == 0
    assert "You offer to resign a backgammon (3 points)." in out
    assert "Computer accepts the resignation." in out
    assert "Computer wins game 1 (You resign a backgammon): 3 points." in out
    assert "Total after 1 game: You 0, Computer 3." in out
    assert "Save the match? [y/N] > n" in out
    assert "Play another game? [Y/n] > n" in out


def test_the_person_answers_a_resignation(monkeypatch: pytest.MonkeyPatch) -> None:
    from gammon.core.position import ResultKind

    monkeypatch.setattr(HeuristicPlayer, "resign", lambda self, game: ResultKind.SINGLE)
    code, out = play_lines(
        ["8/5 6/5", "maybe", "n", "", "1", "y"],
        dice=scripted((3, 1), (6, 5), (5, 2)),
    )
    assert code == 0
    assert "Computer offers to resign a single game (1 point)." in out
    assert "answer y (accept) or n (reject)" in out
    assert "You refuse the resignation: play on." in out
    assert "You accept the resignation." in out
    assert "You win game 1 (Computer resigns a single game): 1 point." in out


def test_quit_asks_first() -> None:
    code, out = play_lines(["8/5 6/5", "quit", "n", "quit", "y"], dice=scripted((3, 1), (6, 5)))
    assert code == 0
    assert "Quit and throw away the match played so far? [y/N] > n" in out
    assert "Carry on." in out
    assert out.rstrip().endswith("Bye.")


def test_quit_before_anything_happens_does_not_ask() -> None:
    code, out = play_lines(["quit"], PlaySettings(seed=1, dice="manual"))
    assert code == 0
    assert "[dice] opening roll" in out and "throw away" not in out
    assert out.rstrip().endswith("Bye.")


def test_save_command_and_variants(tmp_path: Path) -> None:
    mat = tmp_path / "game.mat"
    _, out = play_lines([f"save {mat}", "quit"], dice=scripted((3, 1)))
    assert f"Saved the match to {mat}." in out and mat.exists()
    assert "throw away" not in out  # saved: nothing to lose
    bare = tmp_path / "noext"
    _, out = play_lines([f"save {bare}"], dice=scripted((3, 1)))
    assert (tmp_path / "noext.mat").exists()
    dutch = PlaySettings(seed=1, variant="dutch")
    _, out = play_lines([f"save {tmp_path / 'dutch.mat'}"], dutch, dice=scripted((3, 1), (6, 5), (4, 2)))
    assert "could not save" in out and "JSON" in out
    _, out = play_lines([f"save {tmp_path / 'missing' / 'x.mat'}"], dice=scripted((3, 1)))
    assert "could not save" in out


def test_save_to_a_folder_is_refused_and_writes_nothing_beside_it(tmp_path: Path) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    _, out = play_lines([f"save {folder}", "quit"], dice=scripted((3, 1)))
    assert "it is a folder; give a file name" in out and "Saved" not in out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games"] and not any(folder.iterdir())
    assert "throw away" in out  # not saved, so quitting still asks


def test_a_bare_save_asks_for_the_file_and_never_takes_a_command_as_its_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    # The next line is a command a person types out of habit: refused, never a file called roll.mat.
    _, out = play_lines(["save", "roll", "save", "quit", "save", "cancel"], dice=scripted((3, 1)))
    assert out.count("Save the match to which file? (Enter: gammon-") == 3
    assert "not saved: 'roll' is a command" in out and "not saved: 'quit' is a command" in out
    assert "Not saved." in out
    assert list(tmp_path.iterdir()) == []
    # A name answers the prompt; Enter takes the default shown.
    _, out = play_lines(["save", "kept", "save", ""], dice=scripted((3, 1)))
    saved = sorted(p.name for p in tmp_path.iterdir())
    assert len(saved) == 2 and saved[1] == "kept.mat" and re.fullmatch(r"gammon-[\d-]+\.mat", saved[0])
    assert out.count("Saved the match to ") == 2


def test_save_json_when_available(tmp_path: Path) -> None:
    target = tmp_path / "dutch.json"
    _, out = play_lines([f"save {target}"], PlaySettings(seed=1, variant="dutch"),
                        dice=scripted((3, 1), (6, 5), (4, 2)))
    assert f"Saved the match to {target}." in out
    assert '"variant": "dutch"' in target.read_text()


def test_manual_dice() -> None:
    code, out = play_lines(
        ["7", "41", "24/20 6/5", "66", "", "help", "6-5"],
        PlaySettings(seed=1, dice="manual"),
    )
    assert code == 0
    assert "manual dice" in out
    assert "[dice] opening roll: your die, then Computer's (like 41) > " in out
    assert "You 4, Computer 1. You start with 4-1." in out
    assert "You play 24/20 6/5." in out
    # The computer may double before its roll; then its dice are asked for.
    assert "[dice] Computer's roll (like 31) > 66" in out
    assert "Computer rolls 6-6." in out
    assert "list the legal plays" in out  # help was shown at the dice prompt
    assert "You roll 6-5." in out


def test_card_dice_are_shown() -> None:
    _, out = play_lines([], PlaySettings(seed=4, dice="cards"))
    assert "two piles of cards (seed 4)" in out
    assert re.search(r"\(cards [A2-6] [A2-6]\)", out)


def test_acey_deucey_names_a_double() -> None:
    code, out = play_lines(
        ["bar/24 bar/23", "3", "moves", "1"],
        PlaySettings(seed=1, variant="acey-deucey", match_length=0),
        dice=scripted((2, 1), (1, 2), (6, 5)),  # Acey-Deucey: the starter throws anew
    )
    assert code == 0
    assert "Acey-deucey! You name a double to play." in out
    assert "You play double 3s." in out


def test_dead_cube_rolls_without_asking() -> None:
    # In a 1-point match the cube is dead: no roll-or-double prompt, ever.
    _, out = play_lines(["8/5 6/5"], PlaySettings(seed=1, match_length=1),
                        dice=scripted((3, 1), (6, 5), (5, 2)))
    assert "roll or double" not in out
    assert "You roll 5-2." in out


def test_crawford_game_rolls_without_asking() -> None:
    code, out = play_lines(
        ["resign gammon", "n", "8/5 6/5"],
        dice=scripted((3, 1), (3, 1), (6, 5), (5, 2)),
    )
    assert code == 0
    assert "Computer wins game 1 (You resign a gammon): 2 points." in out
    game2 = out[out.index("Game 2: You 0, Computer 2 in a 3-point match (Crawford game: no doubling)") :]
    assert "Crawford game" in game2 and "roll or double" not in game2
    assert "You roll 5-2." in game2


def test_keyboard_interrupt_exits_130() -> None:
    def interrupt(prompt: str) -> str:
        raise KeyboardInterrupt

    out = io.StringIO()
    game = TerminalGame(PlaySettings(seed=1, level="heuristic"), input_fn=interrupt, console=Console(file=out),
                        dice=scripted((3, 1)))
    assert game.run() == 130
    assert "Interrupted" in out.getvalue()


def test_a_whole_match_in_process() -> None:
    """A 3-point match played to the end: plays by number, rolls by Enter, every double dropped."""
    out = io.StringIO()

    def answer(prompt: str) -> str:
        out.write(prompt)
        if "] play " in prompt:
            return "1"
        if "take" in prompt:
            return "drop"
        return "" if "roll or double" in prompt else "n"

    game = TerminalGame(PlaySettings(seed=2, match_length=3, level="heuristic"), input_fn=answer,
                        console=Console(file=out, width=80))
    assert game.run() == 0
    text = out.getvalue()
    assert game.match.is_over and max(game.match.score) >= 3
    assert re.search(r"(You win|Computer wins) the match \d+-\d+!", text)
    assert "Save the match? [y/N] > " in text


# -- the command line ---------------------------------------------------------------------------


runner = CliRunner()


def test_cli_play_through_a_pipe_has_no_colour() -> None:
    result = runner.invoke(
        app, ["play", "--seed", "3", "-m", "1", "--variant", "hypergammon"], input="1\n" * 300 + "n\n"
    )
    assert result.exit_code == 0, result.output
    assert "\x1b[" not in result.output
    assert "1-point match of Hypergammon" in result.output
    assert re.search(r"wins? the match", result.output)


@pytest.mark.parametrize(
    "args",
    [
        ["play", "--dice", "loaded"],
        ["play", "--level", "godlike"],
        ["play", "--variant", "chess"],
        ["play", "--opponent", "robot"],
        ["play", "--match-length", "26"],
        ["play", "--seed", "-3"],
    ],
)
def test_cli_play_bad_options(args: list[str]) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert "Traceback" not in result.output


def test_cli_play_help_lists_the_options() -> None:
    result = runner.invoke(app, ["play", "--help"], env={"COLUMNS": "200", "NO_COLOR": "1"})
    assert result.exit_code == 0
    for option in ("--match-length", "--variant", "--dice", "--level", "--two-players", "--opponent",
                   "--jacoby", "--beavers", "--auto-doubles", "--seed", "--name"):
        assert option in result.output, option


# -- a pseudo-terminal, as a person plays -------------------------------------------------------------

try:  # a dev dependency; only the three pseudo-terminal tests below need it
    import pexpect
except ImportError:  # pragma: no cover - skips only these tests, and fails in CI (conftest)
    pexpect = None

needs_pexpect = pytest.mark.skipif(pexpect is None, reason="the pseudo-terminal tests need pexpect")

PROMPTS = [
    r"\[You\] play (\d)-(\d)[^\r\n]*> ",  # 0
    r"\[You\] roll or double > ",  # 1
    r"\[You\] take or drop > ",  # 2
    r"Save the match\? \[y/N\] > ",  # 3
    r"Save the match to which file\? \(Enter: [^)]*\) > ",  # 4
    r"\[You\] accept [^\r\n]*> ",  # 5
    r"exists\. Replace it\? \[y/N\] > ",  # 6
]


def _as_a_shell_starts_it() -> None:
    """In the child before exec: Ctrl-C as an interactive shell leaves it (default action, not
    blocked), whatever the test process inherited or set up (a library, a server it started)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_SETMASK, set())


def _signal_state(pid: int) -> str:
    """The child's signal masks as the kernel reports them (for a failure message)."""
    try:
        lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    except OSError:
        return "no /proc status"
    return "; ".join(line for line in lines if line.startswith(("State", "Sig", "Threads")))


def spawn(*args: str, colour: bool = False) -> Any:
    env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TERM": "xterm" if colour else "dumb"}
    for name in ("NUMBA_CACHE_DIR", "PYTHONPATH"):  # the compiled engine and the code the other tests use
        if name in os.environ:
            env[name] = os.environ[name]
    if not colour:
        env["NO_COLOR"] = "1"
    return pexpect.spawn(
        sys.executable, ["-m", "gammon", "play", *args], env=env, encoding="utf-8",
        # Each expect waits up to 120 s: generous, as the computer's first move loads the engine,
        # which a busy machine does slowly; an expectation that is met returns at once.
        timeout=120, dimensions=(24, 80), preexec_fn=_as_a_shell_starts_it,
    )


@needs_pexpect
def test_pty_standard_match(tmp_path: Path) -> None:
    """A 3-point standard match against the computer, typed as a person would."""
    target = tmp_path / "match.mat"
    child = spawn("--seed", "7", "--match-length", "3")
    transcript: list[str] = []
    child.logfile_read = io.StringIO()
    child.expect(PROMPTS[0])
    dice = (int(child.match.group(1)), int(child.match.group(2)))
    assert "You start with" in child.before
    # Garbage, then an illegal move: refused with the reason and the closest plays.
    child.sendline("xyzzy")
    child.expect(r"cannot\s+read\s+the\s+play\s+'xyzzy'")
    child.expect(PROMPTS[0])
    child.sendline("24/1")
    child.expect(r"no\s+legal\s+play\s+for")
    child.expect(r"closest\s+legal\s+plays")
    child.expect(PROMPTS[0])
    # A play in parts, with an undo in between.
    play = next(p for p in START.legal_plays(dice) if len(p.moves) >= 2 and not p.hits)
    first = play.moves[0]
    part = f"{first.from_point}/{first.to_point}"
    child.sendline(part)
    child.expect(r"\[You\] play \d-\d \(moved " + re.escape(part) + r"; to play: \d\) > ")
    child.sendline("undo")
    child.expect(f"Took back {part}")
    child.expect(PROMPTS[0])
    child.sendline("moves")
    child.expect(r"Legal plays \(\d+\)")
    child.expect(PROMPTS[0])
    child.sendline(str(play))
    child.expect(re.escape(f"You play {play}."))
    doubled = False
    for _ in range(400):
        i = child.expect([*PROMPTS, pexpect.EOF])
        if i == 0:
            child.sendline("1")
        elif i == 1:
            child.sendline("" if doubled else "double")
            if not doubled:
                doubled = True
                child.expect(r"Computer (takes|drops)")
        elif i == 2:
            child.sendline("drop")
        elif i == 3:
            transcript.append(child.before)
            child.sendline("y")
        elif i == 4:
            child.sendline(str(target))
            if child.expect(["Saved the match", PROMPTS[6]]) == 1:  # saved after the last game
                child.sendline("y")
                child.expect("Saved the match")
            if re.search(r"wins? the match", "".join(transcript)):
                break
        elif i in (5, 6):
            child.sendline("y")
        else:
            break
    assert doubled
    assert re.search(r"(You win|Computer wins) the match \d+-\d+!", "".join(transcript))
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    log = child.logfile_read.getvalue()
    assert "\x1b[" not in log
    text = target.read_text()
    assert "3 point match" in text and "Doubles => 2" in text


@needs_pexpect
def test_pty_hypergammon_in_colour() -> None:
    child = spawn("--seed", "3", "--variant", "hypergammon", "-m", "1", "--level", "beginner", colour=True)
    child.logfile_read = io.StringIO()
    for _ in range(200):
        i = child.expect([PROMPTS[0], PROMPTS[3], pexpect.EOF])
        if i == 0:
            child.sendline("hint" if _ == 0 else "1")
        elif i == 1:
            child.sendline("n")
        else:
            break
    child.close()
    assert child.exitstatus == 0
    log = child.logfile_read.getvalue()
    assert "Engine's best plays" in log
    assert re.search(r"wins? the match", log)
    assert "\x1b[" in log  # a colour terminal gets colours


@needs_pexpect
def test_pty_ctrl_c_and_end_of_input() -> None:
    child = spawn("--seed", "7")
    child.expect(PROMPTS[0])
    child.sendintr()
    answered = child.expect(["Interrupted: leaving the game. Bye.", pexpect.TIMEOUT])
    assert answered == 0, f"Ctrl-C not answered in {child.timeout} s: {_signal_state(child.pid)}"
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    assert "Traceback" not in child.before

    child = spawn("--seed", "7")
    child.expect(PROMPTS[0])
    child.sendeof()
    child.expect("End of input: leaving the game. Bye.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


# -- issue 14: saving by file ending, resuming, followable computer turns -------------------


def test_save_writes_the_format_the_ending_names(tmp_path: Path) -> None:
    sgf, js, txt = tmp_path / "g.sgf", tmp_path / "g.json", tmp_path / "g.txt"
    _, out = play_lines([f"save {sgf}", f"save {js}", f"save {txt}"], dice=scripted((3, 1)))
    assert sgf.read_text().startswith("(;FF[4]GM[6]")
    assert '"format"' in js.read_text()
    assert not txt.exists() and "cannot tell the format of 'g.txt'" in out


def test_save_asks_before_replacing_a_file(tmp_path: Path) -> None:
    precious = tmp_path / "README.mat"
    precious.write_text("keep me")
    _, out = play_lines([f"save {precious}", "n"], dice=scripted((3, 1)))
    assert "exists. Replace it?" in out and "Not saved." in out
    assert precious.read_text() == "keep me"
    _, out = play_lines([f"save {precious}", "y"], dice=scripted((3, 1)))
    assert precious.read_text().lstrip().startswith(";") or "point match" in precious.read_text()


def test_resume_continues_a_saved_match(tmp_path: Path) -> None:
    saved = tmp_path / "m.mat"
    # Play the opening 3-1, then save and leave.
    play_lines(["8/5 6/5", f"save {saved}", "quit"], PlaySettings(seed=1, match_length=5),
               dice=scripted((3, 1), (6, 5), (4, 2)))
    assert saved.exists()
    result = CliRunner().invoke(app, ["play", "--resume", str(saved), "--level", "heuristic"], input="")
    assert result.exit_code == 0, result.output
    shown = " ".join(result.output.split())
    assert f"Resuming {saved}: game 1" in shown
    assert "a 5-point match" in shown
    over = CliRunner().invoke(app, ["play", "--resume", str(tmp_path / "none.mat")])
    assert over.exit_code == 2 and over.output.startswith("error:")


def test_computer_plays_are_written_in_the_viewers_numbering() -> None:
    from gammon.cli.terminal.commands import renumber_play

    assert renumber_play("24/18 13/11*") == "1/7 12/14*"
    assert renumber_play("bar/22 6/off 8/5(2)") == "bar/3 19/off 17/20(2)"
    # The computer answers 3-1 with 6-5 from its side: 24/18/13 is the person's 1/7/12.
    _, out = play_lines(["8/5 6/5"], dice=scripted((3, 1), (6, 5)),
                        computer=_FixedPlay("24/13"))
    assert "Computer plays 1/12." in out


class _FixedPlay(HeuristicPlayer):
    def __init__(self, text: str) -> None:
        super().__init__(seed=1)
        self.text = text

    def choose_play(self, game, plays):  # type: ignore[no-untyped-def]
        return game.position.parse_play(self.text, game.rolled)


def test_a_closed_out_person_sees_each_computer_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    # You are on the bar against a closed board: the computer plays turn after turn.
    monkeypatch.setattr(HeuristicPlayer, "cube_action", lambda self, game: "no-double")
    closed = make({25: 2, 6: 13}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3})
    _, out = play_lines(["", "", ""], setup=start_at(closed),
                        dice=scripted((2, 1), (6, 5), (6, 5), (4, 3), (6, 6), (2, 1)), pace=0.0)
    assert "You cannot move." in out
    assert "turn 2 in a row: You could not move" in out
    # A board is drawn after the second computer turn, not only at the end.
    after = out.split("turn 2 in a row")[1]
    assert "Position ID" in after.split("Computer rolls")[0]


def test_moves_on_doubles_fit_80_by_24_a_page_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    # 1-1 has many plays: columns within 80, a page at a time (5 lines here, 20 for real).
    monkeypatch.setattr(TerminalGame, "PAGE_LINES", 5)
    _, out = play_lines(["8/5 6/5", "", "moves", "", "q", "quit", "y"],
                        dice=scripted((3, 1), (6, 5), (1, 1)), width=80)
    listing = out.split("Legal plays (")[1]
    first_page = listing.split("more: Enter")[0].splitlines()[1:-1]
    assert len(first_page) == 5
    assert listing.count("more: Enter") == 2  # two pages shown, then q stops the listing
    assert all(len(line) <= 79 for line in out.splitlines() if "Position ID" not in line)


def test_hint_lines_fit_80_columns() -> None:
    from gammon.cli.terminal.commands import hint_lines

    class R:
        play = "bar/22 22/21 13/12(2) 8/7 6/5 24/23 24/23"
        equity, difference, probabilities = -0.123, -0.456, (0.5, 0.15, 0.01, 0.12, 0.01)

    for line in hint_lines([R(), R()]):
        assert len(line) <= 79


def test_refusals_give_the_reason_on_the_bar_and_before_bearing_off() -> None:
    from gammon.cli.terminal.commands import why_not

    assert "on the bar must enter" in (why_not(ON_THE_BAR, "13/7 13/8") or "")
    assert why_not(ON_THE_BAR, "bar/20 6/1") is None
    away = make({6: 5, 8: 3, 13: 5, 24: 2}, {6: 5, 8: 3, 13: 5, 24: 2})
    assert "all checkers are in your home board" in (why_not(away, "6/off 6/2") or "")
    home = make({6: 5, 5: 5, 4: 5}, {6: 5, 8: 3, 13: 5, 24: 2})
    assert why_not(home, "6/off 6/2") is None


def test_the_board_never_says_score_8_of_3() -> None:
    from gammon.cli.board import board_text

    text = board_text(START, score=(8, 0), match_length=3)
    assert "8 of 3" not in text and "won the match" in text
    assert "score 1 of 3" in board_text(START, score=(1, 0), match_length=3)


def test_refusal_reasons_follow_the_variant_rules() -> None:
    """The reasons come from core's single-step rule, so they follow the variant: in Acey-Deucey
    "checkers still in the pool may wait while others move" (no bar-first reason for them),
    while a hit checker on the bar must enter first."""
    from gammon.cli.terminal.commands import why_not

    me = [0] * 25
    me[12], me[24] = 1, 14
    opp = [0] * 25
    opp[24] = 15
    waiting = Position(me, opp, "acey-deucey", pool=(14, 15))
    assert why_not(waiting, "13/7") is None
    hit = Position(me, opp, "acey-deucey", pool=(13, 15))  # one of the 14 was hit
    assert "on the bar must enter" in (why_not(hit, "13/7") or "")


def test_a_terminal_shows_the_computer_thinking_and_a_pipe_does_not() -> None:
    # The computer (the heuristic bot here) starts with 3-1: on a terminal a spinner says it is
    # deciding (the strongest level's plays and rolled-out cube calls take seconds).
    out = io.StringIO()
    console = Console(file=out, width=200, force_terminal=True)
    feed = iter(["quit", "y"])
    game = TerminalGame(PlaySettings(seed=1, level="heuristic"), input_fn=lambda _p: next(feed),
                        console=console, dice=scripted((1, 3), (6, 5)), pace=0)
    game.run()
    assert "Computer is thinking..." in out.getvalue()
    _code, piped = play_lines(["quit", "y"], dice=scripted((1, 3), (6, 5)))
    assert "Computer starts with 3-1." in piped and "thinking" not in piped


def test_a_terminal_shows_the_hint_engine_weighing_the_cube(monkeypatch: pytest.MonkeyPatch) -> None:
    # The strongest level rolls out a close cube call (seconds): the advice is waited for behind a
    # spinner on a terminal, and the advice itself follows.
    monkeypatch.setattr(HeuristicPlayer, "cube_action", lambda self, game: "double")
    out = io.StringIO()
    feed = iter(["8/5 6/5", "hint", "take", "quit", "y"])
    game = TerminalGame(PlaySettings(seed=1, level="heuristic"), input_fn=lambda _p: next(feed),
                        console=Console(file=out, width=200, force_terminal=True),
                        dice=scripted((3, 1), (6, 5)), pace=0)
    game.run()
    shown = out.getvalue()
    assert "The engine is weighing the cube..." in shown
    assert shown.index("The engine is weighing the cube...") < shown.index("Advice: take")
    _code, piped = play_lines(["8/5 6/5", "hint", "take"], dice=scripted((3, 1), (6, 5)))
    assert "Advice: take" in piped and "weighing" not in piped
