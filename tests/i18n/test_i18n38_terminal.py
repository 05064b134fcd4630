"""The terminal game in the players' languages: ``gammon play`` under ``LANG=pl_PL.UTF-8``
speaks Polish and under ``--lang sv`` Swedish (a real pseudo-terminal, as a person plays),
and a scripted session in each language shows none of the English messages.
"""

from __future__ import annotations

import io
import os
import re
import signal
import sys
from collections.abc import Iterable
from typing import Any

import pytest
from rich.console import Console

from gammon.cli.board import board_text
from gammon.cli.terminal.loop import TerminalGame
from gammon.cli.terminal.settings import PlaySettings
from gammon.core.position import Position
from gammon.i18n import use_language
from gammon.i18n.catalogs import TRANSLATED, extract, fields, read_catalog

pexpect = pytest.importorskip("pexpect")

#: A session that reaches many messages: help, the board, refused commands, the list of
#: plays, plays by number, and leaving (English y is read in every language).
SCRIPT = ["help", "board", "undo", "double", "", "moves", "1", "", "1", "", "1", "quit", "y"]


def session(language: str, lines: Iterable[str] = SCRIPT) -> str:
    """Everything a scripted game in ``language`` shows (prompts included)."""
    out = io.StringIO()
    feed = iter(lines)

    def answer(prompt: str) -> str:
        out.write(prompt)
        try:
            line = next(feed)
        except StopIteration:
            raise EOFError from None
        out.write(line + "\n")
        return line

    console = Console(file=out, width=1000, highlight=False)
    with use_language(language):
        settings = PlaySettings(seed=1, level="heuristic")
        TerminalGame(settings, input_fn=answer, console=console).run()
    return out.getvalue()


def english_fragments() -> set[str]:
    """The English text between the fields of each message translated otherwise, 12 characters or more."""
    template = extract()
    changed = set()
    for language in TRANSLATED:
        for message in read_catalog(language):
            if message.id and isinstance(message.id, str) and message.string != message.id:
                changed.add(message.id)
    fragments = set()
    for msgid in changed & {m.id for m in template if isinstance(m.id, str)}:
        names = fields(msgid)
        pieces = re.split(r"\{[a-z_]+\}", msgid) if names else [msgid]
        for piece in pieces:
            for line in piece.splitlines():
                if len(line.strip()) >= 12:
                    fragments.add(line.strip())
    return fragments


def test_the_english_session_shows_the_english_messages() -> None:
    """The check below can fail: in English the same session shows many of the fragments."""
    shown = session("en")
    found = [f for f in english_fragments() if f in shown]
    assert len(found) >= 15, found
    assert "[You] roll or double > " in shown or "[You] play " in shown


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_session_shows_no_english_message(language: str) -> None:
    shown = session(language)
    leaked = sorted(f for f in english_fragments() if f in shown)
    assert leaked == []
    assert "Position ID" not in shown
    assert "Type 'help' for the commands." not in shown


def test_the_board_speaks_polish() -> None:
    with use_language("pl"):
        text = board_text(Position.initial(), cube=1, score=(0, 0), match_length=3, names=("Ty", "Komputer"))
    assert "|PAS|" in text and "|ZDJ|" in text
    assert "oczka 167   zdjęte 0" in text
    assert "mecz do 3 pkt" in text
    assert "ID pozycji: 4HPwATDgc/ABMA" in text
    assert "Ty  (na ruchu)" in text
    english = board_text(Position.initial(), cube=1, score=(0, 0), match_length=3, names=("You", "Computer"))
    assert "|BAR|" in english and "pips 167   off 0" in english and "Position ID: 4HPwATDgc/ABMA" in english


def test_yes_and_no_in_the_language_in_use() -> None:
    """The Polish prompt offers [t/N]; t (tak) is read as yes, and n (nie) as no."""
    shown = session("pl", ["quit", "n", "quit", "t"])
    assert "Wyjść i porzucić dotychczas rozegrany mecz? [t/N] > n" in shown
    assert "Gramy dalej." in shown
    assert shown.rstrip().endswith("Do widzenia.")


# -- a pseudo-terminal, as a person starts it -------------------------------------------------------


def _as_a_shell_starts_it() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_SETMASK, set())


def spawn(env_language: dict[str, str], *args: str) -> Any:
    env = {"PATH": "/usr/bin:/bin", "TERM": "dumb", "NO_COLOR": "1", **env_language}
    for name in ("NUMBA_CACHE_DIR", "PYTHONPATH"):  # the compiled engine and the code under test
        if name in os.environ:
            env[name] = os.environ[name]
    return pexpect.spawn(
        sys.executable, ["-m", "gammon", "play", "--seed", "7", "--level", "heuristic", *args], env=env,
        encoding="utf-8", timeout=120, dimensions=(24, 80), preexec_fn=_as_a_shell_starts_it,
    )


