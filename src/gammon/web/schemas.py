"""The API's shapes: pydantic models for requests and responses (the WebSocket messages are in
:mod:`gammon.web.ws_messages`).

They are the contract with clients and are kept apart from the engine's types.
They are also the service's own results: :mod:`gammon.web.service.views` builds
them from a game in memory, so REST answers, WebSocket messages and callers of
the service share one set of shapes.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

from gammon.core.rules import Rules
from gammon.web.computer import COMPUTER_LEVELS, DEFAULT_LEVEL
from gammon.web.names import NAME_MAX_LENGTH

_RULES = Rules()


class _Out(BaseModel):
    model_config = ConfigDict(from_attributes=True)


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


# -- errors -----------------------------------------------------------------------------


class ErrorDetail(BaseModel):
    code: str = Field(description="What went wrong, for programs: not_found, forbidden, not_your_turn, ...")
    message: str = Field(description="What went wrong, for people")


class ErrorResponse(BaseModel):
    """Every error answer: ``{"error": {"code": ..., "message": ...}}``."""

    error: ErrorDetail


# -- requests ---------------------------------------------------------------------------

Level = Literal[
    "beginner", "casual", "intermediate", "advanced", "expert", "world-class", "strongest", "heuristic"
]
assert set(COMPUTER_LEVELS) == set(get_args(Level)) and DEFAULT_LEVEL == "expert"


class CreateGameRequest(_In):
    """A new game or match against the computer or a person."""

    opponent: Literal["computer", "human"] = Field("computer", description="Who plays the other seat")
    variant: str = Field("standard", max_length=40,
                         description="standard, nackgammon, hypergammon, hypergammon2, hypergammon1, dutch, "
                                     "acey-deucey (or an alias)")
    match_length: int = Field(0, ge=0, le=64, description="Points to win (1 to 64); 0 is money play")
    games: int | None = Field(None, ge=1, le=1000,
                              description="Money play: games in the session (default 1)")
    # The settings' defaults are core's (Rules), not written again here.
    crawford: bool = _RULES.crawford
    jacoby: bool = _RULES.jacoby
    beavers: bool = _RULES.beavers
    automatic_doubles: int = Field(_RULES.automatic_doubles, ge=0, le=12,
                                   description="Money play: most automatic doubles (0 off)")
    cube_limit: int = Field(_RULES.cube_limit, ge=1, le=4096, description="Highest cube value, a power of two")
    gammons: bool = Field(_RULES.gammons, description="Whether gammons and backgammons count")
    cube: bool = Field(_RULES.cube, description="Whether the doubling cube is used")
    opening: Literal["use-opening-dice", "reroll"] | None = Field(
        None, description="The first move: the opening throw's dice, or the starter throws anew "
                          "(default: the variant's usual reading)")
    computer_level: Level = Field("expert", description="The computer's strength")
    seat: Literal[0, 1] = Field(0, description="The creator's seat")
    name: str = Field("Player 1", max_length=NAME_MAX_LENGTH,
                      description="Your name at the table (control and bidirectional-override characters are "
                                  "removed)")
    opponent_name: str | None = Field(None, max_length=NAME_MAX_LENGTH)
    hints: bool = Field(False, description="Between people: allow the engine's hints for both players during "
                                           "play (both see this setting from the start). Always on against "
                                           "the computer")
    public: bool = Field(False, description="Between people: list the game in the lobby (GET /api/lobby), "
                                            "where anyone may take the guest's seat")
    clock_delay: float = Field(0, ge=0, le=600, description="A clock: seconds free in each turn (3 to 600)")
    clock_reserve: float = Field(0, ge=0, le=36000,
                                 description="A clock: each player's reserve for the match in seconds (0: no "
                                             "clock; else 30 to 36000); running out loses the match")
    dice: Literal["dice", "cards"] = Field(
        "dice", description="How the server's committed secret gives the rolls: thrown as dice, or drawn "
                            "as the rule texts' two piles of cards (ace to six, each reshuffled whole before "
                            "every draw); both are checked by /api/games/{id}/verify")
    test_seed: str | None = Field(
        None, pattern=r"^[0-9a-fA-F]{64}$",
        description="Tests only (servers started with GAMMON_ALLOW_TEST_SEEDS=1): the dice seed, 64 hex digits")


class JoinRequest(_In):
    name: str | None = Field(None, max_length=NAME_MAX_LENGTH, description="Your name at the table")


class _Act(_In):
    expected_version: int | None = Field(
        None, ge=0, description="Refuse (409) unless the game is still at this version")


class RollAction(_Act):
    type: Literal["roll"]


class PlayAction(_Act):
    type: Literal["play"]
    play: Annotated[str, Field(max_length=200)] | Annotated[
        list[Annotated[list[Annotated[int, Field(ge=0, le=25)]], Field(min_length=2, max_length=2)]],
        Field(max_length=4),
    ] = Field(description='Notation ("8/5 6/5", "bar/22*", "6/off") or checker moves [[8, 5], [6, 5]] '
                          "(points from the mover's side, 25 = bar, 0 = off)")


class DoubleAction(_Act):
    type: Literal["double"]


class TakeAction(_Act):
    type: Literal["take"]


class DropAction(_Act):
    type: Literal["drop"]


class BeaverAction(_Act):
    type: Literal["beaver"]


class ResignAction(_Act):
    type: Literal["resign"]
    kind: Literal["single", "gammon", "backgammon"] = "single"


class AcceptAction(_Act):
    """Accept the opponent's resignation."""

    type: Literal["accept"]


