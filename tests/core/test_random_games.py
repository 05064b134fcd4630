"""Thousands of complete random games and matches in every variant, checked at every step.

Games are played by :class:`RandomPlayer` (which doubles, beavers, resigns and
answers at random) and :class:`HeuristicPlayer` through the session's decision
step :func:`next_action`, and after every action the state is checked:

* the position is one that can exist (no point holds both colours, no side
  has too many checkers), and checkers borne off never come back;
* each play's checker moves, applied by hand to the position before it, give
  the play's position, and each move uses one of the dice;
* the cube is a power of two within its limit, centred or owned, and unused
  in the Crawford game and in variants without a cube;
* a finished game's points are its kind (or checkers left) times the cube;
* the match score is the sum of the games' points, and replaying the record
  gives the same games, positions, results and score.

Everything is seeded, so a failure names a reproducible game.
"""

from __future__ import annotations

import random

import pytest

from gammon import Position, ResultKind
from gammon.core.dice import RandomDice
from gammon.core.game import CENTERED, Game, Move, Phase, Rules
from gammon.core.match import Match
from gammon.core.plays import Play
from gammon.core.variants import VARIANTS
from gammon.play.players import HeuristicPlayer, Player, RandomPlayer
from gammon.play.session import next_action, play_match

#: Games per variant: fewer where games are long (Dutch and Acey-Deucey start on the bar).
GAMES = {
    "standard": 300,
    "nackgammon": 200,
    "hypergammon": 300,
    "hypergammon2": 300,
    "hypergammon1": 300,
    "dutch": 100,
    "acey-deucey": 60,
}


def test_every_variant_is_covered() -> None:
    assert set(GAMES) == set(VARIANTS)


# -- independent checks ------------------------------------------------------------


def apply_moves(position: Position, play: Play) -> tuple[list[int], list[int]]:
    """The rows after the play's checker moves, applied by hand (not by the move generator)."""
    me, opp = list(position.me), list(position.opp)
    for m in play.moves:
        src = 24 if m.from_point == 25 else m.from_point - 1
        assert me[src] > 0, f"{m} moves a checker that is not there"
        me[src] -= 1
        if m.to_point > 0:
            t = m.to_point - 1
            if m.hit:
                assert opp[23 - t] == 1, f"{m} hits, but there is no blot"
                opp[23 - t] = 0
                opp[24] += 1
            else:
                assert opp[23 - t] == 0, f"{m} lands on an opponent checker without hitting"
            me[t] += 1
    return me, opp


def check_dice_used(play: Play, dice: tuple[int, int]) -> None:
    d1, d2 = dice
    assert len(play.moves) <= (4 if d1 == d2 else 2)
    available = [d1] * 4 if d1 == d2 else [d1, d2]
    for m in play.moves:
        distance = m.from_point - m.to_point
        if distance in available:
            available.remove(distance)
        else:
            # Bearing off with a higher number than the point.
            assert m.to_point == 0, f"{m} uses no die of {dice}"
            bigger = [d for d in available if d > distance]
            assert bigger, f"{m} uses no die of {dice}"
            available.remove(min(bigger))


