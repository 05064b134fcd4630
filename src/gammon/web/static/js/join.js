// /join/{id}#invite=...: take the invited seat, then go to the game.

import { api, fragmentParams, gameUrl, tokens } from './api.js';
import { fill, h, VARIANT_TITLES } from './util.js';

export async function joinPage(root, gameId) {
  const invite = fragmentParams().get('invite');
  const box = h('section.card.join#join');
  fill(root,
    h('header.topbar', {}, h('a.brand', { href: '/', text: 'gammon' }), h('span.game-title', { text: 'Invitation' })),
    h('main.start', {}, box));
  if (!invite) {
    fill(box, h('h2', { text: 'This invitation link is incomplete' }),
      h('p', { text: 'The part after # is missing. Ask for the link again, or watch the game.' }),
      h('p', {}, h('a.btn', { href: `/watch/${gameId}`, text: 'Watch the game' })));
    return;
  }
  let st;
  try {
    st = await api(`/games/${gameId}`, { token: invite });
  } catch (err) {
    fill(box, h('h2', { text: 'This invitation does not work' }), h('p.error', { text: err.message }),
      h('p', {}, h('a.btn', { href: '/', text: 'Start a game of your own' })));
    return;
  }
  const seat = st.you;
  if (st.seats[seat].joined) {
    tokens.saveSeat(gameId, invite);
    window.location.replace(gameUrl(gameId, invite));
    return;
  }
  const host = st.seats[1 - seat].name;
  const variant = VARIANT_TITLES[st.rules.variant] || st.rules.variant;
  const kind = st.match.length ? `a match to ${st.match.length}` : 'a money game';
  const name = h('input#join-name', { type: 'text', maxlength: 40, value: localStorage.getItem('gammon:name') || '', placeholder: 'Your name' });
  const error = h('p.error', { hidden: true });
  const join = h('button.btn.primary.big#join-button', { type: 'submit', text: 'Join the game' });
  const form = h('form', {}, h('label.row', {}, h('span', { text: 'Your name' }), name), error, join);
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    join.disabled = true;
    try {
      const body = name.value.trim() ? { name: name.value.trim() } : {};
      await api(`/games/${gameId}/join`, { method: 'POST', token: invite, body });
    } catch (err) {
      join.disabled = false;
      error.textContent = err.message;
      error.hidden = false;
      return;
    }
    try { localStorage.setItem('gammon:name', name.value.trim()); } catch (e) { /* fine */ }
    tokens.saveSeat(gameId, invite);
    window.location.replace(gameUrl(gameId, invite));
  });
  fill(box, h('h2', { text: `${host} invites you to play` }),
    h('p', { text: `${variant}, ${kind}${st.rules.cube ? '' : ', without the cube'}.` }), form);
}
