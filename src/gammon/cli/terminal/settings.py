"""What ``gammon play`` was asked for: :class:`PlaySettings`, checked, and the rules they make."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from gammon.cli.limits import MAX_MATCH_LENGTH
from gammon.cli.terminal.words import default_names
from gammon.core.errors import GammonError
from gammon.core.game import Rules
from gammon.core.variants import find_variant
from gammon.i18n import _
from gammon.play.levels import find_level

#: The dice a person may choose for ``gammon play``.
PLAY_DICE: tuple[str, ...] = ("random", "cards", "manual")

@dataclass(frozen=True, slots=True)
class PlaySettings:
    """What ``gammon play`` was asked for.

    ``match_length`` 0 is a money session (games until a player stops);
    ``jacoby``, ``beavers`` and ``auto_doubles`` apply to money play only.
    ``seed`` None picks a fresh seed, which the game reports so it can be replayed.
    """

    match_length: int = 3
    variant: str = "standard"
    dice: str = "random"
    level: str = "expert"
    opponent: Literal["computer", "human"] = "computer"
    jacoby: bool = True
    beavers: bool = False
    auto_doubles: int = 0
    seed: int | None = None
    names: tuple[str, str] | None = None
    #: "use-opening-dice" or "reroll"; None: the variant's usual reading (see gammon.core.rules.Rules).
    opening: str | None = None

    def checked(self) -> PlaySettings:
        """These settings with names filled in, or :class:`GammonError` for a bad value."""
        if not 0 <= self.match_length <= MAX_MATCH_LENGTH:
            raise GammonError(_("the match length is 0 (money) to {most} points, not {length}").format(
                most=MAX_MATCH_LENGTH, length=self.match_length))
        find_variant(self.variant)
        if self.dice not in PLAY_DICE:
            raise GammonError(_("unknown dice {dice}: choose one of {choices}").format(
                dice=repr(self.dice), choices=", ".join(PLAY_DICE)))
        if self.opponent not in ("computer", "human"):
            raise GammonError(_("the opponent is 'computer' or 'human', not {opponent}").format(
                opponent=repr(self.opponent)))
        level = find_level(self.level)
        if self.auto_doubles < 0:
            raise GammonError(_("automatic doubles are 0 (off) or a limit above 0"))
        if self.seed is not None and self.seed < 0:
            raise GammonError(_("the seed is a whole number 0 or more, not {seed}").format(seed=self.seed))
        default = default_names(self.opponent == "computer")
        given = self.names or default
        names = tuple(n.strip() or d for n, d in zip(given, default, strict=True))
        if names[0] == names[1]:
            names = (names[0], names[1] + " (2)")
        return PlaySettings(
            self.match_length, self.variant, self.dice, level, self.opponent, self.jacoby,
            self.beavers, self.auto_doubles, self.seed, (names[0], names[1]), self.rules().opening,
        )

    def rules(self) -> Rules:
        """The match rules these settings ask for."""
        money = self.match_length == 0
        return Rules(
            variant=find_variant(self.variant),
            match_length=self.match_length,
            jacoby=money and self.jacoby,
            beavers=money and self.beavers,
            automatic_doubles=self.auto_doubles if money else 0,
            opening=self.opening,
        )


__all__ = ["PLAY_DICE", "PlaySettings"]
