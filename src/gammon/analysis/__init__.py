"""Analysis of played games and matches, as GNU Backgammon and eXtreme Gammon give it.

Walk a record (:mod:`gammon.analysis.walk`), value every decision with the
engine (:mod:`gammon.analysis.valuation`, :mod:`gammon.analysis.decisions`):
the best plays and the equity lost, cube errors, the luck of every roll; add
up error rates, marks, PR and luck per player (:mod:`gammon.analysis.stats`,
:mod:`gammon.analysis.marks`); explain mistakes in words
(:mod:`gammon.analysis.explain`); draw the equity graph and boards and write
reports (:mod:`gammon.analysis.graph`, :mod:`gammon.analysis.report`).
"""

from gammon.analysis.analyse import (
    DEFAULT_PLIES,
    GameAnalysis,
    MatchAnalysis,
    analyse_file,
    analyse_match,
    analyse_record,
)
from gammon.analysis.decisions import Alternative, Decision
from gammon.analysis.stats import PlayerStats

__all__ = [
    "DEFAULT_PLIES", "Alternative", "Decision", "GameAnalysis", "MatchAnalysis", "PlayerStats",
    "analyse_file", "analyse_match", "analyse_record",
]