def _plain(log: str) -> str:
    """The screen's text with the terminal's line wrapping undone (80 columns)."""
    return " ".join(log.split())


def _leave(child: Any, yes: str) -> str:
    child.sendline("quit")
    child.expect(r"\[[a-z]/N\] > ")
    child.sendline(yes)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    return _plain(str(child.logfile_read.getvalue()))


def test_lang_pl_from_the_locale_shows_polish_prompts() -> None:
    """``LANG=pl_PL.UTF-8 gammon play``: the first screen, the board and the prompt are Polish."""
    child = spawn({"LANG": "pl_PL.UTF-8"})
    child.logfile_read = io.StringIO()
    child.expect("ID pozycji")
    child.expect(r"\[Ty\] zagraj \d-\d > ")
    first_screen = _plain(child.logfile_read.getvalue())
    assert "gammon: mecz do 3 pkt w Backgammon, reguła Crawforda; losowe kości (ziarno 7)." in first_screen
    assert "Ty – O, na dole; Komputer – X (poziom heuristic)." in first_screen
    assert "Wpisz 'help', aby zobaczyć polecenia." in first_screen
    assert re.search(r"Rzut otwierający: Ty \d, Komputer \d\. Ty zaczynasz z \d-\d\.", first_screen)
    assert "|PAS|" in first_screen and "oczka 167" in first_screen
    assert first_screen.startswith("gammon: uruchamiam...")  # printed before anything else loads
    child.sendline("help")
    child.expect_exact("Polecenia wpisuje się po angielsku:")
    child.expect(r"\[Ty\] zagraj \d-\d > ")
    log = _leave(child, "t")
    assert "Wyjść i porzucić dotychczas rozegrany mecz? [t/N]" in log
    assert "Do widzenia." in log
    for english in ("[You]", "Type 'help'", "Opening roll", "Position ID", "play O, at the bottom"):
        assert english not in log


def test_lang_option_sv_shows_swedish_prompts() -> None:
    """``--lang sv`` wins over the locale (here Polish)."""
    child = spawn({"LANG": "pl_PL.UTF-8"}, "--lang", "sv")
    child.logfile_read = io.StringIO()
    child.expect(r"\[Du\] spela \d-\d > ")
    first_screen = _plain(child.logfile_read.getvalue())
    assert ("gammon: en match till 3 poäng i Backgammon, Crawfordregeln; slumpmässiga tärningar (frö 7)."
            in first_screen)
    assert "Du spelar O, nederst; Datorn spelar X (nivå heuristic)." in first_screen
    assert "Skriv 'help' för kommandona." in first_screen
    assert re.search(r"Öppningsslag: Du \d, Datorn \d\. Du börjar med \d-\d\.", first_screen)
    assert first_screen.startswith("gammon: startar...")
    log = _leave(child, "j")
    assert "Avsluta och kasta bort matchen som spelats hittills? [j/N]" in log
    assert "Hej då." in log
    assert "Wpisz" not in log and "[You]" not in log


def test_an_unknown_language_is_english_without_an_error() -> None:
    child = spawn({"LANG": "de_DE.UTF-8"}, "--lang", "tlh")
    child.logfile_read = io.StringIO()
    child.expect_exact("Type 'help' for the commands.")
    child.expect(r"\[You\] play \d-\d > ")
    log = _leave(child, "y")
    assert "Bye." in log


# -- gammon analyse's summary ------------------------------------------------------------------------


def test_the_analysis_summary_in_polish_and_its_files_in_english(tmp_path: Any) -> None:
    from typer.testing import CliRunner

    from gammon.cli import app
    from gammon.formats.mat import write_mat
    from gammon.play.selfplay import run_selfplay

    record = tmp_path / "m.mat"
    record.write_text(write_mat(run_selfplay(1, 5, match_length=3), ("Ann", "Bob")))
    runner = CliRunner()
    english_sgf, sgf = tmp_path / "en.sgf", tmp_path / "pl.sgf"
    english = runner.invoke(app, ["analyse", str(record), "--plies", "0", "--annotated", str(english_sgf)])
    assert english.exit_code == 0, english.output
    assert "checker error rate (mEMG)" in english.stdout and "luck-adjusted" in english.stdout
    polish = runner.invoke(app, ["analyse", str(record), "--plies", "0", "--lang", "pl", "--annotated",
                                 str(sgf)], env={"LANG": "sv_SE.UTF-8"})
    assert polish.exit_code == 0, polish.output
    out = " ".join(polish.stdout.split())
    assert "Ann przeciw Bob" in out and "mecz do 3 pkt" in out and "analiza na 0 ply" in out
    assert "wskaźnik błędów, pionki (mEMG)" in out and "po odjęciu szczęścia" in out
    for english_word in ("checker error rate", "luck-adjusted", "unforced moves", "analysed at"):
        assert english_word not in out
    assert sgf.read_text() == english_sgf.read_text()  # the file written stays English
    swedish = runner.invoke(app, ["analyse", str(record), "--plies", "0"], env={"LC_ALL": "sv_SE.UTF-8"})
    assert "Ann mot Bob" in swedish.stdout and "felfrekvens, pjäser (mEMG)" in " ".join(swedish.stdout.split())


