"""Fixtures of the web tests: ``browser`` (Chromium, or a skip that says how to install it)."""

from webpages import browser  # noqa: F401 (a fixture, for every page test of this folder)
