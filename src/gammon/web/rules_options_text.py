"""The options' rules pages in English, marked for the catalogs (see :mod:`gammon.web.rules_text`).

One topic per option a game can be played with: the opening reroll, the Jacoby rule, beavers,
automatic doubles, no gammons, card dice and the card board.  Each says what gammon does,
in the reading :mod:`gammon.core.rules`, :mod:`gammon.core.transitions` and
:class:`gammon.core.dice.CardDice` carry out.
"""

from __future__ import annotations

from gammon.i18n import N_
from gammon.web.rules_text import Para, Section, Topic


def _how_it_works(slug: str, title: str, summary: str, body: tuple[Para, ...]) -> Topic:
    """An option's page of one section, "How it works"."""
    return Topic(slug, title, summary, (Section(N_("How it works"), body),))


_REROLL = _how_it_works("opening-reroll", N_("Opening reroll"), N_(
    "The winner of the opening throw throws both dice again instead of playing the opening numbers."), (
    N_("Usually the player who wins the opening throw plays the two numbers of that throw as the first "
       "move. With this option those numbers only decide who begins: the starter then throws both dice "
       "anew and plays that roll."),
    N_("So the first roll of the game can be a double. Equal numbers on the opening throw are thrown again "
       "either way."),
    N_("Any game can be played with this option; some variants use it unless the game says otherwise."),
))

_JACOBY = _how_it_works("jacoby", N_("Jacoby rule"), N_(
    "In money play, gammons and backgammons count as single games until the cube has been turned."), (
    N_("As long as nobody has doubled and the cube still lies in the middle, a gammon or a backgammon is "
       "scored as a single game. Once a double has been taken, they count in full."),
    N_("This is the rule sometimes put as: no gammons unless the cube was turned. It makes a player with a "
       "big lead double early to play for more than one point, and so ends lopsided games sooner."),
    N_("It applies only to money games; in a match gammon leaves it out. An automatic double does not turn "
       "the cube: it stays in the middle, so the rule still holds after one."),
))

_BEAVERS = _how_it_works("beavers", N_("Beavers"), N_(
    "In money play, a player who is doubled may redouble at once and keep the cube."), (
    N_("When you are doubled you may beaver instead of simply taking: you take at twice the stake, keep "
       "the cube, and straight away double again."),
    N_("The first doubler then takes, and play goes on at four times the stake before the double with you "
       "owning the cube, or drops, and loses twice the stake before the double."),
    N_("Beavers are allowed only in money games played with this option, and only when the cube would not "
       "pass its highest value. gammon plays no raccoons: a beaver cannot be answered with another one."),
))

_AUTO = _how_it_works("automatic-doubles", N_("Automatic doubles"), N_(
    "In money play, every tie on the opening throw doubles the stake."), (
    N_("Each time both players throw the same number on the opening throw, the cube is doubled before they "
       "throw again. It stays in the middle: nobody owns it, and either player may double later."),
    N_("The game sets how many automatic doubles there may be at most, and the cube never goes past its "
       "highest value this way."),
    N_("Automatic doubles are used only in money games with the doubling cube."),
))

_NO_GAMMONS = _how_it_works("no-gammons", N_("No gammons"), N_(
    "Every win counts as a single game, whatever the loser's checkers are doing."), (
    N_("With this option a gammon and a backgammon are scored as a single game: one point times the cube. "
       "Doubling still raises the stake."),
    N_("Unlike the Jacoby rule, it does not end when the cube is turned, and it holds in matches as well "
       "as in money games."),
    N_("In Acey-Deucey it changes nothing: there the loser pays for each checker left."),
))

_CARD_DICE = _how_it_works("card-dice", N_("Card dice"), N_(
    "Two piles of playing cards, ace to six, take the place of the two dice."), (
    N_("Make two piles of six cards each, ace to six, one pile for each die. An ace counts as one. gammon "
       "shows one pile as spades and the other as hearts."),
    N_("Before every draw each pile is shuffled whole, with all six of its cards back in, and the top card "
       "of each pile gives that die."),
    N_("Because every pile is complete at every draw, each of the 36 possible rolls is exactly as likely "
       "as with real dice, and no draw says anything about the next."),
    N_("On the opening throw each player draws from one of the piles."),
    N_("In the terminal, play with card dice with {command}."),
))

_CARD_BOARD = Topic("card-board", N_("Card board"), N_(
    "A board laid out with a deck of playing cards, for when there is no board at hand."), (
    Section(N_("Laying it out"), (
        N_("Lay twelve cards face down in a row, and one more across the middle of the row to mark the bar. "
           "The twelve places above the row and the twelve below it are the 24 points."),
        N_("The face-up cards are the checkers: red cards for one player and black for the other. Only the "
           "colour matters, not the rank or the suit."),
        N_("Red goes round counterclockwise and bears off at the bottom right; black goes clockwise and bears "
           "off at the top right."),
        N_("A hit card is laid aside next to the row rather than in the middle, and comes in again at the far "
           "end of its player's way round."),
    )),
    Section(N_("In gammon"), (
        N_("The card board is only a board: it changes no rule. gammon does not draw it, but it can referee a "
           "game laid out this way: type in the numbers as you throw them with {command}, or let gammon draw "
           "card dice for you."),
    )),
))

#: The options' pages, by slug (``/rules/option/{slug}``).
OPTION_TOPICS: dict[str, Topic] = {
    t.slug: t for t in (_REROLL, _JACOBY, _BEAVERS, _AUTO, _NO_GAMMONS, _CARD_DICE, _CARD_BOARD)}

#: The command a topic's ``{command}`` names (commands stay English in every language).
OPTION_COMMANDS: dict[str, str] = {
    "card-dice": "gammon play --dice cards", "card-board": "gammon play --dice manual"}
