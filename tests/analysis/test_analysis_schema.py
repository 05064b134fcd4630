"""``gammon analyse --json`` keeps to its published schema, ``docs/analysis.schema.json`` (issue 35).

Real analyses (money and match play, every kind of decision: a checker play, a cube decision,
a take, resignations and Acey-Deucey's named double) are validated with ``jsonschema``
(draft 2020-12); the schema fixes every object's keys, so a renamed or dropped key fails.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from typer.testing import CliRunner

from gammon.analysis import analyse_match
from gammon.cli import app
from gammon.core.game import (
    AcceptResignation,
    ChooseDouble,
    Double,
    Move,
    RejectResignation,
    Resign,
    Roll,
    Rules,
    Take,
)
from gammon.core.match import Match
from gammon.core.position import ResultKind
from gammon.formats.record_json import match_to_json
from paths import ROOT

SCHEMA = json.loads((ROOT / "docs" / "analysis.schema.json").read_text(encoding="utf-8"))
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


def _every_kind(rules: Rules) -> Match:
    """A game with a play, a double and its take, a redouble chance, a refused and an accepted resignation."""
    m = Match(rules)
    m.apply(Roll(0, (3, 1)))
    m.apply(Move(0, "8/5 6/5"))
    m.apply(Double(1))
    m.apply(Take(0))
    m.apply(Roll(1, (6, 5)))
    m.apply(Move(1, "24/13"))
    m.apply(Roll(0, (6, 6)))
    m.apply(Move(0, "24/18(2) 13/7(2)"))
    m.apply(Resign(1, ResultKind.SINGLE))
    m.apply(RejectResignation(0))
    m.apply(Resign(1, ResultKind.GAMMON))
    m.apply(AcceptResignation(0))
    return m


def _acey_deucey() -> Match:
    """Acey-Deucey's 1-2 and the double named after it (an unfinished game)."""
    m = Match(Rules(variant="acey-deucey"))
    m.apply(Roll(0, (5, 3)))
    m.apply(Roll(0, (2, 1)))
    m.apply(Move(0, m.game.legal_plays()[0]))
    m.apply(ChooseDouble(0, 4))
    return m


@pytest.fixture(scope="module")
def outputs() -> dict[str, dict[str, Any]]:
    matches = {"money": _every_kind(Rules()), "match": _every_kind(Rules(match_length=7)),
               "acey-deucey": _acey_deucey()}
    return {k: analyse_match(m, ("Ann", "Bob"), plies=0, processes=1).to_dict() for k, m in matches.items()}


def test_the_schema_is_a_valid_draft_2020_12_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"


@pytest.mark.parametrize("name", ["money", "match", "acey-deucey"])
def test_real_analyses_keep_to_the_schema(outputs: dict[str, dict[str, Any]], name: str) -> None:
    VALIDATOR.validate(outputs[name])


def test_the_outputs_hold_every_kind_of_decision(outputs: dict[str, dict[str, Any]]) -> None:
    kinds = {d["kind"] for o in outputs.values() for g in o["games"] for d in g["decisions"]}
    assert kinds == {"move", "cube", "take", "resign", "choice"}
    assert "match_equity_table" in outputs["match"] and "match_equity_table" not in outputs["money"]


def _renamed(d: dict[str, Any], old: str, new: str) -> None:
    d[new] = d.pop(old)


@pytest.mark.parametrize("path", [
    ("result", "luck_adjusted"),            # the top level's objects
    ("players", 0, "pr"),                   # a player's figures
    ("players", 1, "cube_errors", "wrong take"),
    ("games", 0, "luck_points"),            # a game
    ("games", 0, "decisions", 0, "equity_lost"),   # a checker play
    ("games", 0, "decisions", 0, "alternatives", 0, "difference"),
    ("games", 0, "decisions", 1, "cube", "take_point"),  # a cube decision's verdict
    ("games", 0, "decisions", 1, "cube", "mwc", "double_take"),
    ("games", 0, "decisions", -1, "cube", "play_on"),    # a resignation's values
])
def test_a_renamed_key_fails(outputs: dict[str, dict[str, Any]], path: tuple[Any, ...]) -> None:
    bad = copy.deepcopy(outputs["match"])
    parent: Any = bad
    for step in path[:-1]:
        parent = parent[step]
    _renamed(parent, path[-1], path[-1] + "_renamed")
    assert not VALIDATOR.is_valid(bad)


def test_a_cube_verdict_on_a_checker_play_fails(outputs: dict[str, dict[str, Any]]) -> None:
    bad = copy.deepcopy(outputs["money"])
    move, cube = bad["games"][0]["decisions"][:2]
    assert (move["kind"], cube["kind"]) == ("move", "cube")
    move["cube"] = cube["cube"]
    assert not VALIDATOR.is_valid(bad)


def test_the_command_prints_what_the_schema_describes(tmp_path: Path) -> None:
    one, two = tmp_path / "one.json", tmp_path / "two.json"
    one.write_text(match_to_json(_every_kind(Rules(match_length=7)), ("Ann", "Bob")))
    two.write_text(match_to_json(_every_kind(Rules()), ("Cid", "Dee")))
    result = CliRunner().invoke(app, ["analyse", str(one), "--plies", "0", "--json"])
    assert result.exit_code == 0, result.output
    VALIDATOR.validate(json.loads(result.stdout))
    both = CliRunner().invoke(app, ["analyse", str(one), str(two), "--plies", "0", "--json",
                                    "--processes", "1"])
    assert both.exit_code == 0, both.output
    items = json.loads(both.stdout)
    assert [Path(i["file"]).name for i in items] == ["one.json", "two.json"]
    for item in items:
        VALIDATOR.validate(item)
