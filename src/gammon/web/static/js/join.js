// /join/{id}#invite=...: use the (single-use) invitation, get a seat token of our own, go to the game.

import { t } from './i18n.js';
import { api, fragmentParams, gameUrl, tokens } from './api.js';
import { clockText, fill, h, NAME_MAX_LENGTH, savedName, VARIANT_TITLES } from './util.js';

export async function joinPage(root, gameId) {
  const invite = fragmentParams().get('invite');
  const box = h('section.card.join#join');
  fill(root,
    h('header.topbar', {}, h('a.brand', { href: '/', text: 'gammon' }), h('span.game-title', { text: t('Invitation') })),
    h('main.start', {}, box));
  if (!invite) {
    fill(box, h('h2', { text: t('This invitation link is incomplete') }),
      h('p', { text: t('The part after # is missing. Ask for the link again, or watch the game.') }),
      h('p', {}, h('a.btn', { href: `/watch/${gameId}`, text: t('Watch the game') })));
    return;
  }
  let offer;
  try {
    offer = await api(`/games/${gameId}/invitation`, { token: invite });
  } catch (err) {
    const mine = tokens.seat(gameId);
    if (err.status === 410) {
      // Used once already: an invitation seats one person only.
      fill(box, h('h2#seat-taken', { text: t('This seat is taken') }),
        h('p', { text: t('This invitation has already been used: someone joined the game with it. An invitation seats one person only; ask for a new game if it was meant for you.') }),
        h('p.copy-row', {}, mine ? h('a.btn.primary', { href: gameUrl(gameId, mine), text: t('Go to your seat') }) : null,
          h('a.btn', { href: `/watch/${gameId}`, text: t('Watch the game') }),
          h('a.btn', { href: '/', text: t('Start a game of your own') })));
      return;
    }
    fill(box, h('h2', { text: t('This invitation does not work') }), h('p.error', { text: err.message }),
      h('p', {}, h('a.btn', { href: '/', text: t('Start a game of your own') })));
    return;
  }
  const rules = offer.rules;
  const host = offer.host;
  const variant = t(VARIANT_TITLES[rules.variant] || rules.variant);
  const kind = rules.match_length ? t('a match to {n}', { n: rules.match_length }) : t('a money game');
  const name = h('input#join-name', { type: 'text', maxlength: NAME_MAX_LENGTH, value: savedName(), placeholder: t('Your name') });
  const error = h('p.error', { hidden: true });
  const join = h('button.btn.primary.big#join-button', { type: 'submit', text: t('Join the game') });
  const form = h('form', {}, h('label.row', {}, h('span', { text: t('Your name') }), name), error, join);
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    join.disabled = true;
    let joined;
    try {
      const body = name.value.trim() ? { name: name.value.trim() } : {};
      joined = await api(`/games/${gameId}/join`, { method: 'POST', token: invite, body });
    } catch (err) {
      join.disabled = false;
      error.textContent = err.message;
      error.hidden = false;
      return;
    }
    try { localStorage.setItem('gammon:name', name.value.trim()); } catch (e) { /* fine */ }
    // The invitation is used up: the seat is ours through the token only this answer carried.
    tokens.saveSeat(gameId, joined.token);
    window.location.replace(gameUrl(gameId, joined.token));
  });
  fill(box, h('h2', { text: t('{host} invites you to play', { host }) }),
    h('p', { text: rules.cube ? t('{variant}, {kind}.', { variant, kind }) : t('{variant}, {kind}, without the cube.', { variant, kind }) }),
    h('p#join-hints', { text: rules.hints ? t('Engine hints: allowed for both players.')
      : t('Engine hints: off for both players (the analysis opens when the game is over).') }),
    h('p#join-clock', { text: rules.clock ? t('Clock: {clock}; running out of time loses the match.', { clock: clockText(rules.clock) })
      : t('Clock: none.') }), form);
}
