"""What a seat or a spectator sees of a game: the API's own models (:mod:`gammon.web.schemas`), built
straight from a :class:`~gammon.web.service.live.LiveGame`.

One set of shapes serves the REST answers, the WebSocket messages and the
service's callers.  The models are built with ``model_construct`` (the values
come from the engine, already valid), which costs what building dataclasses
would; a test checks that every built state validates against its model.
"""

from __future__ import annotations

from datetime import UTC, datetime

from gammon.core.errors import GammonError
from gammon.core.fair_dice import card_faces
from gammon.core.game import CENTERED, Phase
from gammon.core.plays import Play
from gammon.core.steps import StepTree
from gammon.formats.record_actions import action_name
from gammon.store import ActionRecord
from gammon.web.schemas import (
    ActionEntry,
    Board,
    CheckerMove,
    ClockSettingsOut,
    ClockState,
    Cube,
    EventOut,
    FairDice,
    GameResult,
    GameState,
    LegalPlay,
    MatchInfo,
    Resignation,
    RulesOut,
    Seat,
    StepNodeOut,
    StepTreeOut,
)
from gammon.web.service.live import LiveGame
from gammon.web.service.tokens import token_id


def rules_view(lg: LiveGame) -> RulesOut:
    rules = lg.rules
    return RulesOut.model_construct(
        variant=rules.variant.name, match_length=rules.match_length, games=lg.games_limit,
        crawford=rules.crawford, jacoby=rules.jacoby, beavers=rules.beavers,
        automatic_doubles=rules.automatic_doubles, cube_limit=rules.cube_limit, gammons=rules.gammons,
        cube=rules.uses_cube, opening=rules.opening, hints=lg.hints,
        clock=(ClockSettingsOut.model_construct(delay=lg.clock.settings.delay,
                                                reserve=lg.clock.settings.reserve)
               if lg.clock is not None else None))


def allowed_actions(lg: LiveGame, you: int, who: int | None, between: bool) -> list[str]:
    """The kinds of action seat ``you`` may send now (``who``: the seat to act, None when either may)."""
    if lg.status != "active" or lg.is_over or lg.is_computer(you):
        return []
    g = lg.game
    if who is None:
        return ["roll"] if (between or g.phase is Phase.OPENING) else []
    if who != you:
        return []
    # The permissions are core's (Game.allowed_actions); the service only names them, less a second
    # offer to resign in one turn (the service's limit, see gammon.web.service.clock).
    names = dict.fromkeys(action_name(a) for a in g.allowed_actions())
    if not lg.may_offer_resignation(you):
        names.pop("resign", None)
    return list(names)



def checker_moves(play: Play) -> list[CheckerMove]:
    return [CheckerMove.model_construct(from_point=m.from_point, to_point=m.to_point, hit=m.hit)
            for m in play.moves]


def play_view(play: Play) -> LegalPlay:
    return LegalPlay.model_construct(notation=str(play), moves=checker_moves(play),
                                     position_id=play.position.position_id)


_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


def step_tree_view(tree: StepTree) -> StepTreeOut:
    """Core's tree of legal single steps as the page walks it (boards as 50 base-36 digits)."""
    nodes = []
    for node in tree.nodes:
        pos = node.position
        nodes.append(StepNodeOut.model_construct(
            board="".join([_DIGITS[c] for c in pos.board]), pips=list(pos.pip_counts),
            steps=[[st.from_point, st.to_point, st.die, int(st.hit), child] for st, child in node.steps],
            play=None if node.play is None else str(node.play)))
    return StepTreeOut.model_construct(dice=list(tree.dice), nodes=nodes)


def action_view(rec: ActionRecord) -> ActionEntry:
    return ActionEntry.model_construct(
        seq=rec.seq, player=rec.player, type=rec.kind, action=rec.data,
        events=[EventOut.model_construct(kind=e.get("kind", ""), player=e.get("player"), text=e.get("text", ""),
                                         data=e.get("data") or {}) for e in rec.events],
        created_at=rec.created_at, actor=rec.actor)


