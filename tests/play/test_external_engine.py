"""The gammon engine protocol (``gammon engine``): handshake, options, positions, decisions, errors."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from gammon.core.errors import GammonError
from gammon.core.position import Position
from gammon.core.xgid import parse_xgid
from gammon.play.engine_protocol import MAX_LINE, EngineProtocol, decision_from_xgid, serve_stdio

START = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:7:10"
START_DOUBLED = "XGID=-b----E-C---eE---c-e----B-:0:0:1:D:2:5:0:7:10"
#: A race: the player on roll (15 checkers on its 1-5 points) far ahead.
RACE = Position([3, 3, 3, 3, 3] + [0] * 20, [0] * 6 + [3, 3, 3, 3, 3] + [0] * 14)


@pytest.fixture
def heuristic() -> EngineProtocol:
    return EngineProtocol("heuristic", seed=1)


def test_handshake_names_the_engine_and_its_options(heuristic: EngineProtocol) -> None:
    reply = heuristic.handle("gep")
    assert reply[0].startswith("id name gammon ")
    assert reply[-1] == "gepok"
    options = [r for r in reply if r.startswith("option name ")]
    assert {o.split()[2] for o in options} == {"Level", "Seed", "Jacoby", "Beavers"}
    assert "var strongest" in next(o for o in options if "Level" in o)
    assert heuristic.handle("isready") == ["readyok"]


def test_go_answers_the_decision_the_position_asks_for(heuristic: EngineProtocol) -> None:
    assert heuristic.handle("position startpos dice 31") == []
    (best,) = heuristic.handle("go")
    assert best.startswith("bestmove ")
    play = Position.initial().parse_play(best.removeprefix("bestmove "), (3, 1))
    assert play in Position.initial().legal_plays((3, 1))
    heuristic.handle(f"position xgid {START}")
    assert heuristic.handle("go")[0] in ("cubeaction double", "cubeaction no-double")
    heuristic.handle(f"position xgid {START_DOUBLED}")
    assert heuristic.handle("go")[0] in ("cubeanswer take", "cubeanswer drop")


def test_the_kind_of_decision_must_fit_the_position(heuristic: EngineProtocol) -> None:
    heuristic.handle(f"position xgid {START}")
    assert heuristic.handle("go move")[0].startswith("error no dice")
    assert heuristic.handle("go take")[0].startswith("error no double is pending")
    heuristic.handle("dice 52")
    assert heuristic.handle("go cube")[0].startswith("error the dice are rolled")
    assert heuristic.handle("go move")[0].startswith("bestmove ")
    assert heuristic.handle("go sideways")[0].startswith("error write: go")


def test_a_roll_that_cannot_be_played_is_a_pass(heuristic: EngineProtocol) -> None:
    closed_out = Position([0] * 5 + [14] + [0] * 18 + [1], [2, 2, 2, 2, 2, 2, 3] + [0] * 18)
    heuristic.handle(f"position xgid {closed_out.xgid}")
    heuristic.handle("dice 65")
    assert heuristic.handle("go") == ["bestmove pass"]
    assert heuristic.handle("moves") == ["moves 1", "move pass"]


def test_moves_lists_every_legal_play(heuristic: EngineProtocol) -> None:
    heuristic.handle("position startpos dice 31")
    reply = heuristic.handle("moves")
    assert reply[0] == "moves 16" and len(reply) == 17
    assert "move 8/5 6/5" in reply


def test_the_xgid_brings_the_match_state_to_the_player() -> None:
    d = decision_from_xgid(parse_xgid("XGID=-b----E-C---eE---c-e----B-:1:1:1:00:3:6:0:7:10"))
    assert d.kind == "cube" and d.score == (3, 6) and d.cube == 2 and d.cube_owner == 0
    assert d.match_length == 7
    take = decision_from_xgid(parse_xgid("XGID=-b----E-C---eE---c-e----B-:1:1:1:D:3:5:0:7:10"))
    # The doubler owns the cube from the taker's side it is the other side's; the score turns too.
    assert take.kind == "take" and take.score == (5, 3) and take.cube_owner == 1
    assert take.position == parse_xgid(START).position.swap()
    crawford = decision_from_xgid(parse_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:6:3:1:7:10"))
    assert crawford.crawford and not crawford.game().can_double()


def test_the_engine_evaluates_and_decides_like_a_player() -> None:
    p = EngineProtocol("expert")
    p.handle(f"position xgid {RACE.xgid}")
    (line,) = p.handle("eval")
    words = line.split()[1:]  # after "eval": name value pairs
    values = dict(zip(words[::2], words[1::2], strict=False))
    assert float(values["win"]) > 0.9
    assert values["cube"] in ("double/pass", "too-good-to-double")
    assert p.handle("go") in (["cubeaction double"], ["cubeaction no-double"])
    p.handle(f"position xgid {RACE.swap().xgid}")
    p.handle("setoption name Beavers value true")
    # The opponent (far ahead) doubles the player on roll of RACE.swap(): hopeless, so drop.
    doubled = RACE.xgid.replace(":0:0:1:00:", ":0:0:1:D:")
    p.handle(f"position xgid {doubled}")
    assert p.handle("go") == ["cubeanswer drop"]
    p.handle("position startpos dice 31")
    assert p.handle("go") == ["bestmove 8/5 6/5"]
    hints = p.handle("hint 3")
    assert len(hints) == 3 and hints[0].startswith("hint 1 8/5 6/5 equity ")


def test_options_are_checked(heuristic: EngineProtocol) -> None:
    assert heuristic.handle("setoption name Level value strongest") == []
    assert heuristic.level == "strongest"
    assert heuristic.handle("setoption name Level value godlike")[0].startswith("error unknown level")
    assert heuristic.handle("setoption name Seed value 12") == [] and heuristic.seed == 12
    assert heuristic.handle("setoption name Seed value x")[0].startswith("error Seed")
    assert heuristic.handle("setoption name Jacoby value maybe")[0].startswith("error Jacoby")
    assert heuristic.handle("setoption name Colour value red")[0].startswith("error unknown option")
    assert heuristic.handle("setoption Level strongest")[0].startswith("error write: setoption")


def test_bad_commands_get_one_error_line_and_the_session_goes_on(heuristic: EngineProtocol) -> None:
    for bad in ("frobnicate", "position", "position xgid nonsense", "position startpos dice 70",
                "dice", "dice 3", "hint 0", "hint x", "go move", "eval", "x" * (MAX_LINE + 1),
                "position xgid XGID=zzz:0:0:1:00:0:0:0:0:10"):
        reply = heuristic.handle(bad)
        assert len(reply) == 1 and reply[0].startswith("error "), (bad, reply)
    assert heuristic.handle("") == []
    assert heuristic.handle("show") == [f"position xgid {START.replace(':0:7:10', ':0:0:10')}"]


def test_the_session_runs_over_streams_until_quit() -> None:
    out = io.StringIO()
    script = "gep\nposition startpos dice 31\n" + "x" * (MAX_LINE * 2) + "\nmoves\nquit\nmoves\n"
    serve_stdio(EngineProtocol("heuristic"), io.StringIO(script), out)
    lines = out.getvalue().splitlines()
    assert lines[-18].startswith("error command longer than")
    assert lines[-17] == "moves 16"
    assert lines.count("moves 16") == 1  # nothing after quit


def test_gammon_engine_command_speaks_the_protocol() -> None:
    run = subprocess.run([sys.executable, "-m", "gammon", "engine", "--level", "heuristic"],
                         input="gep\nisready\nposition startpos dice 64\ngo\nquit\n", capture_output=True,
                         text=True, timeout=120, check=False)
    assert run.returncode == 0
    lines = run.stdout.splitlines()
    assert lines[0].startswith("id name gammon") and "gepok" in lines and "readyok" in lines
    assert lines[-1].startswith("bestmove ")


def _one_error_line(stderr: str) -> None:
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), stderr
    assert "Traceback" not in stderr


@pytest.mark.parametrize("seed", ["-1", str(2**63), "99999999999999999999999"])
def test_engine_and_external_refuse_a_seed_out_of_range(seed: str) -> None:
    from typer.testing import CliRunner

    from gammon.cli import app

    for command in (["engine"], ["external", "--listen", "127.0.0.1:0"]):
        result = CliRunner().invoke(app, [*command, "--level", "heuristic", "--seed", seed], input="quit\n")
        assert result.exit_code == 2, (command, result.output)
        _one_error_line(result.stderr)
        assert "--seed" in result.stderr


def test_the_seed_option_refuses_negative_and_oversized_numbers(heuristic: EngineProtocol) -> None:
    for bad in ("-1", str(2**63), "1.5", "٣"):
        reply = heuristic.handle(f"setoption name Seed value {bad}")
        assert len(reply) == 1 and reply[0].startswith("error Seed"), (bad, reply)
    assert heuristic.seed == 1
    assert heuristic.handle(f"setoption name Seed value {2**63 - 1}") == [] and heuristic.seed == 2**63 - 1
    with pytest.raises(GammonError):
        EngineProtocol("heuristic", seed=-1)


def test_input_that_never_ends_a_line_is_given_up(tmp_path: Path) -> None:
    """``gammon engine < /dev/zero`` used to read for ever in silence; now it stops with one error line."""
    with open("/dev/zero", "rb") as zero:
        run = subprocess.run([sys.executable, "-m", "gammon", "engine", "--level", "heuristic"], stdin=zero,
                             capture_output=True, text=True, timeout=120, check=False)
    assert run.returncode == 2
    _one_error_line(run.stderr)
    assert "without an end" in run.stderr
    assert run.stdout.splitlines()[-1].startswith("error the input has a line")
    # Bytes that are not UTF-8 are unknown commands, and the session goes on to the end of input.
    binary = tmp_path / "binary"
    binary.write_bytes(b"\xff\xfe\x00garbage\ngep\nquit\n")
    with binary.open("rb") as f:
        run = subprocess.run([sys.executable, "-m", "gammon", "engine", "--level", "heuristic"], stdin=f,
                             capture_output=True, text=True, timeout=120, check=False)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[0].startswith("error unknown command") and "gepok" in run.stdout
