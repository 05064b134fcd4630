"""Hostile input to every command: one ``error:`` line and a non-zero exit, never a traceback.

Three layers:

* the invocations the issue reported (huge match lengths in XGIDs, 10**20
  trials, ``/dev/zero`` as a record, random bytes as weights, ``--port 99999``...),
  run in-process;
* a few of them as real processes under a memory limit and a time-out, the
  way a person meets them (a hang or runaway memory fails the test);
* a property test that feeds every command random and hostile arguments.  The
  heavy back-ends (server, training, rollouts, self-play, the terminal game)
  are replaced by stand-ins that check the values they receive are within the
  limits the edge promises, so a value that slips through fails the test.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from gammon.cli import app
from gammon.cli.limits import MAX_HIDDEN, MAX_MATCH_LENGTH, MAX_SEED, MAX_TRIALS, max_processes
from paths import ROOT

START = "4HPwATDgc/ABMA"
XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:{length}:10"
HUGE = "99999999999999999999"

runner = CliRunner()


def assert_one_line_error(code: int, stdout: str, stderr: str) -> None:
    """A refusal: non-zero exit, the last line of stderr is ``error: ...``, no traceback."""
    assert code not in (0, None), (stdout, stderr)
    assert "Traceback" not in stdout + stderr
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert lines, (stdout, stderr)
    assert lines[-1].startswith("error: "), stderr
    assert len(lines) == 1, stderr


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("hostile")
    rng = np.random.default_rng(5)
    out = {
        "binary": d / "binary.json",
        "random_npz": d / "random.npz",
        "empty_npz": d / "empty.npz",
        "truncated_npz": d / "truncated.npz",
        "pickle_npz": d / "pickle.npz",
        "wrong_shape_npz": d / "shape.npz",
        "nan_npz": d / "nan.npz",
        "zero_json": d / "zero.json",
        "deep_json": d / "deep.json",
        "run": d / "run",
    }
    out["binary"].write_bytes(rng.integers(0, 256, 4000, dtype=np.uint8).tobytes())
    out["random_npz"].write_bytes(b"PK" + rng.integers(0, 256, 4000, dtype=np.uint8).tobytes())
    out["empty_npz"].write_bytes(b"")
    shipped = ROOT / "src" / "gammon" / "ai" / "data" / "weights.npz"
    out["truncated_npz"].write_bytes(shipped.read_bytes()[:5000])
    np.savez(out["pickle_npz"], w1=np.array([{"a": 1}], dtype=object))
    np.savez(out["wrong_shape_npz"], w1=np.zeros((1, 214, 3)), b1=np.zeros((1, 3)),
             w2=np.zeros((1, 3, 5)), b2=np.zeros((1, 5)))
    np.savez(out["nan_npz"], w1=np.full((2, 214, 3), np.nan), b1=np.zeros((2, 3)),
             w2=np.zeros((2, 3, 5)), b2=np.zeros((2, 5)))
    out["zero_json"].symlink_to("/dev/zero")
    out["deep_json"].write_text("[" * 200_000 + "]" * 200_000)
    out["run"].mkdir()
    (out["run"] / "checkpoint.npz").write_bytes(b"not a checkpoint")
    return out


def _reported(files: dict[str, Path]) -> list[list[str]]:
    f = {k: str(v) for k, v in files.items()}
    return [
        ["eval", XGID.format(length=100000)],
        ["eval", XGID.format(length=HUGE)],
        ["show", XGID.format(length=HUGE)],
        ["show", XGID.format(length=65)],
        ["hint", XGID.format(length=100000)],
        ["hint", XGID.format(length=HUGE), "52"],
        ["moves", XGID.format(length=HUGE)],
        ["rollout", START, "--trials", HUGE],
        ["rollout", START, "--trials", str(MAX_TRIALS + 1)],
        ["rollout", START, "--seed", HUGE],
        ["rollout", START, "--seed", "-1"],
        ["rollout", START, "--processes", "99999"],
        ["rollout", START, "--processes", "0"],
        ["rollout", START, "--target-se", "nan"],
        ["rollout", START, "--truncate", "-5"],
        ["rollout", XGID.format(length=100000)],
        ["verify", f["binary"]],
        ["verify", "/dev/zero"],
        ["verify", f["zero_json"]],
        ["verify", f["deep_json"]],
        ["verify", "/etc"],
        ["verify", "/nonexistent/x.json"],
        ["hint", START, "31", "--weights", f["random_npz"]],
        ["hint", START, "31", "--weights", f["empty_npz"]],
        ["eval", START, "--weights", f["truncated_npz"]],
        ["eval", START, "--weights", f["pickle_npz"]],
        ["eval", START, "--weights", f["wrong_shape_npz"]],
        ["eval", START, "--weights", f["nan_npz"]],
        ["eval", START, "--weights", "/dev/zero"],
        ["eval", START, "--plies", "99"],
        ["hint", START, "31", "--count", HUGE],
        ["train", "--out", "/etc/passwd", "--games", "10"],
        ["train", "--out", f["run"], "--games", "10"],
        ["train", "--out", f["run"], "--games", "10", "--resume"],
        ["train", "--out", "/nonexistent/dir", "--games", "10"],
        ["train", "--out", f["run"] + "2", "--hidden", "99999999999"],
        ["train", "--out", f["run"] + "2", "--alpha", "inf"],
        ["train", "--out", f["run"] + "2", "--games", HUGE],
        ["serve", "--port", "99999"],
        ["serve", "--port", "0"],
        ["serve", "--database-url", "sqlite:////nonexistent-dir/x.db"],
        ["selfplay", "--variant", "dutch", "--out", f["run"] + ".mat"],
        ["selfplay", "--games", HUGE, "--out", f["run"] + ".json"],
        ["selfplay", "--match-length", "100000", "--out", f["run"] + ".json"],
        ["selfplay", "--seed", HUGE, "--out", f["run"] + ".json"],
        ["selfplay", "--dice", "manual", "--out", f["run"] + ".json"],
        ["selfplay", "--dice", "crypto", "--out", f["run"] + ".sgf"],
        ["selfplay", "--out", "/etc/passwd.txt"],
        ["convert", f["binary"], f["run"] + ".mat"],
        ["convert", "/dev/zero", f["run"] + ".mat"],
        ["convert", f["deep_json"], f["run"] + ".sgf"],
        ["play", "--match-length", HUGE],
        ["play", "--seed", HUGE],
        ["play", "--auto-doubles", "99999"],
        ["play", "--name", "x" * 10_000],
        ["play", "--dice", "manual", "--seed", "3"],
        ["play", "--resume", f["binary"]],
        ["play", "--resume", "/dev/zero"],
        ["bearoff-build", "--out", "/nonexistent/dir/db.npz"],
        ["moves", "x" * 100_000, "31"],
        ["nosuchcommand"],
        ["rollout"],
    ]


def test_every_reported_invocation_is_refused_in_one_line(files: dict[str, Path]) -> None:
    cases = _reported(files)
    for args in cases:
        result = runner.invoke(app, args)
        assert_one_line_error(result.exit_code, result.stdout, result.stderr)
    assert len(cases) >= 60


def _limit_memory() -> None:  # pragma: no cover - runs in the child
    limit = 3 * 1024**3
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


@pytest.mark.parametrize(
    "args",
    [
        ["eval", XGID.format(length=100000)],
        ["verify", "/dev/zero"],
        ["rollout", START, "--trials", HUGE],
        ["rollout", START, "--processes", "99999"],
        ["train", "--hidden", "99999999999", "--out", "{tmp}/run"],
        ["serve", "--port", "99999"],
        ["hint", START, "31", "--weights", "/dev/urandom"],
    ],
)
def test_hostile_invocations_as_processes_end_quickly_in_bounded_memory(
    args: list[str], tmp_path: Path
) -> None:
    """A real process, with 3 GiB of address space at most; the time-out catches a hang."""
    argv = [a.replace("{tmp}", str(tmp_path)) for a in args]
    proc = subprocess.run(
        [sys.executable, "-m", "gammon", *argv], capture_output=True, text=True, timeout=120,
        preexec_fn=_limit_memory, env={**os.environ, "NO_COLOR": "1"},
    )
    assert_one_line_error(proc.returncode, proc.stdout, proc.stderr)
    assert proc.returncode == 2


# -- the property test ----------------------------------------------------------


class _Reached(BaseException):
    """A stand-in back-end was called: the arguments passed the edge (not an Exception, so
    the CLI's last line of defence lets it through to the test)."""


class _Escaped(BaseException):
    """A stand-in back-end received a value outside the limits the edge promises."""


def _within(condition: bool, what: str) -> None:
    if not condition:
        raise _Escaped(what)


def _stand_ins(monkeypatch: pytest.MonkeyPatch) -> None:
    """Replace the heavy back-ends with checks of what the edge let through."""
    import gammon.ai.rollout as rollout_mod
    import gammon.cli.terminal.loop as play_mod
    import gammon.play.selfplay as selfplay_mod
    import gammon.training.train as train_mod
    import gammon.web.server as server_mod

    def serve(host: str, port: int, url: Any = None, **_: Any) -> None:
        _within(1 <= port <= 65535, f"port {port}")
        raise _Reached

    def train(settings: Any, out: Any, **_: Any) -> None:
        _within(1 <= settings.hidden <= MAX_HIDDEN and 0 <= settings.seed <= MAX_SEED, str(settings))
        raise _Reached

    def rollout(pos: Any, ev: Any, s: Any, **_: Any) -> None:
        _within(1 <= s.trials <= MAX_TRIALS and 1 <= s.processes <= max_processes(), str(s))
        _within(0 <= s.seed <= MAX_SEED, str(s))
        raise _Reached

    def selfplay(games: int, seed: int, match_length: int, *a: Any, **k: Any) -> None:
        _within(0 <= match_length <= MAX_MATCH_LENGTH and 0 <= seed <= MAX_SEED, f"{match_length} {seed}")
        raise _Reached

    def play(settings: Any, **_: Any) -> int:
        _within(0 <= settings.match_length <= MAX_MATCH_LENGTH, str(settings))
        raise _Reached

    monkeypatch.setattr(server_mod, "serve", serve)
    monkeypatch.setattr(train_mod, "train", train)
    monkeypatch.setattr(rollout_mod, "rollout", rollout)
    monkeypatch.setattr(selfplay_mod, "run_selfplay", selfplay)
    monkeypatch.setattr(play_mod, "run_terminal_game", play)


COMMANDS: dict[str, list[str]] = {
    "moves": ["--json", "--variant"],
    "show": ["--variant"],
    "hint": ["--plies", "--level", "--count", "--json", "--weights", "--variant"],
    "eval": ["--plies", "--level", "--json", "--weights", "--variant"],
    "rollout": ["--trials", "--seed", "--truncate", "--cubeful", "--cube", "--processes", "--target-se",
                "--play", "--dice", "--variant", "--json"],
    "selfplay": ["--out", "--games", "--seed", "--match-length", "--variant", "--dice", "--force"],
    "verify": [],
    "convert": ["--force"],
    "train": ["--out", "--games", "--resume", "--seed", "--hidden", "--alpha", "--lambda", "--force"],
    "serve": ["--host", "--port", "--database-url"],
    "play": ["--match-length", "--variant", "--dice", "--level", "--seed", "--auto-doubles",
             "--name", "--resume", "--two-players"],
    "bearoff-build": [],
}

HOSTILE_VALUES = [
    HUGE, "-" + HUGE, "-1", "0", "65", "100000", "1e400", "nan", "inf", "-inf", "", " ", "\x00",
    "\n", "../../../../etc/passwd", "/dev/zero", "/dev/urandom", "/etc/passwd", "/etc", "x.mat",
    "x.sgf", "x.json", "x.npz", START, XGID.format(length=HUGE), XGID.format(length=100000),
    "sqlite:////nonexistent/x.db", "31", "3-1", "66", "dutch", "acey-deucey", "--help",
]


@st.composite
def invocations(draw: st.DrawFn) -> list[str]:
    command = draw(st.sampled_from(sorted(COMMANDS)))
    tokens: list[str] = [command]
    value = st.one_of(
        st.sampled_from(HOSTILE_VALUES),
        st.integers(min_value=-(2**80), max_value=2**80).map(str),
        st.text(max_size=30),
    )
    for _ in range(draw(st.integers(0, 6))):
        options = COMMANDS[command]
        if options and draw(st.booleans()):
            tokens.append(draw(st.sampled_from(options)))
        tokens.append(draw(value))
    return [t for t in tokens if t != "--help" or command == tokens[0]]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(args=invocations())
def test_random_and_hostile_arguments_never_escape_the_edge(
    args: list[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _stand_ins(monkeypatch)
    monkeypatch.chdir(tmp_path)
    try:
        result = runner.invoke(app, args, input="")
    except _Reached:
        return  # the edge let only values within the limits through (checked by the stand-in)
    except _Escaped as exc:
        pytest.fail(f"{args} reached the back-end with {exc}")
    assert "internal error" not in result.stderr, (args, result.stderr)
    assert result.exception is None or isinstance(result.exception, SystemExit), (args, result.exception)
    assert "Traceback" not in result.stdout + result.stderr, args
    if result.exit_code != 0:
        assert_one_line_error(result.exit_code, result.stdout, result.stderr)
