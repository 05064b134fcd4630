"""Self-play: the computer at one level against itself, for ``gammon selfplay``.

:func:`run_selfplay` returns a :class:`~gammon.core.match.Match` that a
``.mat`` writer can save.  Both seats play at ``level``, a name of the one
level registry (:data:`gammon.play.levels.LEVELS`, as ``gammon play``); the
library's default is ``heuristic``, the fast engine-free bot, and the command
line's is the neural ``expert`` (its ``--level``).  Everything follows from
``seed``: the dice (:class:`~gammon.core.dice.RandomDice`) and each seat's
noise or tie-breaking, so the same arguments always give the same games.

Money play (``match_length`` 0) is a session of ``games`` games.  Match play
(``match_length`` > 0) is one match to that length, however many games it
takes: a ``.mat`` file holds one match, so ``games`` is then not used (it must
still be at least 1).
"""

from __future__ import annotations

from collections.abc import Callable

from gammon.core.dice import DiceSource, RandomDice
from gammon.core.errors import GammonError
from gammon.core.events import Event, EventKind
from gammon.core.game import Rules
from gammon.core.match import Match
from gammon.core.variants import find_variant
from gammon.play.levels import EnginePool, find_level, make_computer_player
from gammon.play.session import Session

#: ``progress(games_done, games_total)``; the total is None in match play.
Progress = Callable[[int, int | None], None]


def run_selfplay(
    games: int,
    seed: int,
    match_length: int = 0,
    variant: str = "standard",
    progress: Progress | None = None,
    dice: DiceSource | None = None,
    *,
    jacoby: bool = False,
    level: str = "heuristic",
) -> Match:
    """Play the computer at ``level`` against itself and return the match (or money session).

    :param games: money play: how many games (at least 1); match play: unused.
    :param seed: the seed of the dice and of both bots (a whole number, 0 or more).
    :param match_length: 0 for money play, else the match length (1..99).
    :param variant: a name from :data:`gammon.core.variants.VARIANTS` or an alias.
    :param progress: called after each game with (games done, total or None).
    :param dice: the dice source (default: ``RandomDice(seed)``); the match keeps it
        as ``match.dice``, so a caller can reveal crypto dice afterwards.
    :param jacoby: money play: gammons count only once the cube is turned.
    :param level: both seats' level (:data:`gammon.play.levels.LEVELS`); neural
        levels share one engine.
    :raises GammonError: bad arguments (games below 1, unknown variant or level, bad length or seed).
    """
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise GammonError(f"the number of games must be a whole number, at least 1, not {games!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise GammonError(f"the seed must be a whole number, 0 or more, not {seed!r}")
    rules = Rules(variant=find_variant(variant), match_length=match_length,
                  jacoby=jacoby and not match_length)
    key = find_level(level)
    dice = dice if dice is not None else RandomDice(seed)
    pool = None if key == "heuristic" else EnginePool()
    players = (make_computer_player(key, 2 * seed + 1, pool), make_computer_player(key, 2 * seed + 2, pool))
    total = games if rules.is_money else None
    done = 0

    def on_event(event: Event) -> None:
        nonlocal done
        if event.kind is EventKind.SCORE and progress is not None:
            done += 1
            progress(done, total)

    match = Match(rules, dice, games_limit=total)
    Session(match, players, on_event=on_event).advance()
    return match


__all__ = ["Progress", "run_selfplay"]
