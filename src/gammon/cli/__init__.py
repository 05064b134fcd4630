"""The ``gammon`` command line: ``gammon moves``, ``gammon show``, ``gammon play``."""

from gammon.cli.app import app, main

__all__ = ["app", "main"]
