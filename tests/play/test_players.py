"""The bots, the session that runs them, and self-play."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from boards import pos
from gammon import GammonError, Position, ResultKind
from gammon.ai.heuristic import play_score, score_positions, shots
from gammon.core.cube import CubeAction
from gammon.core.dice import RandomDice
from gammon.core.game import Event, Game, Phase, Resign, Roll, Rules
from gammon.play import (
    HeuristicPlayer,
    Player,
    RandomPlayer,
    next_action,
    play_game,
    play_match,
    run_selfplay,
)
from gammon.play.players import win_probability


class ListDice:
    """Rolls from a list, then seeded random ones."""

    def __init__(self, rolls: Sequence[tuple[int, int]], seed: int = 0) -> None:
        self.rolls = list(rolls)
        self.rng = random.Random(seed)

    def roll(self) -> tuple[int, int]:
        if self.rolls:
            return self.rolls.pop(0)
        return self.rng.randint(1, 6), self.rng.randint(1, 6)


def on_roll(position: Position, rules: Rules | None = None, *, score: tuple[int, int] = (0, 0),
            crawford: bool = False, seed: int = 0) -> Game:
    """A game where player 0 is on roll in ``position``, before rolling.

    The state is set directly: these tests are about the players' decisions.
    """
    game = Game(rules, RandomDice(seed), position=position, score=score, crawford_game=crawford)
    game.phase = Phase.ROLL
    return game


# -- the heuristic bot ----------------------------------------------------------------


def test_heuristic_beats_random() -> None:
    wins = 0
    for seat in (0, 1):
        players: list[Player] = [RandomPlayer(seat), RandomPlayer(seat)]
        players[seat] = HeuristicPlayer(seat)
        match = play_match(Rules(cube=False), players, RandomDice(seat), games_limit=50)
        wins += sum(g.result is not None and g.result.winner == seat for g in match.games)
    assert wins >= 90, f"the heuristic won only {wins} of 100 games against random play"


@pytest.mark.parametrize(
    ("dice", "play"),
    [((3, 1), "8/5 6/5"), ((4, 2), "8/4 6/4"), ((6, 1), "13/7 8/7"), ((5, 3), "8/3 6/3")],
)
def test_heuristic_makes_points_with_the_classic_opening_rolls(dice: tuple[int, int], play: str) -> None:
    plays = Position.initial().legal_plays(dice)
    assert str(HeuristicPlayer(0).choose_play(Game(), plays)) == play


def test_heuristic_hits_a_blot_it_can_hit_safely() -> None:
    position = pos("x: 6:5 8:3 13:5 24:2; o: 6:5 8:3 13:4 24:2 22:1")  # a blot on our 3 point
    plays = position.legal_plays((5, 3))
    choice = HeuristicPlayer(0).choose_play(Game(), plays)
    assert choice.hits == 1 and str(choice) == "8/3* 6/3"


def test_heuristic_prefers_bearing_off_in_a_race() -> None:
    position = pos("x: 6:3 5:3 4:3 3:2 2:2 1:2; o: 6:5 5:5 4:5")
    plays = position.legal_plays((6, 5))
    assert str(HeuristicPlayer(0).choose_play(Game(), plays)) == "6/off 5/off"


def test_players_always_pick_one_of_the_legal_plays() -> None:
    rng = random.Random(7)
    bots: list[Player] = [HeuristicPlayer(1), RandomPlayer(2)]
    for variant in ("standard", "hypergammon", "dutch"):
        position = Position.initial(variant)
        game = Game(Rules(variant=variant))
        for _ in range(60):
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            plays = position.legal_plays(dice)
            if not plays:
                position = position.swap()
                continue
            listed = list(plays)
            for bot in bots:
                lazy_choice = bot.choose_play(game, plays)
                assert any(lazy_choice is p for p in plays)
                list_choice = bot.choose_play(game, listed)
                assert any(list_choice is p for p in listed)
            position = plays[rng.randrange(len(plays))].position
            if position.is_game_over:
                break
            position = position.swap()


def test_score_positions_matches_play_score_and_counts_shots() -> None:
    plays = Position.initial().legal_plays((6, 4))
    positions = plays.positions()
    scores = score_positions(positions)
    assert [round(float(s), 9) for s in scores] == [round(play_score(p), 9) for p in positions]
    assert shots(1 << 1) == 11  # a 1: 11 rolls
    assert shots(1 << 2) == 12  # a 2 or 1-1
    assert shots(1 << 6) == 17  # a 6, 5-1, 4-2, 3-3, 2-2
    assert shots(1 << 11) == 2  # 6-5 only (blocking ignored)


# -- cube decisions --------------------------------------------------------------------

RACE_EVEN = pos("x: 6:4 5:4 4:4 3:3; o: 6:4 5:4 4:4 3:3")  # 69 pips each
RACE_10 = pos("x: 6:4 5:4 4:4 3:3; o: 6:6 5:5 4:3 3:1")  # 69 against 76
RACE_FAR = pos("x: 6:4 5:4 4:4 3:3; o: 8:5 7:5 6:5")  # 69 against 105


def test_race_pip_counts_used_by_the_cube_tests() -> None:
    assert RACE_EVEN.pip_counts == (69, 69)
    assert RACE_10.pip_counts == (69, 76)
    assert RACE_FAR.pip_counts == (69, 105)
    assert win_probability(RACE_EVEN) < 0.7 < win_probability(RACE_10) < 0.76 < win_probability(RACE_FAR)


@pytest.mark.parametrize(
    ("position", "action", "answer"),
    [(RACE_EVEN, CubeAction.NO_DOUBLE, CubeAction.TAKE), (RACE_10, CubeAction.DOUBLE, CubeAction.TAKE),
     (RACE_FAR, CubeAction.DOUBLE, CubeAction.DROP)],
)
def test_money_cube_decisions_follow_the_race_lead(position: Position, action: CubeAction,
                                                     answer: CubeAction) -> None:
    game = on_roll(position)
    bot = HeuristicPlayer(0)
    assert bot.cube_action(game) is action
    game.double()
    assert bot.answer_double(game) is answer


def test_heuristic_beavers_a_hopeless_double() -> None:
    game = on_roll(RACE_FAR.swap(), Rules(beavers=True))
    game.double()
    assert HeuristicPlayer(0).answer_double(game) is CubeAction.BEAVER
    game = on_roll(RACE_FAR.swap(), Rules())
    game.double()
    assert HeuristicPlayer(0).answer_double(game) is CubeAction.TAKE


def test_match_cube_decisions() -> None:
    bot = HeuristicPlayer(0)
    rules = Rules(match_length=5)
    # Post-Crawford, the trailer doubles at once and the leader takes.
    game = on_roll(RACE_EVEN, rules, score=(2, 4))
    assert bot.cube_action(game) is CubeAction.DOUBLE
    game.double()
    assert bot.answer_double(game) is CubeAction.TAKE
    # A dead cube: one more win takes the match anyway.
    assert bot.cube_action(on_roll(RACE_10, rules, score=(4, 2))) is CubeAction.NO_DOUBLE


def test_heuristic_answers_resignations_by_what_it_would_win() -> None:
    bot = HeuristicPlayer(0)
    # Player 0 resigns; player 1 answers.  The resigner has borne a checker off.
    game = on_roll(pos("x: 6:3 5:3; o: 1:1"))
    game.apply(Resign(0, ResultKind.SINGLE))
    assert bot.answer_resignation(game, ResultKind.SINGLE)
    # All the resigner's checkers far from home against a nearly finished opponent:
    # a single is not enough, a gammon is.
    game = on_roll(pos("x: 13:15; o: 2:1 1:1"))
    game.apply(Resign(0, ResultKind.SINGLE))
    assert not bot.answer_resignation(game, ResultKind.SINGLE)
    assert bot.answer_resignation(game, ResultKind.GAMMON)
    assert bot.answer_resignation(game, ResultKind.BACKGAMMON)
    # With Jacoby and a centred cube a gammon would count single anyway.
    game = on_roll(pos("x: 13:15; o: 2:1 1:1"), Rules(jacoby=True))
    game.apply(Resign(0, ResultKind.SINGLE))
    assert bot.answer_resignation(game, ResultKind.SINGLE)


def test_heuristic_resigns_a_sure_loss_and_the_session_ends_the_game() -> None:
    lost = pos("x: 6:3 5:3; o: 1:1")
    assert HeuristicPlayer(0).resign(on_roll(lost)) is ResultKind.SINGLE
    assert HeuristicPlayer(0).resign(on_roll(pos("x: 6:3; o: 1:1"))) is None  # 6-6 still wins
    assert HeuristicPlayer(0).resign(on_roll(RACE_EVEN)) is None
    game = on_roll(lost)
    events: list[Event] = []
    result = play_game(game, (HeuristicPlayer(1), HeuristicPlayer(2)), events.append)
    assert [e.kind for e in events] == ["resigned", "resignation-accepted", "game-over"]
    assert (result.winner, result.points, result.resigned) == (1, 1, True)


def test_session_offers_the_resignation_once_per_roll() -> None:
    class Stubborn(HeuristicPlayer):
        def answer_resignation(self, game: Game, kind: ResultKind) -> bool:
            return False

    game = on_roll(pos("x: 6:3 5:3; o: 1:1"))
    players = (HeuristicPlayer(0), Stubborn(1))
    assert isinstance(next_action(game, players), Resign)
    game.apply(next_action(game, players))
    game.apply(next_action(game, players))  # rejected
    assert game.phase is Phase.ROLL
    assert isinstance(next_action(game, players), Roll)  # not asked again before this roll
    result = play_game(game, players)
    assert result.winner == 1 and not result.resigned


def test_heuristic_names_a_useful_acey_deucey_double() -> None:
    game = Game(Rules(variant="acey-deucey", opening="use-opening-dice"))
    game.apply(Roll(0, (2, 1)))
    game.play(game.legal_plays()[0])
    assert game.phase is Phase.CHOOSE_DOUBLE
    number = HeuristicPlayer(0).choose_double_number(game)
    # "useful": the double whose best play scores highest (by the heuristic's own scoring)
    def best(n: int) -> float:
        plays = game.position.legal_plays((n, n))
        return float(score_positions(plays.positions()).max()) if len(plays) else play_score(game.position)
    scores = {n: best(n) for n in range(1, 7)}
    assert scores[number] == max(scores.values()), scores
    assert len(set(scores.values())) > 1  # the choice matters in this position
    game.choose_double(number)
    assert game.rolled == (number, number)


# -- the session ----------------------------------------------------------------------


def test_session_handles_passes() -> None:
    # Player 1 has a checker on the bar against player 0's closed board.
    closed = pos("x: 1:2 2:2 3:2 4:2 5:2 6:2 13:3; o: bar:1 13:14")
    game = Game(dice=ListDice([(6, 5), (4, 3), (2, 1), (1, 1)], seed=3), position=closed)
    events: list[Event] = []
    result = play_game(game, (HeuristicPlayer(0), HeuristicPlayer(1)), events.append)
    kinds = [e.kind for e in events]
    assert kinds[:5] == ["opening", "rolled", "played", "turn", "rolled"]
    assert kinds[5] == "no-move" and events[5].player == 1  # 4-3 does not enter: a pass
    assert kinds.count("no-move") >= 2  # 1-1 does not enter either
    assert result is game.result and game.is_over


def test_session_events_for_a_match() -> None:
    events: list[Event] = []
    match = play_match(Rules(match_length=3), (HeuristicPlayer(1), RandomPlayer(2)), RandomDice(5),
                       on_event=events.append)
    kinds = [e.kind for e in events]
    assert kinds[0] == "game-start" and kinds[-1] == "match-over"
    assert kinds.count("game-start") == kinds.count("score") == len(match.games)
    assert {"opening", "rolled", "played", "turn", "game-over"} <= set(kinds)
    assert match.is_over and max(match.score) >= 3


def test_session_is_reproducible() -> None:
    def run() -> list[list[object]]:
        match = play_match(Rules(beavers=True), (HeuristicPlayer(3), RandomPlayer(4)), RandomDice(9),
                           games_limit=5)
        return match.record  # type: ignore[return-value]

    assert run() == run()


def test_session_refuses_bad_settings_and_bad_answers() -> None:
    bots = (RandomPlayer(1), RandomPlayer(2))
    with pytest.raises(GammonError, match="a money session needs a number of games"):
        play_match(Rules(), bots, RandomDice(1))
    with pytest.raises(GammonError, match="games_limit must be at least 1"):
        play_match(Rules(), bots, RandomDice(1), games_limit=0)
    with pytest.raises(GammonError, match="a session needs two players, not 1"):
        play_match(Rules(match_length=1), bots[:1], RandomDice(1))

    class Confused(RandomPlayer):
        def cube_action(self, game: Game) -> str:  # type: ignore[override]
            return "maybe"

    game = on_roll(RACE_EVEN)
    with pytest.raises(GammonError, match="a cube action is 'double' or 'no-double', not 'maybe'"):
        next_action(game, (Confused(0), RandomPlayer(1)))


def test_bots_satisfy_the_player_protocol() -> None:
    assert isinstance(HeuristicPlayer(), Player)
    assert isinstance(RandomPlayer(), Player)


# -- self-play --------------------------------------------------------------------------


def test_selfplay_money_session() -> None:
    seen: list[tuple[int, int | None]] = []
    match = run_selfplay(4, seed=11, progress=lambda done, total: seen.append((done, total)))
    assert len(match.games) == 4 and match.is_over
    assert seen == [(1, 4), (2, 4), (3, 4), (4, 4)]
    assert sum(match.score) == sum(g.result.points for g in match.games if g.result)
    again = run_selfplay(4, seed=11)
    assert again.record == match.record and again.score == match.score


def test_selfplay_match_and_variant() -> None:
    match = run_selfplay(1, seed=2, match_length=3, variant="nackgammon")
    assert match.is_over and max(match.score) >= 3
    assert match.rules.variant.name == "nackgammon"
    hyper = run_selfplay(3, seed=2, variant="hyper")
    assert len(hyper.games) == 3


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"games": 0, "seed": 1}, "the number of games must be a whole number, at least 1"),
        ({"games": 1, "seed": -1}, "the seed must be a whole number, 0 or more"),
        ({"games": 1, "seed": 1, "variant": "chess"}, "unknown variant 'chess'"),
        ({"games": 1, "seed": 1, "match_length": 100}, "match length must be 0"),
    ],
)
def test_selfplay_refuses_bad_arguments(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(GammonError, match=message):
        run_selfplay(**kwargs)  # type: ignore[arg-type]
