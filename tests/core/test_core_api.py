"""The library API of gammon.core: steps, allowed actions, games at any state, IDs, repr.

python-chess is the model: a position can be pushed one checker step at a
time, a game says which actions it accepts, and a game or match can be built
at any state and printed back as a call that builds it again.
"""

from __future__ import annotations

import random

import pytest

from boards import pos
from gammon import (
    CENTERED,
    GammonError,
    IllegalActionError,
    IllegalPlayError,
    InvalidIdError,
    Position,
    Reason,
    ResultKind,
)
from gammon.core.actions import (
    AcceptResignation,
    Action,
    Beaver,
    ChooseDouble,
    Double,
    Drop,
    Move,
    NewGame,
    RejectResignation,
    Resign,
    Roll,
    Take,
)
from gammon.core.dice import RandomDice
from gammon.core.game import Game, Phase
from gammon.core.match import Match
from gammon.core.plays import CheckerMove
from gammon.core.rules import Rules
from gammon.core.xgid import parse_xgid

# -- steps: the push of gammon --------------------------------------------------------


def test_apply_steps_moves_and_hits() -> None:
    p = pos("x: 8:2 6:2; o: 20:1")  # an o blot on x's 5 point (o's 20)
    q = p.apply_steps([(8, 5)])
    assert q.me[4] == 1 and q.opp[24] == 1 and q.opp[19] == 0  # the blot went to the bar


@pytest.mark.parametrize(
    ("spec", "step", "why"),
    [
        ("x: bar:1 13:2; o: 6:2", (13, 10), "must enter"),  # "the bar first"
        ("x: 13:2; o: 13:2", (13, 12), "held by the opponent"),  # "land only on an open point"
        ("x: 8:1 6:1; o: 6:2", (6, 0), "every checker in the home board"),  # "bear off only when all home"
        ("x: 6:1; o: 6:2", (5, 0), "no checker of the player on roll"),
    ],
)
def test_apply_steps_refuses_what_the_rules_forbid(spec: str, step: tuple[int, int], why: str) -> None:
    with pytest.raises(IllegalPlayError, match=why):
        pos(spec).apply_steps([step])


def test_dutch_no_hitting_before_a_checker_reached_home() -> None:
    # "No hitting until one of your checkers has reached your home board."
    p = pos("x: 24:14 8:1; o: bar:14 20:1", "dutch")
    with pytest.raises(IllegalPlayError, match="no hitting"):
        p.apply_steps([(8, 5)])


def test_a_checker_move_must_say_its_hit() -> None:
    p = pos("x: 8:2; o: 20:1")
    with pytest.raises(IllegalPlayError, match="has a blot"):
        p.apply_steps([CheckerMove(8, 5, hit=False)])
    assert p.apply_steps([CheckerMove(8, 5, hit=True)]).bar == (0, 1)


@pytest.mark.parametrize("variant", ["standard", "dutch", "acey-deucey", "hypergammon"])
def test_every_legal_play_is_its_steps(variant: str) -> None:
    # The move generator and the single-step rules agree on every play of random games.
    rng = random.Random(variant)
    p = Position.initial(variant)
    for _ in range(120):
        if p.is_game_over:
            break
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        plays = p.legal_plays(dice)
        for play in plays:
            assert p.apply_steps(play.moves) == play.position
            assert p.after(play) == play.position
        if plays:
            p = plays[rng.randrange(len(plays))].position
        p = p.swap()


def test_after_takes_notation_and_checks_the_roll() -> None:
    start = Position.initial()
    assert start.after("8/5 6/5", (3, 1)) == start.apply_steps([(8, 5), (6, 5)])
    play = start.legal_plays((3, 1))[0]
    with pytest.raises(IllegalPlayError):
        start.after(play, (6, 5))


# -- allowed actions: exactly what apply accepts ----------------------------------------


def _candidates(game: Game) -> list[Action]:
    out: list[Action] = []
    for p in (0, 1):
        out += [Roll(p, (3, 1)), Roll(p, (1, 2)), Double(p), Take(p), Drop(p), Beaver(p),
                AcceptResignation(p), RejectResignation(p), ChooseDouble(p, 4)]
        out += [Resign(p, k) for k in ResultKind]
        if game.phase is Phase.MOVE and game.rolled is not None:
            out += [Move(p, pl) for pl in game.position.legal_plays(game.rolled)]
    return out


def _same_kind(a: Action, allowed: list[Action]) -> bool:
    if isinstance(a, Roll):
        return any(isinstance(b, Roll) and b.player == a.player for b in allowed)
    return a in allowed


@pytest.mark.parametrize("seed", range(6))
def test_allowed_actions_are_exactly_the_accepted_ones(seed: int) -> None:
    rules = [Rules(beavers=True, jacoby=True), Rules(match_length=5), Rules(variant="acey-deucey"),
             Rules(beavers=True, cube_limit=4), Rules(variant="dutch"), Rules(automatic_doubles=2)][seed]
    rng = random.Random(seed)
    game = Game(rules, RandomDice(seed))
    for _ in range(400):
        if game.is_over:
            break
        allowed = game.allowed_actions()
        for action in _candidates(game):
            before = game.snapshot()
            trial = Game.replay(rules, game.record, crawford_game=game.crawford_game)
            try:
                trial.apply(action)
                accepted = True
            except IllegalActionError:
                accepted = False
            assert game.snapshot() == before
            assert accepted == _same_kind(action, allowed), (action, game.phase, allowed)
        game.apply(rng.choice(allowed))


