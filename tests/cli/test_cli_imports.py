"""Every command starts with ``import gammon.cli``: it must not load the game loop or the record
formats, which only some commands use (an engine command's start-up is part of its time)."""

from __future__ import annotations

import subprocess
import sys

import gammon.play

_HEAVY = ("gammon.core.game", "gammon.formats.record_files", "gammon.play.session", "gammon.play.selfplay")


def test_the_command_line_loads_neither_the_game_loop_nor_the_record_formats() -> None:
    code = f"import sys, gammon.cli; print(' '.join(m for m in {_HEAVY} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == []
    # and a command that needs them still finds them
    code = "import gammon.cli.record_commands as r; r.write_record; import gammon.formats.record_files"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_the_play_package_names_load_on_first_use() -> None:
    from gammon.play import HeuristicPlayer, Session, play_match, run_selfplay

    assert Session.__module__ == "gammon.play.session" and play_match.__module__ == "gammon.play.session"
    assert HeuristicPlayer.__module__ == "gammon.play.players"
    assert run_selfplay.__module__ == "gammon.play.selfplay"
    assert gammon.play.Session is Session
    try:
        gammon.play.NoSuchName  # noqa: B018
    except AttributeError as exc:
        assert "gammon.play" in str(exc) and "NoSuchName" in str(exc)
    else:  # pragma: no cover
        raise AssertionError("an unknown name must raise AttributeError")
