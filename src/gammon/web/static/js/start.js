// The start page: a game against the computer or a friend.

import { api, gameUrl, inviteUrl, tokens, watchUrl } from './api.js';
import { chooseLanguage, currentLanguage, LANGUAGES, t } from './i18n.js';
import { themePicker } from './theme.js';
import { clockText, copyText, fill, h, NAME_MAX_LENGTH, savedName, VARIANT_TITLES } from './util.js';

const LENGTHS = [0, 1, 3, 5, 7, 9, 11, 13, 15, 17, 21, 25];
const DEFAULT_LEVEL = 'intermediate';

export async function startPage(root) {
  let info = null;
  try {
    info = await api('/info');
  } catch (err) {
    // The levels and their words are the server's (/api/info); without them the server's default level plays.
    info = { variants: Object.entries(VARIANT_TITLES).map(([name, title]) => ({ name, title, cube: name !== 'acey-deucey' })),
      levels: [] };
  }
  const name = h('input#name', { type: 'text', name: 'name', maxlength: info.name_max_length || NAME_MAX_LENGTH, value: savedName(), placeholder: t('Your name'), autocomplete: 'nickname' });
  const opponent = h('div.segmented#opponent', { role: 'radiogroup', 'aria-label': t('Opponent') },
    h('label', {}, h('input', { type: 'radio', name: 'opponent', value: 'computer', checked: true }), h('span', { text: t('Play the computer') })),
    h('label', {}, h('input', { type: 'radio', name: 'opponent', value: 'human' }), h('span', { text: t('Play a friend') })));
  const level = h('select#level', { name: 'level' },
    info.levels.map((lv) => h('option', { value: lv.name, text: lv.title, title: lv.description, selected: lv.name === DEFAULT_LEVEL })));
  const variant = h('select#variant', { name: 'variant' },
    info.variants.map((v) => h('option', { value: v.name, text: t(v.title), dataset: { cube: v.cube ? '1' : '0' } })));
  const length = h('select#length', { name: 'length' },
    LENGTHS.map((n) => h('option', { value: String(n), text: n ? (n > 1 ? t('Match to {n} points', { n }) : t('Match to 1 point')) : t('Single game (money)') })));
  const cube = h('input#cube', { type: 'checkbox', name: 'cube', checked: true });
  const jacoby = h('input#jacoby', { type: 'checkbox', name: 'jacoby' });
  const beavers = h('input#beavers', { type: 'checkbox', name: 'beavers' });
  const crawford = h('input#crawford', { type: 'checkbox', name: 'crawford', checked: true });
  const autos = h('input#automatic-doubles', { type: 'number', name: 'automatic_doubles', min: 0, max: 12, value: '0' });
  const levelRow = h('label.row#level-row', {}, h('span', { text: t('Computer level') }), level);
  const hints = h('input#hints', { type: 'checkbox', name: 'hints' });
  const hintsRow = h('label.check#hints-row', { hidden: true }, hints,
    h('span', { text: t('Allow the engine\'s hints for both players (your opponent sees this before joining)') }));
  const cardDice = h('input#card-dice', { type: 'checkbox', name: 'card_dice' });
  const cardDiceRow = h('label.check#card-dice-row', {}, cardDice,
    h('span', { text: t('Card dice: draw each roll from two piles of cards, ace to six (checked like dice)') }));
  const pub = h('input#public', { type: 'checkbox', name: 'public' });
  const publicRow = h('label.check#public-row', { hidden: true }, pub,
    h('span', { text: t('List the game in the lobby: anyone may take the seat (otherwise only your link works)') }));
  const error = h('p.error#form-error', { role: 'alert', hidden: true });
  const submit = h('button.btn.primary.big#start', { type: 'submit', text: t('Start the game') });
  const moneyOnly = h('div.money-only', {},
    h('label.check', {}, jacoby, h('span', { text: t('Jacoby rule (gammons count only once the cube has been turned)') })),
    h('label.check', {}, beavers, h('span', { text: t('Beavers (redouble at once, keeping the cube)') })),
    h('label.row', {}, h('span', { text: t('Automatic doubles (on equal opening throws; 0 = off)') }), autos));
  const matchOnly = h('div.match-only', { hidden: true },
    h('label.check', {}, crawford, h('span', { text: t('Crawford rule') })));
  const clock = h('select#clock', { name: 'clock' },
    [['', t('No clock')], ['8:180', t('8 s a turn + 3 minutes')], ['12:600', t('12 s a turn + 10 minutes')], ['15:1200', t('15 s a turn + 20 minutes')]]
      .map(([value, text]) => h('option', { value, text })));
  const cubeOpts = h('details.cube-options#cube-options', {}, h('summary', { text: t('Doubling cube and rules') }),
    h('label.check', {}, cube, h('span', { text: t('Use the doubling cube') })), moneyOnly, matchOnly);
  const form = h('form.card.new-game#new-game', { autocomplete: 'off' },
    h('h2', { text: t('New game') }), opponent,
    h('label.row', {}, h('span', { text: t('Your name') }), name),
    levelRow, hintsRow, publicRow,
    h('label.row', {}, h('span', { text: t('Variant') }), variant),
    h('label.row', {}, h('span', { text: t('Length') }), length),
    cardDiceRow, error, submit, cubeOpts,
    h('label.row#clock-row', {}, h('span', { text: t('Clock (running out loses the match)') }), clock));
  const share = h('section.card.share#share', { hidden: true });
  const lobby = h('section.card.lobby#lobby');

  const sync = () => {
    const vsComputer = form.querySelector('input[name=opponent]:checked').value === 'computer';
    levelRow.hidden = !vsComputer;
    hintsRow.hidden = vsComputer;
    publicRow.hidden = vsComputer;
    submit.textContent = vsComputer ? t('Play the computer') : t('Create the game and get a link');
    const hasCube = variant.selectedOptions[0] ? variant.selectedOptions[0].dataset.cube === '1' : true;
    cube.disabled = !hasCube;
    const usesCube = hasCube && cube.checked;
    const match = length.value !== '0';
    moneyOnly.hidden = match;
    matchOnly.hidden = !match;
    for (const el of [jacoby, beavers, autos]) el.disabled = !usesCube || match;
  };
  form.addEventListener('change', sync);
  sync();

  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    error.hidden = true;
    const vsComputer = form.querySelector('input[name=opponent]:checked').value === 'computer';
    const hasCube = !cube.disabled && cube.checked;
    const match = Number(length.value);
    const body = {
      opponent: vsComputer ? 'computer' : 'human',
      variant: variant.value,
      match_length: match,
      cube: hasCube,
      name: name.value.trim() || t('Player 1'),
    };
    if (cardDice.checked) body.dice = 'cards';
    if (clock.value) {
      const [delay, reserve] = clock.value.split(':').map(Number);
      body.clock_delay = delay;
      body.clock_reserve = reserve;
    }
    if (vsComputer && level.value) body.computer_level = level.value;
    else {
      body.hints = hints.checked;
      body.public = pub.checked;
    }
    if (match) body.crawford = crawford.checked;
    else if (hasCube) {
      body.jacoby = jacoby.checked;
      body.beavers = beavers.checked;
      body.automatic_doubles = Math.max(0, Math.min(12, Number(autos.value) || 0));
    }
    try { localStorage.setItem('gammon:name', name.value.trim()); } catch (e) { /* fine */ }
    submit.disabled = true;
    let created;
    try {
      created = await api('/games', { method: 'POST', body });
    } catch (err) {
      submit.disabled = false;
      error.textContent = err.message;
      error.hidden = false;
      return;
    }
    tokens.saveSeat(created.game_id, created.token);
    if (vsComputer) {
      window.location.assign(gameUrl(created.game_id, created.token));
      return;
    }
    tokens.saveInvite(created.game_id, created.invite_token);
    showShare(share, form, created);
  });

  fill(root,
    h('header.topbar', {}, h('a.brand', { href: '/', text: 'gammon' }), h('span.game-title', { text: t('Backgammon in your browser') }),
      themePicker(), languagePicker()),
    h('main.start', {},
      h('section.intro', {},
        h('h1', { text: t('Play backgammon') }),
        h('p', { text: t('Against the computer, or send a link to a friend. Every game\'s dice are committed before the first roll and can be checked when it ends.') })),
      form, share, lobby));
  loadLobby(lobby, name);
}

