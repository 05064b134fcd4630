"""The API's errors in the reader's language: the code is the same in every language, the
message is the code's sentence from the catalogs (English: the service's own, unchanged).

Real requests through the app: a game that does not exist, a seat token that is wrong, a
body that is not JSON, a play out of turn; each asked in English and in the four others
(``Accept-Language``, and the picker's ``gammon_lang`` cookie, which wins).
"""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from gammon.i18n import translations
from gammon.web.error_words import SENTENCES
from webclient import NO_LIMITS, bearer, client_fixture

client = client_fixture("i18n38-errors", rate_limits=NO_LIMITS)
OTHERS = ("nb", "sv", "da", "pl")


def _error(res: object) -> tuple[str, str]:
    body = res.json()  # type: ignore[attr-defined]
    return body["error"]["code"], body["error"]["message"]


def _requests(client: TestClient) -> list[tuple[str, dict[str, str], object]]:
    created = client.post("/api/games", json={"opponent": "human", "name": "Ann"}).json()
    game = created["game_id"]
    return [
        ("get", {}, lambda h: client.get("/api/games/nosuchgame", headers=h)),
        ("wrong token", {}, lambda h: client.get(f"/api/games/{game}", headers={**h, **bearer("x" * 40)})),
        ("not json", {}, lambda h: client.post("/api/games", content=b"{nope", headers={
            **h, "content-type": "application/json"})),
        ("waiting", {}, lambda h: client.post(f"/api/games/{game}/actions", json={"type": "roll"},
                                              headers={**h, **bearer(created["token"])})),
    ]


@pytest.mark.parametrize("language", OTHERS)
def test_the_code_stays_and_the_message_is_translated(client: TestClient, language: str) -> None:
    catalog = translations(language)
    for name, _unused, ask in _requests(client):
        english = ask({"accept-language": "en-GB"})
        code, message = _error(english)
        assert code in SENTENCES, (name, code)
        assert _error(ask({})) == (code, message)  # no header: English, the service's own words
        theirs = ask({"accept-language": f"{language},en;q=0.5"})
        assert theirs.status_code == english.status_code  # type: ignore[attr-defined]
        assert _error(theirs) == (code, catalog.gettext(SENTENCES[code]))
        assert catalog.gettext(SENTENCES[code]) != message, name
        by_cookie = ask({"accept-language": "en", "cookie": f"gammon_lang={language}"})
        assert _error(by_cookie) == (code, catalog.gettext(SENTENCES[code]))