class StepChecker:
    """Checks a game after each action against what it was before."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.variant = game.rules.variant
        self.off = [0, 0]
        self.before()

    def before(self) -> None:
        g = self.game
        self.position = g.position
        self.phase = g.phase
        self.rolled = g.rolled
        self.turn = g.turn

    def after(self) -> None:
        g = self.game
        rules = g.rules
        last = g.record[-1]
        if isinstance(last, Move):
            assert self.phase is Phase.MOVE and self.rolled is not None
            assert isinstance(last.play, Play)
            me, opp = apply_moves(self.position, last.play)
            assert (list(last.play.position.me), list(last.play.position.opp)) == (me, opp)
            check_dice_used(last.play, self.rolled)
            assert last.play in self.position.legal_plays(self.rolled)
        p = g.position
        me, opp = p.me, p.opp
        assert sum(me) <= self.variant.checkers and sum(opp) <= self.variant.checkers
        assert not any(me[i] and opp[23 - i] for i in range(24)), "a point holds both colours"
        assert p.variant is self.variant
        for player, off in ((g.turn, p.checkers_off[0]), (1 - g.turn, p.checkers_off[1])):
            assert off >= self.off[player], "a borne-off checker came back"
            self.off[player] = off
        assert g.cube_value & (g.cube_value - 1) == 0 and g.cube_value <= rules.cube_limit
        assert g.cube_owner in (CENTERED, 0, 1)
        if not rules.uses_cube or g.crawford_game:
            assert (g.cube_value, g.cube_owner) == (1, CENTERED)
        if g.phase is Phase.DOUBLED:
            assert g.doubled_by == g.turn and g.player_to_act == 1 - g.turn
        if g.phase is Phase.MOVE:
            assert g.rolled is not None and len(p.legal_plays(g.rolled)) > 0
        if g.is_over:
            self.check_result()
        else:
            assert g.result is None and not p.is_game_over
        self.before()

    def check_result(self) -> None:
        g = self.game
        res = g.result
        assert res is not None and res.winner in (0, 1) and res.points > 0
        assert res.cube == g.cube_value
        winner_view = g.position if g.turn == res.winner else g.position.swap()
        if not (res.resigned or res.dropped):
            assert not any(winner_view.me), "the winner has checkers left"
            outcome = winner_view.outcome
            assert outcome is not None and outcome.winner_is_me and outcome.kind is res.kind
        left = sum(winner_view.opp)
        assert res.checkers_left == left
        if g.rules.variant.pays_per_checker:
            assert res.points == max(1, left) * res.cube
        elif res.dropped:
            assert res.points == res.cube
        else:
            multiple = int(res.kind)
            if not g.rules.gammons or (g.rules.is_money and g.rules.jacoby and g.cube_owner == CENTERED):
                multiple = 1
            assert res.points == multiple * res.cube


# -- driving games -------------------------------------------------------------------


def make_players(rng: random.Random) -> tuple[Player, Player]:
    def one() -> Player:
        if rng.random() < 0.5:
            return RandomPlayer(rng.randrange(1 << 30), double_rate=0.15, resign_rate=0.01)
        return HeuristicPlayer(rng.randrange(1 << 30))

    return one(), one()


def random_rules(variant: str, rng: random.Random) -> tuple[Rules, int | None]:
    """Money sessions with every custom, or matches of several lengths."""
    if rng.random() < 0.5:
        rules = Rules(
            variant=variant, beavers=rng.random() < 0.7, jacoby=rng.random() < 0.5,
            automatic_doubles=rng.choice([0, 1, 2]), cube_limit=rng.choice([8, 64]),
            gammons=rng.random() < 0.8,
        )
        return rules, rng.randint(3, 12)
    return Rules(variant=variant, match_length=rng.choice([1, 3, 5, 7])), None


def run_checked(rules: Rules, players: tuple[Player, Player], seed: int,
                games_limit: int | None) -> Match:
    """A whole match through ``next_action``, checked after every action."""
    match = Match(rules, RandomDice(seed), games_limit=games_limit)
    while True:
        game = match.game
        checker = StepChecker(game)
        while not game.is_over:
            events = match.apply(next_action(game, players))
            assert events, "every action reports what happened"
            checker.after()
        assert events[-1].kind in ("score", "match-over")
        if match.is_over or (games_limit is not None and len(match.games) >= games_limit):
            return match
        match.next_game()


def check_match(match: Match, rules: Rules, games_limit: int | None) -> None:
    score = [0, 0]
    crawford_games = 0
    for game in match.games:
        assert game.result is not None
        # The Crawford game is the first game after a player reached length - 1.
        expected_crawford = (
            rules.match_length > 0 and crawford_games == 0 and game is not match.games[0]
            and rules.match_length - 1 in score
        )
        assert game.crawford_game == expected_crawford
        score[game.result.winner] += game.result.points
        crawford_games += game.crawford_game
        if rules.match_length:
            # Each game starts from the score before it.
            assert list(game.score) == [s - (game.result.points if i == game.result.winner else 0)
                                        for i, s in enumerate(score)]
    assert match.score == score
    if rules.match_length:
        assert match.is_over and max(score) >= rules.match_length
        assert sorted(score)[0] < rules.match_length
        assert crawford_games <= 1
        assert match.winner == (0 if score[0] > score[1] else 1)
    else:
        assert len(match.games) == games_limit and crawford_games == 0
    replayed = Match.replay(rules, match.record, games_limit=games_limit)
    assert replayed.score == match.score and replayed.is_over
    for a, b in zip(replayed.games, match.games, strict=True):
        assert a.position == b.position and a.result == b.result
        assert a.crawford_game == b.crawford_game
        alone = Game.replay(rules, b.record, crawford_game=b.crawford_game, score=b.score)
        assert alone.position == b.position and alone.result == b.result


@pytest.mark.parametrize("variant", list(GAMES))
def test_random_games_keep_every_invariant(variant: str) -> None:
    rng = random.Random(f"random games {variant}")
    games = 0
    seen: set[str] = set()
    while games < GAMES[variant]:
        seed = rng.randrange(1 << 30)
        rules, limit = random_rules(variant, rng)
        players = make_players(rng)
        match = run_checked(rules, players, seed, limit)
        check_match(match, rules, limit)
        games += len(match.games)
        for g in match.games:
            assert g.result is not None
            seen.add("resigned" if g.result.resigned else "dropped" if g.result.dropped
                     else g.result.kind.name)
            seen.update(type(a).__name__ for a in g.record)
    # The random players reach every kind of ending and every action.
    assert {"resigned", "Roll", "Move", "Resign", "AcceptResignation"} <= seen
    if VARIANTS[variant].checkers >= 2:
        assert ResultKind.SINGLE.name in seen
    if VARIANTS[variant].cube:
        assert {"dropped", "Double", "Take", "Drop", "Beaver", "RejectResignation"} <= seen
    if VARIANTS[variant].acey_deucey_bonus:
        assert "ChooseDouble" in seen
    if VARIANTS[variant].checkers >= 3:
        assert ResultKind.GAMMON.name in seen


@pytest.mark.parametrize("variant", ["standard", "acey-deucey"])
def test_play_match_plays_the_same_games_as_the_checked_loop(variant: str) -> None:
    for seed in range(3):
        settings = ((Rules(variant=variant, beavers=True), 4), (Rules(variant=variant, match_length=3), None))
        for rules, limit in settings:
            a = run_checked(rules, (RandomPlayer(seed), HeuristicPlayer(seed)), seed, limit)
            b = play_match(rules, (RandomPlayer(seed), HeuristicPlayer(seed)), RandomDice(seed), limit)
            assert a.record == b.record and a.score == b.score