/** The lobby: public games waiting for a guest; one click takes the seat. */
async function loadLobby(box, nameInput) {
  let games = [];
  try {
    games = (await api('/lobby')).games;
  } catch (err) { /* no lobby: nothing to show */ }
  if (!games.length) {
    fill(box, h('h2', { text: t('Lobby') }), h('p.muted', { text: t('No open games right now. Create one and tick "List the game in the lobby".') }));
    return;
  }
  const error = h('p.error', { hidden: true });
  fill(box, h('h2', { text: t('Lobby: open games') }), h('ul.lobby-list', {}, games.map((g) => {
    const variant = t(VARIANT_TITLES[g.rules.variant] || g.rules.variant);
    const kind = g.rules.match_length ? t('match to {n}', { n: g.rules.match_length }) : t('money game');
    const hintsOn = g.rules.hints ? t(', hints on') : '';
    const join = h('button.btn.primary', { type: 'button', text: t('Join'), dataset: { game: g.game_id } });
    join.addEventListener('click', async () => {
      join.disabled = true;
      try {
        const name = nameInput.value.trim();
        const joined = await api(`/games/${g.game_id}/join`, { method: 'POST', body: name ? { name } : {} });
        tokens.saveSeat(g.game_id, joined.token);
        window.location.assign(gameUrl(g.game_id, joined.token));
      } catch (err) {
        join.disabled = false;
        error.textContent = err.message;
        error.hidden = false;
      }
    });
    return h('li', {}, h('span', {}, h('b', { text: g.host }), ` · ${variant}, ${kind}${hintsOn}, `,
      h('span.lobby-clock', { text: g.rules.clock ? t('clock {clock}', { clock: clockText(g.rules.clock) }) : t('no clock') })), join);
  })), error);
}