def game_view(lg: LiveGame, you: int | None) -> GameState:
    """The game as seat ``you`` sees it (None: a spectator)."""
    g = lg.game
    m = lg.match
    who = lg.to_act()
    over = lg.is_over
    score, winner = list(m.score), m.winner  # a loss on time included: core scores it
    between = lg.between_games() and lg.status == "active"
    allowed = allowed_actions(lg, you, who, between) if you is not None else []
    legal = steps = None
    if you is not None and "play" in allowed and g.rolled is not None:
        if lg.legal_cache is None or lg.legal_cache[0] != lg.seq:
            lg.legal_cache = (lg.seq, [play_view(p) for p in g.position.legal_plays(g.rolled)],
                              step_tree_view(g.position.step_tree(g.rolled)))
        legal = list(lg.legal_cache[1])
        steps = lg.legal_cache[2]
    perspective = g.turn
    me, opp = list(g.position.me), list(g.position.opp)
    rows = [me, opp] if perspective == 0 else [opp, me]
    # Pips and checkers off are core's counts (Position.pip_counts, checkers_off), by seat.
    pips, off = list(g.position.pip_counts), list(g.position.checkers_off)
    if perspective != 0:
        pips.reverse()
        off.reverse()
    res = g.result
    return GameState.model_construct(
        id=lg.id, version=lg.version, status=lg.status, you=you,
        seats=[Seat.model_construct(seat=i, kind=s.get("kind", "human"), name=s.get("name", ""),
                                    joined=bool(s.get("joined")), level=s.get("level"),
                                    token_id=token_id(lg.token_hashes[i])) for i, s in enumerate(lg.seats)],
        rules=rules_view(lg),
        match=MatchInfo.model_construct(length=m.length, score=score, game_number=len(m.games),
                                        crawford_game=g.crawford_game, post_crawford=m.is_post_crawford,
                                        over=over, winner=winner, timeout=lg.forfeit),
        phase="over" if g.is_over else g.phase.value, turn=g.turn, to_act=who,
        your_turn=you is not None and bool(allowed), allowed_actions=allowed,
        dice=list(g.rolled) if g.rolled is not None else None,
        board=Board.model_construct(position_id=g.position.position_id, perspective=perspective, points=rows,
                                    bar=[rows[0][24], rows[1][24]], off=off, pips=pips),
        cube=Cube.model_construct(value=g.cube_value, owner=None if g.cube_owner == CENTERED else g.cube_owner,
                                  offered_by=g.doubled_by if g.phase is Phase.DOUBLED else None,
                                  in_use=lg.rules.uses_cube),
        resignation=(Resignation.model_construct(player=g.resignation[0], kind=g.resignation[1].name.lower())
                     if g.phase is Phase.RESIGNED and g.resignation is not None else None),
        result=(GameResult.model_construct(winner=res.winner, kind=res.kind.name.lower(), points=res.points,
                                           cube=res.cube, resigned=res.resigned, dropped=res.dropped,
                                           timeout=res.timeout)
                if res is not None else None),
        legal_plays=legal, steps=steps, match_id=match_id(lg),
        fair_dice=FairDice.model_construct(kind="crypto", commitment=lg.commitment, draw=lg.draw,
                                           cards=list(card_faces(g.rolled)) if lg.draw == "cards" and g.rolled
                                           is not None else None, rolls_made=len(lg.rolls),
                                           revealed=over, seed=lg.seed.hex() if over else None),
        actions=lg.seq, created_at=lg.created_at, updated_at=lg.updated_at,
        public=lg.public, rematch_id=lg.rematch_id, rematch_of=lg.rematch_of, clock=clock_view(lg),
    )


def clock_view(lg: LiveGame) -> ClockState | None:
    """Both players' time now, and whose clock runs since when (the page counts down from it)."""
    clock = lg.clock
    if clock is None:
        return None
    now = datetime.now(UTC)
    running = clock.running if lg.status == "active" and not lg.is_over else None
    return ClockState.model_construct(
        delay=clock.settings.delay, reserve=clock.settings.reserve,
        remaining=[round(max(0.0, clock.remaining(s, now) if running == s else clock.settings.reserve
                             - clock.used[s]), 3) for s in (0, 1)],
        running=running, since=clock.since if running is not None else None,
        delay_left=round(clock.delay_left(now), 3) if running is not None else 0.0, now=now)


def match_id(lg: LiveGame) -> str | None:
    """GNU Backgammon's Match ID of the game now (None where it cannot say, as in some variants)."""
    try:
        return lg.game.match_id()
    except (GammonError, ValueError):
        return None


__all__ = [
    "action_view", "allowed_actions", "checker_moves", "game_view", "match_id", "play_view", "rules_view",
    "step_tree_view",
]
