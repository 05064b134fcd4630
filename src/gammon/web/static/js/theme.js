// The board's themes: classic (the wooden board), dark, high contrast and the card table (the rule
// texts' way to play with a deck of cards).  A theme is a class on <html> (theme-<name>); its colours
// are CSS custom properties in /static/css/themes.css, and board.js draws the card table itself.
// The choice is remembered per browser (localStorage) and applied before the page is drawn.

import { N_, t } from './i18n.js';
import { h } from './util.js';

/** The themes, in the order the picker lists them: [name, English title]. */
export const THEMES = [
  ['classic', N_('Classic board')],
  ['dark', N_('Dark board')],
  ['contrast', N_('High contrast')],
  ['cards', N_('Card table')],
];
export const DEFAULT_THEME = 'classic';
const KEY = 'gammon:theme';
/** The event sent on window when the theme changes (board.js draws again on it). */
export const THEME_EVENT = 'gammon:theme';

function known(name) {
  return THEMES.some(([n]) => n === name);
}

/** The theme now: the remembered one, else the default. */
export function currentTheme() {
  let saved = null;
  try { saved = localStorage.getItem(KEY); } catch (err) { /* storage off: the default */ }
  return known(saved) ? saved : DEFAULT_THEME;
}

/** Put ``name``'s class on <html> (dropping the others') and tell the page. */
export function applyTheme(name = currentTheme()) {
  const theme = known(name) ? name : DEFAULT_THEME;
  const root = document.documentElement;
  for (const [n] of THEMES) root.classList.toggle(`theme-${n}`, n === theme);
  root.dataset.theme = theme;
  window.dispatchEvent(new CustomEvent(THEME_EVENT, { detail: theme }));
  return theme;
}

/** Remember ``name`` for this browser and apply it. */
export function chooseTheme(name) {
  if (!known(name)) return;
  try { localStorage.setItem(KEY, name); } catch (err) { /* storage off: for this page only */ }
  applyTheme(name);
}

/** The picker for the page's header: each theme by its title; a choice applies at once and is kept. */
export function themePicker() {
  const picker = h('select#theme.theme-picker', { name: 'theme', 'aria-label': t('Board theme'), title: t('Board theme') },
    THEMES.map(([name, title]) => h('option', { value: name, text: t(title), selected: name === currentTheme() })));
  picker.addEventListener('change', () => chooseTheme(picker.value));
  return picker;
}