class RejectAction(_Act):
    """Reject the opponent's resignation."""

    type: Literal["reject"]


class ChooseDoubleAction(_Act):
    """Acey-Deucey: after a 1-2, the double to play."""

    type: Literal["choose-double"]
    number: int = Field(ge=1, le=6)


ActionRequest = Annotated[
    RollAction | PlayAction | DoubleAction | TakeAction | DropAction | BeaverAction | ResignAction
    | AcceptAction | RejectAction | ChooseDoubleAction,
    Field(discriminator="type"),
]


# -- the state of a game -------------------------------------------------------------------


class Seat(_Out):
    seat: int
    kind: Literal["human", "computer"]
    name: str
    joined: bool
    level: str | None
    token_id: str | None = Field(
        description="Names the token that holds the seat (the first digits of its hash): the record's "
                    "`actor` of each action says which token acted")


class ClockSettingsOut(_Out):
    """A game's clock settings: ``delay`` seconds free per turn, then a ``reserve`` for the match."""

    delay: float
    reserve: float


class RulesOut(_Out):
    variant: str
    match_length: int
    games: int | None = Field(description="Money play: games in the session")
    crawford: bool
    jacoby: bool
    beavers: bool
    automatic_doubles: int
    cube_limit: int
    gammons: bool
    cube: bool
    opening: str = Field(description="use-opening-dice (the opening throw is the first move) or reroll")
    hints: bool = Field(description="Whether the engine's hints are open during play (for both players)")
    clock: ClockSettingsOut | None = Field(None, description="The clock the game is played with (null: none)")


class MatchInfo(_Out):
    length: int = Field(description="0 for money play")
    score: list[int]
    game_number: int
    crawford_game: bool
    post_crawford: bool
    over: bool
    winner: int | None
    timeout: int | None = Field(None, description="The seat that ran out of time and lost the match")


class ClockState(_Out):
    """The game's clock: ``delay`` seconds free per turn, then each player's ``reserve`` for the match."""

    delay: float
    reserve: float
    remaining: list[float] = Field(description="Each seat's reserve left now, in seconds")
    running: int | None = Field(description="The seat whose clock runs (null: none runs)")
    since: datetime | None = Field(description="When the running clock started")
    delay_left: float = Field(0.0, description="Seconds of this turn's delay the running seat has left now "
                                               "(spent before the reserve)")
    now: datetime = Field(description="The server's time when this state was made")


