"""A game's record put to use: the dice check, exports, hints and what the analysis after the game needs.

Functions of a :class:`~gammon.web.service.live.LiveGame`, called by the
service with the game's lock held (:func:`rank_hint` runs after it is
released: the engine's thinking holds up nobody's moves).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gammon.core.errors import GammonError, IllegalPlayError
from gammon.core.fair_dice import verify_rolls
from gammon.core.game import Phase
from gammon.core.position import Position
from gammon.core.steps import Step
from gammon.formats.record_files import FORMATS, render_record
from gammon.i18n import DEFAULT
from gammon.web.hints import DEFAULT_HINT_LEVEL, HintEngines, rank_for_hint
from gammon.web.schemas import HintPlay, HintResult, StepAnswer, StepQuery, VerifyResult
from gammon.web.service.analysis import Snapshot
from gammon.web.service.errors import ConflictError, ForbiddenError, InvalidError, NotFoundError
from gammon.web.service.live import TIMEOUT, LiveGame
from gammon.web.service.views import allowed_actions, checker_moves
from gammon.web.step_words import refusal_text

if TYPE_CHECKING:
    from gammon.ai.cube import CubeInfo


def verify_report(lg: LiveGame) -> VerifyResult:
    """The dice commitment and rolls; once the game is over, the seed and the check of every roll."""
    rolls = [list(r) for r in lg.rolls]
    if not lg.is_over:
        return VerifyResult(commitment=lg.commitment, draw=lg.draw, revealed=False, seed=None, rolls=rolls,
                            verified=None, first_bad_index=None,
                            message=f"{len(rolls)} rolls so far; the seed is revealed when the game ends")
    result = verify_rolls(lg.seed, lg.commitment, lg.rolls, lg.draw)
    return VerifyResult(commitment=lg.commitment, draw=lg.draw, revealed=True, seed=lg.seed.hex(), rolls=rolls,
                        verified=result.ok, message=result.message, first_bad_index=result.first_bad_index)


def export_text(lg: LiveGame, fmt: str) -> str:
    """The game's record as ``mat``, ``sgf`` or ``json`` text.

    :raises InvalidError: a format that cannot carry this game (``unsupported_export``).
    :raises NotFoundError: an unknown format.
    """
    names = tuple(str(s.get("name") or f"Player {i}") for i, s in enumerate(lg.seats))
    if f".{fmt}" not in FORMATS:
        raise NotFoundError(f"no export format {fmt!r}")
    dice: dict[str, Any] = {"kind": "crypto", "commitment": lg.commitment, "rolls_made": len(lg.rolls)}
    if lg.draw != "dice":
        dice["draw"] = lg.draw
    if lg.is_over:
        dice["seed"] = lg.seed.hex()
    try:
        # The one registry renders (and cleans the names for) each format, as ``gammon convert`` does.
        return render_record(lg.match, f".{fmt}", (names[0], names[1]), dice)
    except GammonError as exc:
        raise InvalidError(str(exc), "unsupported_export") from None


def hint_level_of(lg: LiveGame, between_people: str) -> str:
    """The level a hint in ``lg`` is given at: the computer opponent's, else ``between_people``
    (the server's setting).  Noisy levels hint noiselessly (:func:`gammon.web.hints.hint_level`)."""
    return lg.opponent_level() or between_people


def hint_request(lg: LiveGame, seat: int) -> tuple[Position, tuple[int, int], int, CubeInfo]:
    """What a hint for ``seat`` is about: the position, the dice, the game's version and the
    score and cube (a snapshot, so the hint values plays at the match score, not money).

    Between people the engine helps during play only when the game was created
    with hints for both; hints are for the seat with a roll to play.

    :raises ForbiddenError: hints are off in this game (``hints_off``).
    :raises ConflictError: the seat has no roll to play now (``no_hint``).
    """
    if not lg.hints and not lg.is_over:
        raise ForbiddenError("hints are off in this game: both players agreed to play without the "
                             "engine's help (the analysis opens when the game is over)", "hints_off")
    g = lg.game
    if "play" not in allowed_actions(lg, seat, lg.to_act(), lg.between_games()) or g.rolled is None:
        raise ConflictError("a hint is for the roll you have to play, and you have none now", "no_hint")
    from gammon.ai.cube import CubeInfo

    return g.position, g.rolled, lg.version, CubeInfo.from_game(g)


def rank_hint(game_id: str, position: Position, dice: tuple[int, int], version: int, count: int,
              match: CubeInfo | None = None, *, level: str = DEFAULT_HINT_LEVEL,
              engines: HintEngines | None = None) -> HintResult:
    """The ``count`` best plays of ``dice`` in ``position`` at the score and cube ``match``
    (a :class:`~gammon.ai.cube.CubeInfo`; None: cubeless money), by the noiseless engine of
    ``level`` from the pool ``engines`` (see :mod:`gammon.web.hints`)."""
    engine, ranked = rank_for_hint(position, dice, count, match, level, engines)
    return HintResult(game_id=game_id, version=version, dice=list(dice), engine=engine, plays=[
        HintPlay(notation=str(r.play), moves=checker_moves(r.play), equity=r.equity, difference=r.difference,
                 win=r.win) for r in ranked])


def step_answer(lg: LiveGame, query: StepQuery, language: str = DEFAULT) -> StepAnswer:
    """Core's reason why the step ``query`` names is refused on the roll to play now (or that it is not).

    The walked steps are followed through core's step tree (a step with its die
    is matched exactly, a pair takes the lowest die that makes it); the rule is
    :meth:`~gammon.core.steps.StepTree.refusal`'s.  No rule is applied here.  The sentence is in
    ``language`` (:func:`gammon.web.step_words.refusal_text`); the code is the same in every language.

    :raises ConflictError: no roll to play now (``no_roll``), a stale version
        (``stale_version``), or walked steps that begin no legal play (``illegal_play``).
    """
    if query.version is not None and query.version != lg.version:
        raise ConflictError(f"the game is at version {lg.version}, not {query.version}: reload it",
                            "stale_version")
    g = lg.game
    if lg.is_over or g.phase is not Phase.MOVE or g.rolled is None:
        raise ConflictError("there is no roll to play now", "no_roll")
    tree = g.position.step_tree(g.rolled)
    walked = [Step(w[0], w[1], w[2], False) if len(w) == 3 else (w[0], w[1]) for w in query.walked]
    try:
        at = tree.walk(walked)
    except IllegalPlayError as exc:
        raise ConflictError(str(exc), "illegal_play") from None
    refusal = tree.refusal(at, query.from_point, query.to_point)
    if refusal is None:
        return StepAnswer(allowed=True)
    return StepAnswer(allowed=False, reason=refusal.reason.value, message=refusal_text(refusal, language))


def analysis_snapshot(lg: LiveGame) -> Snapshot:
    """What the analysis of a finished game or match needs (:mod:`gammon.web.service.analysis`).

    :raises ConflictError: the game is not over yet (``not_over``): no help during play.
    """
    if not lg.is_over:
        raise ConflictError("the analysis comes when the game is over", "not_over")
    names = tuple(str(s.get("name") or f"Player {i}") for i, s in enumerate(lg.seats))
    seqs = tuple(rec.seq for rec in lg.actions if rec.kind != TIMEOUT and rec.data.get("type") == "play")
    return Snapshot(lg.id, lg.rules, tuple(tuple(g.record) for g in lg.match.games), lg.games_limit,
                    (names[0], names[1]), seqs)


__all__ = ["analysis_snapshot", "export_text", "hint_request", "rank_hint", "step_answer", "verify_report"]
