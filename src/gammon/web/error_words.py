"""The API's error sentences in the reader's language: the code stays, the sentence is translated.

Every error answer is ``{"error": {"code", "message"}}`` (:mod:`gammon.web.errors`).  A
program reads the code, which never changes; a person reads the message.  In English the
message is the service's own, full of detail, unchanged; in another language (the
page's language, :func:`~gammon.web.language.request_language`) it is the code's
sentence from the catalogs, or the English when the code has none here.
"""

from __future__ import annotations

from starlette.requests import HTTPConnection

from gammon.i18n import DEFAULT, N_, _, use_language
from gammon.web.language import request_language

#: One sentence per error code a person may meet.
SENTENCES: dict[str, str] = {
    "unauthorized": N_("Log in first."),
    "stale_version": N_("The game has moved on: look at the board again."),
    "hints_off": N_("The engine's help is off in this game until it is over."),
    "cannot_cancel": N_("This game can no longer be called off."),
    "too_many_public_games": N_("You already have as many open games in the lobby as allowed."),
    "already_queued": N_("You are already waiting for a rated match."),
    "invalid_length": N_("Rated matches are played to one of the offered lengths."),
    "own_challenge": N_("You cannot challenge yourself."),
    "too_many_challenges": N_("You have too many open challenges: wait for an answer first."),
    "challenge_answered": N_("That challenge has already been answered."),
    "invalid_record": N_("That file is not a match record gammon can read."),
    "bad_request": N_("The request was refused."),
    "not_found": N_("There is no such game or page."),
    "forbidden": N_("This link does not give you that seat."),
    "illegal_action": N_("That action is not allowed now."),
    "illegal_play": N_("That play is not legal for this roll."),
    "ambiguous_play": N_("That play can be made in more than one way: name every step."),
    "bad_play_syntax": N_("That play is not written in backgammon notation."),
    "not_your_turn": N_("It is not your turn."),
    "version_conflict": N_("The board changed meanwhile: look again and act once more."),
    "waiting_for_opponent": N_("The opponent has not joined yet."),
    "game_over": N_("The game is over."),
    "not_over": N_("The game is not over yet."),
    "no_roll": N_("The dice are not rolled yet."),
    "no_hint": N_("No hint is available here."),
    "invalid_request": N_("The request is not valid."),
    "invalid_json": N_("The request is not valid."),
    "invalid_settings": N_("These game settings do not go together."),
    "invalid_clock": N_("These clock settings are not allowed."),
    "invitation_used": N_("This invitation has already been used."),
    "expired": N_("This has expired."),
    "cancelled": N_("This was cancelled."),
    "own_game": N_("You cannot join your own game."),
    "rematch_taken": N_("The rematch has already been answered."),
    "resignation_limit": N_("You offered to resign in this turn already."),
    "too_busy": N_("The server is busy: try again in a moment."),
    "rate_limited": N_("Too many requests: try again in a moment."),
    "login_throttled": N_("Too many failed logins: try again later."),
    "not_logged_in": N_("Log in first."),
    "bad_login": N_("The name or the password is wrong."),
    "name_taken": N_("That name is taken."),
    "chat_empty": N_("The message is empty."),
    "chat_too_long": N_("The message is too long."),
    "chat_full": N_("Too many messages in this game."),
    "unsupported_export": N_("That export format is not offered."),
    "too_large": N_("The request is too large."),
    "database_unavailable": N_("The server cannot reach its database: try again."),
    "internal_error": N_("Something went wrong on the server."),
}


def localized(connection: HTTPConnection, code: str, message: str) -> str:
    """``message`` for the person behind ``connection``: itself in English; else ``code``'s sentence."""
    language = request_language(connection)
    if language == DEFAULT or code not in SENTENCES:
        return message
    with use_language(language):
        return _(SENTENCES[code])


__all__ = ["SENTENCES", "localized"]