# -- gammon play's errors for bad options ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "polish"),
    [
        (["--name", "Ann\x1b[2J"], "--name nie może zawierać znaków sterujących"),
        (["--name", "x" * 500], "--name jest za długie (500 znaków; najwyżej"),
        (["--dice", "loaded"], "nieznane kości 'loaded': wybierz jedno z: random, cards, manual"),
        (["--dice", "manual", "--seed", "3"], "z --dice manual rzuty wpisujesz sam"),
    ],
)
def test_bad_play_options_are_refused_in_the_language_chosen(args: list[str], polish: str) -> None:
    from typer.testing import CliRunner

    from gammon.cli import app

    result = CliRunner().invoke(app, ["play", "--lang", "pl", *args])
    assert result.exit_code == 2, result.output
    assert polish in " ".join(result.output.split())
    assert "Traceback" not in result.output


def test_play_in_polish_leaves_no_polish_behind() -> None:
    """The test before ran ``gammon play --lang pl`` in this process; conftest set English back."""
    from gammon.i18n import _, current_language

    assert current_language() == "en" and _("Bye.") == "Bye."


# -- core's refusals in the players' language ------------------------------------------------------------


def test_a_refused_play_is_explained_in_polish_and_in_english_as_before() -> None:
    lines = ["", "xyzzy", "24/1", "quit", "y"]
    polish = session("pl", lines)
    assert "! nie mogę odczytać ruchu 'xyzzy': sprawdź znak nr 1" in polish
    assert "! '24/1' nie jest dozwolonym ruchem przy tym rzucie; najbliższe dozwolone ruchy: " in polish
    assert "cannot read the play" not in polish and "closest legal plays" not in polish
    english = session("en", lines)
    assert "! cannot read the play 'xyzzy': at character 1 expected" in english
    assert "closest legal plays: " in english


def test_core_refusals_by_their_code() -> None:
    from gammon.core.errors import IllegalActionError, Reason
    from gammon.i18n.errors import REASONS, error_text

    assert set(Reason) - set(REASONS) == {Reason.BAD_VALUE}  # a new reason needs its sentence
    refusal = IllegalActionError("cannot double: the opponent owns the cube", Reason.NOT_CUBE_OWNER)
    assert error_text(refusal) == str(refusal)
    with use_language("pl"):
        assert error_text(refusal) == "nie można podwoić: kostka należy do przeciwnika"
        detail = IllegalActionError("the double must be a number from 1 to 6, not 9", Reason.BAD_VALUE)
        assert error_text(detail) == str(detail)
    with use_language("da"):
        assert error_text(refusal) == "kan ikke doble: modspilleren ejer dobbeltterningen"


def test_manual_dice_prompts_and_refusals_in_swedish() -> None:
    out = io.StringIO()
    feed = iter(["97", "quit", "j"])

    def answer(prompt: str) -> str:
        out.write(prompt)
        line = next(feed)
        out.write(line + "\n")
        return line

    with use_language("sv"):
        settings = PlaySettings(seed=None, level="heuristic", dice="manual")
        TerminalGame(settings, input_fn=answer, console=Console(file=out, width=1000)).run()
    shown = out.getvalue()
    assert "[tärningar] öppningsslag: tärningen för dig, sedan för Datorn (t.ex. 41) > 97" in shown
    assert ("! kan inte läsa tärningar från '97': skriv de två siffrorna som kastades, från 1 till 6, "
            "som 31 eller 3-1") in shown
    assert "egna tärningar, inskrivna" in shown and "Hej då." in shown


def test_the_replay_pages_in_polish(tmp_path: Any) -> None:
    from typer.testing import CliRunner

    from gammon.cli import app
    from gammon.formats.mat import write_mat
    from gammon.play.selfplay import run_selfplay

    record = tmp_path / "m.mat"
    match = run_selfplay(1, 5, match_length=3)
    record.write_text(write_mat(match, ("Ann", "Bob")))
    result = CliRunner().invoke(app, ["analyse", str(record), "--plies", "0", "--replay", "--lang", "pl"])
    assert result.exit_code == 0, result.output
    moves = sum(1 for g in match.games for a in g.record if type(a).__name__ == "Move")
    assert result.stdout.count("ID pozycji:") >= moves
    assert "Szczęście: " in result.stdout and "Partia 1, tura " in result.stdout
    for english in ("Position ID", "Luck: ", "Game 1, turn", "forced move", "checker error rate"):
        assert english not in result.stdout