# -- building a game at any state, and repr ------------------------------------------------


def test_game_from_keywords_and_repr_round_trip() -> None:
    game = Game(Rules(match_length=7), crawford_game=False, score=(3, 5),
                position=pos("x: 13:2 6:5; o: 24:2 8:3"), turn=1, phase=Phase.MOVE, rolled=(6, 4),
                cube_value=2, cube_owner=1)
    again = eval(repr(game), {"Game": Game, "Rules": Rules, "Position": Position, "Phase": Phase,
                              "ResultKind": ResultKind})
    assert again.snapshot() == game.snapshot()
    assert game.player_to_act == 1 and len(game.legal_plays()) > 0


def test_repr_runs_again_along_a_game_and_a_match() -> None:
    env = {"Game": Game, "Match": Match, "Rules": Rules, "Position": Position, "Phase": Phase,
           "ResultKind": ResultKind}
    rng = random.Random(5)
    match = Match(Rules(match_length=3, beavers=False), RandomDice(11))
    while not match.is_over:
        action = rng.choice(match.allowed_actions())
        match.apply(action)
        if not match.game.is_over:
            g = eval(repr(match.game), env)
            snap = {k: v for k, v in g.snapshot().items() if k not in ("record", "plays")}
            assert snap == {k: v for k, v in match.game.snapshot().items() if k not in ("record", "plays")}
            m = eval(repr(match), env)
            assert m.score == match.score and m.crawford_played == match.crawford_played


@pytest.mark.parametrize(
    ("kwargs", "why"),
    [
        ({"phase": Phase.MOVE}, "move phase"),
        ({"phase": Phase.ROLL, "rolled": (3, 1)}, "move phase"),
        ({"cube_value": 3}, "power of two"),
        ({"crawford_game": True, "cube_value": 2}, "Crawford"),
        ({"phase": Phase.CHOOSE_DOUBLE}, "choose-double"),
        ({"phase": Phase.RESIGNED}, "resigned phase"),
        ({"turn": 2}, "turn"),
        ({"position": Position.initial("nackgammon")}, "Nackgammon"),
    ],
)
def test_impossible_game_states_are_refused(kwargs: dict[str, object], why: str) -> None:
    with pytest.raises(GammonError, match=why):
        Game(Rules(), **kwargs)  # type: ignore[arg-type]


def test_game_from_xgid() -> None:
    text = "XGID=-b----E-C---eE---c-e----B-:1:1:-1:52:2:4:0:7:10"
    game = Game.from_xgid(text)
    s = parse_xgid(text)
    assert game.turn == 1 and game.phase is Phase.MOVE and game.rolled == (5, 2)
    assert game.position == s.position
    assert (game.cube_value, game.cube_owner) == (2, 0)  # the bottom player (0) owns it
    assert game.score == (2, 4) and game.rules.match_length == 7
    assert Match.from_xgid(text).score == [2, 4]


def test_game_from_xgid_with_a_double_and_a_beaver() -> None:
    offered = Game.from_xgid("XGID=-b----E-C---eE---c-e----B-:1:0:1:D:0:0:2:0:10")
    assert offered.phase is Phase.DOUBLED and offered.player_to_act == 1
    offered.apply(Beaver(1))
    assert offered.phase is Phase.BEAVERED
    beavered = Game.from_xgid("XGID=-b----E-C---eE---c-e----B-:1:0:1:B:0:0:2:0:10")
    assert beavered.phase is Phase.BEAVERED and (beavered.cube_value, beavered.cube_owner) == (4, 1)
    with pytest.raises(InvalidIdError, match="raccoon"):
        Game.from_xgid("XGID=-b----E-C---eE---c-e----B-:1:0:1:R:0:0:2:0:10")


def test_post_crawford_from_an_xgid() -> None:
    match = Match.from_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:4:2:0:5:10")
    assert match.is_post_crawford and match.game.can_double()
    crawford = Match.from_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:4:2:1:5:10")
    assert crawford.game.crawford_game and not crawford.game.can_double()


def test_game_from_position_and_match_ids() -> None:
    game = Game.from_ids("4HPwATDgc/ABMA", "cAkAAAAAAAAA")
    assert game.phase is Phase.ROLL and game.position == Position.initial()
    assert game.cube_owner == CENTERED and game.rules.match_length == 0
    opening = Game.from_ids("4HPwATDgc/ABMA", "AQAAAAAAAAAA")
    assert opening.phase is Phase.OPENING


@pytest.mark.parametrize("length", [65, 100, 100000])
def test_match_lengths_are_bounded(length: int) -> None:
    # One to 64 points (0 is money): "an XGID with match length 100000 made eval use 23 GB".
    with pytest.raises(InvalidIdError, match="1 to 64"):
        parse_xgid(f"XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:{length}:10")
    with pytest.raises(GammonError, match="1 to 64"):
        Rules(match_length=length)
    from gammon.core.match_id import MatchId

    with pytest.raises(InvalidIdError, match="1 to 64"):
        MatchId(match_length=length)


def test_match_refusals_leave_everything_unchanged() -> None:
    match = Match(Rules(match_length=3))
    match.apply(Roll(0, (3, 1)))
    before = match.snapshot()
    for action in [Take(1), Roll(1, (2, 2)), NewGame(), Double(0), AcceptResignation(1), Move(0, "24/18")]:
        with pytest.raises(IllegalActionError) as info:
            match.apply(action)
        assert isinstance(info.value.reason, Reason)
        assert match.snapshot() == before
