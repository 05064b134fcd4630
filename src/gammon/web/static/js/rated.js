// The rated-match page (/rated): the account forms and the queue, through the API.  The server
// pairs players and makes the game; this script only asks and, once matched, opens the game.
// Its words come from the catalogs in the page's language (the server names it in <html lang>).
import { loadLanguage, t } from './i18n.js';

await loadLanguage();
const $ = (id) => document.getElementById(id);

async function call(method, url, body) {
  const r = await fetch(url, {
    method, headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined, credentials: "same-origin",
  });
  const data = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error((data.error && data.error.message) || t('The server answered {status}.', { status: r.status }));
  return data;
}

function say(id, text) { $(id).textContent = text; }

async function account(url) {
  try {
    const me = await call("POST", url, { name: $("account-name").value, password: $("account-password").value });
    say("account-status", t('Logged in as {name}.', { name: me.name }));
    document.body.dataset.account = me.name;
  } catch (e) { say("account-status", e.message); }
}

let polling = null;

async function poll() {
  try {
    const q = await call("GET", "/api/queue");
    if (q.state === "waiting") {
      const fields = { length: q.match_length, seconds: Math.round(q.waited), gap: Math.round(q.gap) };
      say("queue-status", t('Waiting for an opponent for a {length}-point match ({seconds} s; ratings within {gap})…', fields));
    } else if (q.state === "matched") {
      clearInterval(polling);
      say("queue-status", t('Opponent found: opening the game…'));
      const seat = await call("POST", `/api/account/games/${encodeURIComponent(q.game_id)}/token`);
      window.location.assign(`/game/${encodeURIComponent(q.game_id)}#token=${encodeURIComponent(seat.token)}`);
    } else {
      clearInterval(polling);
      say("queue-status", "");
    }
  } catch (e) { clearInterval(polling); say("queue-status", e.message); }
}

$("sign-up").addEventListener("click", () => account("/api/accounts"));
$("log-in").addEventListener("click", () => account("/api/session"));
$("queue-join").addEventListener("click", async () => {
  try {
    await call("POST", "/api/queue", { match_length: Number($("queue-length").value) });
    clearInterval(polling);
    polling = setInterval(poll, 1000);
    await poll();
  } catch (e) { say("queue-status", e.message); }
});
$("queue-leave").addEventListener("click", async () => {
  clearInterval(polling);
  try { await call("DELETE", "/api/queue"); say("queue-status", t('You left the queue.')); }
  catch (e) { say("queue-status", e.message); }
});
