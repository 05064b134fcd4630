"""The language a request is answered in: the page's picker's cookie, else ``Accept-Language``.

The page's language picker sets the ``gammon_lang`` cookie (a language code, remembered a
year); the browser sends it with every request, so the page shell, the API's error
sentences and the server-rendered pages all answer in the same language.  A cookie that
names none of :data:`gammon.i18n.LANGUAGES` is ignored.
"""

from __future__ import annotations

from starlette.requests import HTTPConnection

from gammon.i18n import from_accept_language, normalize

#: The cookie the page's language picker sets.
LANGUAGE_COOKIE = "gammon_lang"


def request_language(connection: HTTPConnection) -> str:
    """The language of the person behind ``connection`` (English when nothing says otherwise)."""
    chosen = normalize(connection.cookies.get(LANGUAGE_COOKIE, "")[:16])
    return chosen or from_accept_language(connection.headers.get("accept-language"))


__all__ = ["LANGUAGE_COOKIE", "request_language"]
