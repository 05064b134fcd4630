// Picks the page from the URL: / (start), /game/{id}, /join/{id}, /watch/{id}.

import { gamePage } from './game.js';
import { loadLanguage, t } from './i18n.js';
import { joinPage } from './join.js';
import { startPage } from './start.js';
import { applyTheme } from './theme.js';
import { fill, h } from './util.js';

applyTheme(); // the remembered theme, before anything is drawn
await loadLanguage();
const root = document.getElementById('app');
const path = window.location.pathname;
const m = /^\/(game|join|watch)\/([^/]+)\/?$/.exec(path);

if (path === '/' || path === '') {
  startPage(root);
} else if (m && m[1] === 'game') {
  gamePage(root, decodeURIComponent(m[2]));
} else if (m && m[1] === 'watch') {
  gamePage(root, decodeURIComponent(m[2]), { spectator: true });
} else if (m && m[1] === 'join') {
  joinPage(root, decodeURIComponent(m[2]));
} else {
  fill(root, h('main.start', {}, h('h1', { text: t('No such page') }), h('p', {}, h('a', { href: '/', text: t('Start a game') }))));
}
