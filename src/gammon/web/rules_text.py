"""The words of the rules pages: one topic per variant and per option, in English, marked for the catalogs.

Each paragraph and each list item is one message (``N_``), so the catalog-completeness test
covers every sentence in every language; :mod:`gammon.web.rules_pages` translates them when it
renders a page.  What differs between variants as data (how many checkers, where they start,
whether the cube is used, who plays the first move) is not written here: the pages draw it from
:mod:`gammon.core.variants` and :class:`gammon.core.rules.Rules`, so the text can never
disagree with the engine on it.  Where the rule texts the project began with read a rule in
different ways, the paragraph says which reading gammon plays.
"""

from __future__ import annotations

from dataclasses import dataclass

from gammon.i18n import N_

#: A paragraph, or the items of a list.
Para = str | tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Section:
    """A heading and what stands under it."""

    heading: str
    body: tuple[Para, ...]


@dataclass(frozen=True, slots=True)
class Topic:
    """One rules page: its title, a one-line summary (for the index and the game's list) and sections."""

    slug: str
    title: str
    summary: str
    sections: tuple[Section, ...]


_STANDARD = Topic("standard", "Backgammon", N_(
    "The classic game: bring all your checkers around the board into your home board and bear them off "
    "before your opponent does."), (
    Section(N_("The board"), (
        N_("The board has 24 narrow triangles, the points, in four quarters of six. Each player counts the "
           "points from their own side: your 1- to 6-points are your home board, your 7- to 12-points your "
           "outer board, and the other half is the opponent's outer board and home board."),
        N_("The bar runs down the middle of the board. You move your checkers from your 24-point towards your "
           "1-point; your opponent moves the other way round."),
    )),
    Section(N_("The opening roll"), (
        N_("To decide who begins, each player throws one die. Equal numbers are thrown again."),
        N_("The player with the higher number moves first. Under the usual reading that player plays the two "
           "numbers just thrown as the first roll; a game can instead have the starter throw both dice anew "
           "(the opening reroll option)."),
        N_("From then on the players take turns, and each turn begins with a throw of both dice."),
    )),
    Section(N_("Moving"), (
        N_("Each die is a move of its own: one checker goes forward by the number of one die, and one checker, "
           "the same or another, by the number of the other."),
        N_("A checker may stop on any point that is not held by two or more of the opponent's checkers. When "
           "one checker plays both numbers, the point where it touches down between them must be open too."),
        N_("A double is played twice over: 4-4 gives four moves of four."),
        (
            N_("Play as many of the numbers as the position allows, even when that hurts you."),
            N_("If either number can be played but not both, the higher one must be played."),
            N_("If nothing can be played, the turn is lost."),
        ),
    )),
    Section(N_("Hitting and entering"), (
        N_("A single checker on a point is a blot. A checker that lands on an opponent's blot hits it, and the "
           "hit checker is put on the bar."),
        N_("A player with a checker on the bar must bring it back in before moving anything else. It enters on "
           "the opponent's home board: a 3 puts it on the opponent's 3-point, which is your 22-point."),
        N_("When both numbers point to closed points, the turn is lost. When only some of your checkers on the "
           "bar can come in, enter as many as you can; once the last one is in, the numbers left are played as "
           "usual, with any checker."),
    )),
    Section(N_("Bearing off"), (
        N_("When all your checkers are in your home board you may start to bear them off: a number takes a "
           "checker off the point with that number."),
        N_("If that point is empty, a checker on a higher point must move instead, if one can. If no checker "
           "stands higher, the number bears off a checker from the highest point you still hold. (One rule "
           "text says the next highest point; gammon reads it as the highest.)"),
        N_("You never have to bear off when another legal move exists. A checker hit during the bear-off must "
           "come back round to your home board before bearing off goes on."),
    )),
    Section(N_("Winning and scoring"), (
        N_("The first player to bear off every checker wins. What the win is worth depends on how far the "
           "loser got:"),
        (
            N_("a single game, one point: the loser has borne off at least one checker;"),
            N_("a gammon, two points: the loser has borne off none;"),
            N_("a backgammon, three points: the loser has borne off none and still has a checker on the bar or "
               "in the winner's home board."),
        ),
        N_("The rule texts describe the gammon in different words; gammon counts one whenever the loser has "
           "borne off nothing, wherever the loser's checkers stand. The doubling cube multiplies each of "
           "these."),
    )),
    Section(N_("The doubling cube"), (
        N_("In a game with the cube, the player on roll may offer to double the stake before throwing the "
           "dice."),
        N_("The opponent either takes, and play goes on at twice the stake with the taker now owning the cube, "
           "or drops, and loses the game at the stake as it stood before the offer."),
        N_("At the start the cube lies in the middle and either player may double; after that only its owner "
           "may double again."),
        N_("Each game has a highest cube value; unless chosen otherwise it is {cube_limit}. A double that "
           "would go past it cannot be offered."),
    )),
    Section(N_("Matches and money play"), (
        N_("A match is played to a number of points, and each game adds its points to the winner's score. In a "
           "money game every game is settled on its own."),
        N_("The Crawford rule: in the game after one player first comes within one point of winning the match, "
           "nobody may double. In the games after it the cube is back."),
        N_("On your turn you may offer to resign a single game, a gammon or a backgammon. Your opponent "
           "accepts, and wins that many points times the cube, or refuses, and play goes on."),
    )),
))

