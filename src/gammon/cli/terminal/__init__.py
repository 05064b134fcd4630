"""The terminal game of ``gammon play``, in small parts around one loop.

* :mod:`~gammon.cli.terminal.loop`: :class:`TerminalGame`, which asks the
  :class:`~gammon.play.session.Session` what is pending and submits the answer;
* :mod:`~gammon.cli.terminal.prompts`: a person's decisions, read at prompts;
* :mod:`~gammon.cli.terminal.narration`: the board and the session's typed events in words;
* :mod:`~gammon.cli.terminal.commands`: the commands a person types, and the words around a play;
* :mod:`~gammon.cli.terminal.hints`, :mod:`~gammon.cli.terminal.saving`,
  :mod:`~gammon.cli.terminal.screen`, :mod:`~gammon.cli.terminal.settings`;
* :mod:`~gammon.cli.terminal.words` and :mod:`~gammon.cli.terminal.refusals`: counts, "you",
  the dice and refused plays in the language in use.

Every line is said in the language :mod:`gammon.i18n` has chosen (``gammon play --lang``,
else ``LC_ALL``/``LC_MESSAGES``/``LANG``, else English): English, Norwegian bokmål, Swedish,
Danish or Polish.  Commands and play notation stay English in every language; yes and no
are also read in the language's own words.
"""
