// The rated-match page (/rated): the account forms and the queue, through the API.  The server
// pairs players and makes the game; this script only asks and, once matched, opens the game.
const $ = (id) => document.getElementById(id);

async function call(method, url, body) {
  const r = await fetch(url, {
    method, headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined, credentials: "same-origin",
  });
  const data = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error((data.error && data.error.message) || `HTTP ${r.status}`);
  return data;
}

function say(id, text) { $(id).textContent = text; }

async function account(url) {
  try {
    const me = await call("POST", url, { name: $("account-name").value, password: $("account-password").value });
    say("account-status", `Logged in as ${me.name}.`);
    document.body.dataset.account = me.name;
  } catch (e) { say("account-status", e.message); }
}

let polling = null;

async function poll() {
  try {
    const q = await call("GET", "/api/queue");
    if (q.state === "waiting") {
      say("queue-status", `Waiting for a ${q.match_length}-point opponent (${Math.round(q.waited)} s; ` +
          `ratings within ${Math.round(q.gap)})…`);
    } else if (q.state === "matched") {
      clearInterval(polling);
      say("queue-status", "Opponent found: opening the game…");
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
  try { await call("DELETE", "/api/queue"); say("queue-status", "You left the queue."); }
  catch (e) { say("queue-status", e.message); }
});