function showShare(share, form, created) {
  const link = inviteUrl(created.game_id, created.invite_token);
  const watch = watchUrl(created.game_id);
  const linkInput = h('input.link#invite-link', { type: 'text', readonly: true, value: link });
  const watchInput = h('input.link#watch-link', { type: 'text', readonly: true, value: watch });
  const copied = h('span.copied#copied', { text: '' });
  const copiedWatch = h('span.copied', { text: '' });
  form.hidden = true;
  share.hidden = false;
  fill(share,
    h('h2', { text: t('Your game is ready') }),
    h('p', { text: t('Send this invitation link to your opponent. It holds their seat: give it to them only.') }),
    h('div.copy-row', {}, linkInput,
      h('button.btn#copy-invite', { type: 'button', text: t('Copy'), onclick: async () => {
        copied.textContent = (await copyText(link, linkInput)) ? t('Copied!') : t('Select the link and copy it.');
      } }), copied),
    h('p', { text: t('Anyone may watch with this link:') }),
    h('div.copy-row', {}, watchInput,
      h('button.btn#copy-watch', { type: 'button', text: t('Copy'), onclick: async () => {
        copiedWatch.textContent = (await copyText(watch, watchInput)) ? t('Copied!') : t('Select the link and copy it.');
      } }), copiedWatch),
    h('p', {}, h('a.btn.primary.big#go-to-game', { href: gameUrl(created.game_id, created.token), text: t('Go to the board') })));
}

/** The language picker: each language named in itself; a choice is remembered and the page redrawn in it. */
function languagePicker() {
  const picker = h('select#language', { name: 'language', 'aria-label': t('Language') },
    LANGUAGES.map(([code, title]) => h('option', { value: code, text: title, lang: code, selected: code === currentLanguage() })));
  picker.addEventListener('change', () => chooseLanguage(picker.value));
  return picker;
}
