"""The terminal game of ``gammon play``, in small parts around one loop.

* :mod:`~gammon.cli.terminal.loop`: :class:`TerminalGame`, which asks the
  :class:`~gammon.play.session.Session` what is pending and submits the answer;
* :mod:`~gammon.cli.terminal.prompts`: a person's decisions, read at prompts;
* :mod:`~gammon.cli.terminal.narration`: the board and the session's typed events in words;
* :mod:`~gammon.cli.terminal.commands`: the commands a person types, and the words around a play;
* :mod:`~gammon.cli.terminal.hints`, :mod:`~gammon.cli.terminal.saving`,
  :mod:`~gammon.cli.terminal.screen`, :mod:`~gammon.cli.terminal.settings`.
"""