class Board(_Out):
    position_id: str = Field(description="GNU Backgammon Position ID seen from `perspective`")
    perspective: int = Field(description="The seat the Position ID is seen from (the player on roll)")
    points: list[list[int]] = Field(
        description="points[s][i]: seat s's checkers on its own point i+1 (i = 24: its bar)")
    bar: list[int]
    off: list[int]
    pips: list[int]


class Cube(_Out):
    value: int
    owner: int | None = Field(description="None while centred")
    offered_by: int | None = Field(description="The seat whose double awaits an answer")
    in_use: bool


class CheckerMove(_Out):
    from_point: int
    to_point: int
    hit: bool


class LegalPlay(_Out):
    notation: str
    moves: list[CheckerMove]
    position_id: str = Field(description="The position the play leads to, seen from the mover")


class StepNodeOut(_Out):
    """A point part-way through the roll (see :class:`StepTreeOut`)."""

    board: str = Field(description=(
        "The checkers here as 50 base-36 digits: the mover's 25 counts (points 1-24, then the bar), "
        "then the opponent's 25, each seen from its own side"))
    pips: list[int] = Field(description="Pip counts here: [mover, opponent]")
    steps: list[list[int]] = Field(description=(
        "The legal next steps: [from, to, die, hit (0/1), node]; points from the mover's side "
        "(25 = bar, 0 = off), node is the index of the node the step leads to"))
    play: str | None = Field(description="The complete legal play this node is, in notation; null while "
                                         "more steps must follow ('' when the roll cannot be played)")


class StepTreeOut(_Out):
    """The legal single steps of the roll, from gammon.core: node 0 is the start of the turn.

    Nodes reached by the same position with the same dice left are one node.  Every path from
    node 0 to a node with a ``play`` is a legal play; every step in the tree begins one.
    """

    dice: list[int] = Field(description="The dice to play (four for a double)")
    nodes: list[StepNodeOut]


class Resignation(_Out):
    player: int
    kind: str


class GameResult(_Out):
    winner: int
    kind: str
    points: int
    cube: int
    resigned: bool
    dropped: bool
    timeout: bool = Field(False, description="The loser ran out of time, which loses the match")


class FairDice(_Out):
    kind: str
    commitment: str = Field(description="SHA-256 (hex) of the secret seed, published before the first roll")
    draw: str = Field("dice", description="dice (thrown) or cards (drawn from two piles, ace to six)")
    cards: list[str] | None = Field(None, description="Card dice: the two cards of the roll on the board, "
                                                      "pile 0 (black spades) then pile 1 (red hearts): 3♠, A♥")
    rolls_made: int
    revealed: bool
    seed: str | None = Field(description="The secret seed (hex), only once the game is over")


class GameState(_Out):
    """Everything about a game a seat (``you``) or a spectator (``you`` null) may see."""

    id: str
    version: int = Field(description="Counts every change; send it as expected_version")
    status: Literal["waiting", "active", "finished", "expired", "cancelled"] = Field(
        description="expired: nobody took the guest's seat in time; cancelled: the host cancelled it, or it "
                    "was called off because a player never made a move")
    you: int | None
    seats: list[Seat]
    rules: RulesOut
    match: MatchInfo
    phase: str = Field(description="opening, roll, doubled, beavered, move, choose-double, resigned or over")
    turn: int = Field(description="The player on roll")
    to_act: int | None = Field(description="Who must act now; null when either may roll the opening")
    your_turn: bool
    allowed_actions: list[str]
    dice: list[int] | None
    board: Board
    cube: Cube
    resignation: Resignation | None
    result: GameResult | None
    legal_plays: list[LegalPlay] | None = Field(description="Only when it is your move")
    steps: StepTreeOut | None = Field(None, description=(
        "Only when it is your move: the legal single steps of the roll, one checker at a time"))
    match_id: str | None = Field(description="GNU Backgammon Match ID")
    fair_dice: FairDice
    actions: int = Field(description="Number of stored actions")
    created_at: datetime
    updated_at: datetime
    public: bool = Field(False, description="Listed in the lobby while it waits for its guest")
    rematch_id: str | None = Field(None, description="This game's rematch, once a player asked for one")
    rematch_of: str | None = Field(None, description="The game this one is the rematch of")
    clock: ClockState | None = Field(None, description="The clock, in games played with one")


