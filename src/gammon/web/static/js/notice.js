// Telling the player that it is their move when they are looking elsewhere.
//
// * The tab's title starts with "● Your move" while the game waits on this seat, in any tab.
// * A browser notification, when the player asked for them with the switch (the browser asks for
//   the permission then: on that click, never unasked) and the tab is hidden.
// The choice is remembered in this browser (localStorage); the browser keeps the permission.

import { t } from './i18n.js';
import { h } from './util.js';

const KEY = 'gammon:notify';
const MARK = '● ';

/** Whether notifications can be shown in this browser at all. */
export function notificationsSupported() {
  return typeof window.Notification === 'function';
}

function wanted() {
  try { return window.localStorage.getItem(KEY) === 'on'; } catch (e) { return false; }
}

function remember(on) {
  try { window.localStorage.setItem(KEY, on ? 'on' : 'off'); } catch (e) { /* not remembered */ }
}

/** Whether a notification would be shown now (asked for, and allowed by the browser). */
export function notificationsOn() {
  return notificationsSupported() && wanted() && window.Notification.permission === 'granted';
}

/** The tab's title: ``base``, or "● Your move – gammon" while it is the player's move. */
export function turnTitle(base, yourMove) {
  return yourMove ? MARK + t('Your move') + ' – gammon' : base;
}

/**
 * Say that it is the player's move: a notification with ``text`` when they asked for one and the
 * tab is hidden (a visible tab has the title, the live region and the sound).
 */
export function notifyTurn(text) {
  if (!notificationsOn() || document.visibilityState !== 'hidden') return;
  try {
    const note = new window.Notification(t('Your move'), { body: text, tag: 'gammon-turn', icon: '/static/favicon.svg' });
    note.onclick = () => { window.focus(); note.close(); };
  } catch (e) { /* some browsers only notify from a service worker: the title still says it */ }
}

/** The switch for notifications; ``say`` shows a sentence to the player (a refusal, say). */
export function notifySwitch(say) {
  if (!notificationsSupported()) return null;
  const box = h('input#notify-switch', { type: 'checkbox', checked: notificationsOn() });
  box.addEventListener('change', async () => {
    if (!box.checked) {
      remember(false);
      return;
    }
    let permission = window.Notification.permission;
    if (permission === 'default') {
      try { permission = await window.Notification.requestPermission(); } catch (e) { permission = 'denied'; }
    }
    const granted = permission === 'granted';
    box.checked = granted;
    remember(granted);
    if (!granted) say(t('The browser does not allow notifications from this page: change that in its site settings.'));
  });
  return h('label.switch', {}, box, ' ', t('Notify me when it is my move'));
}
