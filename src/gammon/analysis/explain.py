"""Mistakes explained in words (filled in below)."""

from __future__ import annotations

from gammon.analysis.decisions import Decision
from gammon.analysis.valuation import Valuer
from gammon.analysis.walk import Task


def explain_decision(task: Task, decision: Decision, valuer: Valuer) -> str | None:
    return None