class EventOut(_Out):
    kind: str
    player: int | None
    text: str
    data: dict[str, Any]


class ActionEntry(_Out):
    seq: int
    player: int
    type: str
    action: dict[str, Any] = Field(description="The action as stored, dice included")
    events: list[EventOut]
    created_at: datetime
    actor: str | None = Field(
        description="Who acted: 'seat<N>:<token id>' (see Seat.token_id) or 'computer'; null for old records")


# -- responses ------------------------------------------------------------------------


class Links(BaseModel):
    """Where to go next.  Absolute under the server's configured public URL (``--public-url``), else
    relative to the server; never built from the request's ``Host`` header, and never holding a token
    where a server would see it."""

    state: str = Field(description="The game's state (REST)")
    websocket: str = Field(description="The game's WebSocket: send {'type': 'auth', 'token': <your seat's "
                                       "token>} as the first message")
    spectate: str = Field(description="The same WebSocket: send {'type': 'auth'} as the first message")
    invite: str | None = Field(
        description="Send this to your opponent: the join page, with the single-use invitation in the URL "
                    "fragment (after '#'), which browsers never send to a server")


class CreatedGame(BaseModel):
    game_id: str
    seat: int
    token: str = Field(description="Your seat's secret token: send it as 'Authorization: Bearer <token>'")
    invite_token: str | None = Field(
        description="A single-use invitation to the other seat (a game against a person): joining with it "
                    "consumes it and gives the joiner a seat token of its own")
    links: Links
    state: GameState


class Joined(BaseModel):
    seat: int
    token: str = Field(description="Your seat's secret token, given only in this answer: keep it")
    state: GameState


class LobbyGame(_Out):
    """A public game waiting for its guest: join it with ``POST /api/games/{id}/join`` (no token)."""

    game_id: str
    seat: int = Field(description="The seat you would take")
    host: str
    rules: RulesOut
    created_at: datetime


class Lobby(BaseModel):
    games: list[LobbyGame]
    expire_after: float | None = Field(description="Seconds after which a game nobody joins expires")


class Invitation(_Out):
    """An open invitation: the seat it offers, who invites, and the rules."""

    game_id: str
    seat: int
    host: str
    rules: RulesOut
    status: Literal["open"]


class ActionResult(BaseModel):
    version: int
    actions: list[ActionEntry]
    state: GameState


class ActionLog(BaseModel):
    game_id: str
    version: int
    actions: list[ActionEntry]


class VerifyResult(_Out):
    commitment: str
    draw: str = Field("dice", description="dice (thrown) or cards (drawn from two piles): how the seed rolls")
    revealed: bool
    seed: str | None
    rolls: list[list[int]]
    verified: bool | None = Field(description="null until the game is over and the seed revealed")
    message: str
    first_bad_index: int | None


class HintPlay(_Out):
    notation: str
    moves: list[CheckerMove]
    equity: float | None = Field(description="Cubeless money equity after the play (null from the heuristic)")
    difference: float | None = Field(description="Equity minus the best play's (null from the heuristic)")
    win: float | None = Field(description="The mover's chance to win after the play (null from the heuristic)")


class HintResult(_Out):
    """The best plays of the roll to play, best first (empty: nothing can be played)."""

    game_id: str
    version: int
    dice: list[int]
    engine: str = Field(description="What ranked the plays: the neural engine or the heuristic")
    plays: list[HintPlay]


class StepQuery(_In):
    """Why one checker cannot go from ``from_point`` to ``to_point``, after the steps already walked."""

    model_config = ConfigDict(extra="forbid", strict=True)  # whole numbers only, never "13" or 13.0

    walked: list[
        Annotated[list[Annotated[int, Field(ge=0, le=25)]], Field(min_length=2, max_length=3)]
    ] = Field(default_factory=list, max_length=4,
              description="The steps of the step tree walked so far this turn: [from, to] or [from, to, die]")
    from_point: int = Field(ge=0, le=25, description="Where the checker stands (25 = bar)")
    to_point: int = Field(ge=0, le=25, description="Where the player tried to put it (0 = off)")
    version: int | None = Field(None, ge=0, description="The game's version the page shows (stale: 409)")