_NACKGAMMON = Topic("nackgammon", "Nackgammon", N_(
    "Backgammon with a deeper start: more checkers begin in the opponent's home board, so the game lasts "
    "longer and is harder to plan."), (
    Section(N_("How it differs"), (
        N_("Nackgammon was devised by Nack Ballard. Only the start position is new: compared with standard "
           "backgammon, one checker is taken from your mid-point and one from your 6-point, and both go back "
           "to your 23-point, beside the two on your 24-point."),
        N_("Every other rule is the standard one: the opening roll, moving, hitting, bearing off, the cube and "
           "the scoring."),
    )),
))

_HYPERGAMMON = Topic("hypergammon", "Hypergammon", N_(
    "A short game with very few checkers, all starting deep in the opponent's home board."), (
    Section(N_("How it differs"), (
        N_("Each player has only a few checkers, and they all start on the opponent's home board. gammon has "
           "three sizes: three checkers each, two, or one."),
        N_("All the standard rules apply: the opening roll, entering from the bar, bearing off once every one "
           "of your checkers is home, the doubling cube, gammons and backgammons."),
        N_("With so few checkers a game is over in a few minutes, and every roll and every cube decision "
           "counts."),
    )),
))

_DUTCH = Topic("dutch", "Dutch backgammon", N_(
    "All checkers start off the board, and nobody may hit before having a checker in their home board."), (
    Section(N_("Coming in"), (
        N_("Every checker starts off the board, on the bar, and comes in on the opponent's home board the way "
           "a hit checker does."),
        N_("Because they wait on the bar, the bar rule holds for them: in gammon no checker moves on round the "
           "board while any of yours is still waiting to come in."),
    )),
    Section(N_("No early hits"), (
        N_("You may not hit a blot until at least one of your checkers stands in your home board."),
        N_("gammon checks this at every single move: a checker that reaches your home board early in a turn "
           "allows a hit with the numbers still to play, and if your only checker at home is hit you may not "
           "hit again until another one arrives."),
    )),
    Section(N_("The rest"), (
        N_("Moving, bearing off, the doubling cube and the scoring are those of standard backgammon."),
    )),
))

_ACEY_DEUCEY = Topic("acey-deucey", "Acey-Deucey", N_(
    "All checkers start off the board, and the roll 1-2 brings a double of your own choice and another "
    "roll."), (
    Section(N_("Coming in"), (
        N_("Every checker starts off the board, in a pool, and comes in on the opponent's home board."),
        N_("A checker in the pool may wait: you may move checkers that are already on the board while others "
           "are still in the pool. A checker that has been hit is different: it goes to the bar and must come "
           "back in before any other move."),
        N_("You may bear off only when all your checkers, the pool included, are in your home board."),
    )),
    Section(N_("The acey-deucey roll"), (
        N_("When you throw 1-2, you first play the 1 and the 2 as usual. Then:"),
        (
            N_("if both numbers were played, name any double from 1-1 to 6-6 and play it as four moves;"),
            N_("if all four moves of that double were played too, throw the dice again and play another turn;"),
            N_("a number that cannot be played ends the bonus there, and the turn passes."),
        ),
        N_("Some rule texts give the bonus only as a house rule; gammon always gives it, also for a 1-2 thrown "
           "on the extra roll."),
    )),
    Section(N_("Scoring"), (
        N_("The loser pays the stake once for every checker not yet borne off, the pool included, and at least "
           "once. Gammons and backgammons do not count, and there is no doubling cube."),
    )),
))

#: The variants' pages, by the name of the variant family in :data:`gammon.core.variants.VARIANTS`.
VARIANT_TOPICS: dict[str, Topic] = {
    t.slug: t for t in (_STANDARD, _NACKGAMMON, _HYPERGAMMON, _DUTCH, _ACEY_DEUCEY)}