class StepAnswer(_Out):
    """gammon.core's answer: ``allowed``, or the rule that refuses the step as a code and a sentence."""

    allowed: bool
    reason: str | None = Field(default=None, description="bar_first, blocked, no_hit_yet, bear_off_not_home, "
                                                 "pool_not_entered, bear_off_higher, no_die, higher_die, "
                                                 "more_dice, roll_played, no_checker, wrong_way, bad_point")
    message: str | None = Field(default=None, description="The rule, for people, in the page's language "
                                                          "(gammon_lang cookie, else Accept-Language)")


class PlayReview(_Out):
    """One play of the record with a choice, as :mod:`gammon.analysis` judged it (for the record's marks)."""

    seq: int = Field(description="The action's number in the record")
    player: int
    game: int = Field(description="The game of the match it belongs to (1, 2, ...)")
    dice: list[int]
    played: str
    best: str = Field(description="The engine's best play")
    loss: float = Field(description="Normalised equity (EMG) lost against the best play (0 for the best)")
    mark: str | None = Field(description="'?!' doubtful (from 0.030), '?' error (0.060), '??' blunder (0.120), "
                                         "or null: GNU Backgammon 1.07's thresholds, as `gammon analyse`")


class AnalysisResult(_Out):
    """The analysis of a finished game or match by :mod:`gammon.analysis` (the same as ``gammon analyse``).

    It takes a few seconds: the first request starts it and answers ``running``
    with the progress; ask again until ``done`` (or ``failed``).  A finished
    game's analysis is made once and kept.
    """

    game_id: str
    status: Literal["running", "done", "failed"] = Field(
        description="running: ask again; done: the report is here; failed: see message")
    done: int = Field(description="Decisions analysed so far")
    total: int = Field(description="Decisions to analyse (0 until counted)")
    engine: str | None = Field(description="What analysed the game: gammon.analysis and its depth")
    message: str | None = Field(default=None, description="Why the analysis failed (status failed)")
    report: dict[str, Any] | None = Field(
        default=None, description="gammon.analysis's report, as `gammon analyse --json` prints it: players "
                                  "(error rates in mEMG, PR, marks, luck), games with their decisions")
    graph_svg: str | None = Field(default=None, description="The equity graph: an SVG document")
    plays: list[PlayReview] = Field(default_factory=list, description="Each play with a choice, by its record "
                                                                      "number (to mark the record)")
    #: The analysis itself (not sent): its explanations' words and its graph, to word them in the
    #: reader's language (:func:`gammon.web.service.analysis.in_language`); the graphs drawn so far.
    _analysis: Any = PrivateAttr(default=None)
    _graphs: dict[str, str] = PrivateAttr(default_factory=dict)


class VariantInfo(BaseModel):
    name: str
    title: str
    checkers: int
    cube: bool


class LevelInfo(BaseModel):
    name: str = Field(description="What ``computer_level`` takes")
    title: str = Field(description="A short label for a menu")
    description: str = Field(description="What the level plays with")


class ServerInfo(BaseModel):
    name: str
    version: str
    database: str
    variants: list[VariantInfo]
    computer_levels: list[str] = Field(description="The level names, weakest first (as ``levels``)")
    levels: list[LevelInfo] = Field(description="The computer levels with their words, weakest first")
    name_max_length: int = Field(description="The most characters a player name may have")


class Health(BaseModel):
    status: Literal["ok", "degraded"] = Field(description="degraded (with status 503) when the database "
                                                          "does not answer")
    database: str = Field(description="sqlite or postgresql")
    database_state: Literal["ok", "unreachable", "timeout"] = Field(
        description="Whether the database answered a query just now")
    schema_revision: str | None = Field(description="The schema revision the database is at")
    notifications: str = Field(
        description="How changes reach this process's sockets: in-process (SQLite), listen/notify "
                    "(PostgreSQL, listening) or connecting")
