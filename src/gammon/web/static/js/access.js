// The game page for the keyboard, the screen reader and the ear: the play typed in notation, the
// live region that says what happens, the sounds and the turn notice (title, notification).
//
// The game page (game.js) calls four hooks: the constructor while it builds, ``update()`` at the
// end of each render, ``entry(entry)`` for each new action of the record, and ``moved(path)`` when
// the player sets a checker down on the board.  Nothing here knows the rules: a typed play is
// looked up in the server's tree of steps (notation.js), and the words come from the state.

import { t } from './i18n.js';
import { matchPlay, NotationError } from './notation.js';
import { notifySwitch, notifyTurn, turnTitle } from './notice.js';
import { playSound, soundSwitch } from './sounds.js';
import { h } from './util.js';

/** How many announcements the live region keeps (older ones have been read). */
const KEEP = 6;

/** What each event of the record says: [when it is the reader's own, when it is someone else's]. */
const SAYINGS = {
  rolled: [(d) => t('You rolled {dice}.', d), (d) => t('{name} rolled {dice}.', d)],
  'no-move': [(d) => t('You cannot move.', d), (d) => t('{name} cannot move.', d)],
  played: [(d) => t('You played {play}.', d), (d) => t('{name} played {play}.', d)],
  doubled: [(d) => t('You doubled to {cube}.', d), (d) => t('{name} doubled to {cube}.', d)],
  took: [(d) => t('You took: the cube is at {cube}.', d), (d) => t('{name} took: the cube is at {cube}.', d)],
  beavered: [(d) => t('You beavered: the cube is at {cube}.', d), (d) => t('{name} beavered: the cube is at {cube}.', d)],
  dropped: [(d) => t('You passed the double.', d), (d) => t('{name} passed the double.', d)],
  resigned: [(d) => t('You offered to resign.', d), (d) => t('{name} offers to resign.', d)],
};

export class GameAccess {
  /** ``page``: the game page (its state, builder, render(), showNotice(), statusText()). */
  constructor(page) {
    this.page = page;
    this.seenState = false;
    this.wasYourMove = false;
    this.saidResult = null;
    this.live = h('div.sr-only#announce', { role: 'log', 'aria-live': 'polite', 'aria-relevant': 'additions' });
    this.input = h('input#play-input', {
      type: 'text', autocomplete: 'off', spellcheck: 'false', maxlength: '80',
      'aria-describedby': 'play-help', placeholder: '8/5 6/5',
    });
    this.error = h('p.play-error#play-error', { hidden: true });
    this.form = h('form.keyplay#keyplay', { hidden: true },
      h('label', { for: 'play-input', text: t('Type your play') }),
      h('div.keyplay-row', {}, this.input, h('button.btn#play-set', { type: 'submit', text: t('Set the play') })),
      h('p.muted#play-help', { text: t('For example 8/5 6/5, bar/22, 6/off or 13/7(2). Then confirm with Enter.') }),
      this.error);
    this.form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      this.setTyped();
    });
    // The table gets the field and the live region; the side panel the switches, last.
    this.element = h('div.access', {}, this.form, this.live);
    page.el.side.append(h('section.panel.prefs#prefs', {}, h('h2', { text: t('Sound and notices') }),
      soundSwitch(), notifySwitch((text) => page.showNotice(text))));
    // The record scrolls: the keyboard may scroll it too (a focusable region, named for screen readers).
    for (const [list, name] of [[page.el.recordList, t('Record')], [page.chat.list, t('Chat')]]) {
      list.tabIndex = 0;
      list.setAttribute('aria-label', name);
    }
  }

  /**
   * Keep the keyboard's place when the buttons are drawn anew (call once the controls exist): when
   * the focused button is replaced, its new copy takes the focus; when it is gone for good, the
   * next thing to do does (the main button, else the typed-play field).  A button that is only
   * disabled while the server answers keeps the place for its copy.  Only for a player on the
   * keyboard: a click or a tap moves no focus (a phone would open its keyboard on the field).
   */
  keepFocus(controls) {
    let lastId = null;
    let keys = false;
    document.addEventListener('keydown', () => { keys = true; }, true);
    document.addEventListener('pointerdown', () => { keys = false; }, true);
    controls.addEventListener('focusin', (ev) => { lastId = ev.target.id || null; });
    new MutationObserver(() => {
      const active = document.activeElement;
      if (!keys || lastId === null || (active && active !== document.body)) return;
      const again = document.getElementById(lastId);
      if (again && controls.contains(again)) {
        if (!again.disabled) again.focus();
        return;
      }
      const next = controls.querySelector('.btn.primary:not(:disabled)') || (this.form.hidden ? null : this.input);
      if (next) next.focus();
    }).observe(controls, { childList: true });
  }

  /** Read the typed play, set it on the board, and move the keyboard to Confirm. */
  setTyped() {
    const page = this.page;
    const b = page.builder;
    if (!b) return;
    let play;
    try {
      if (!b.canMove) throw new NotationError(t('You cannot move: confirm to pass.'));
      play = matchPlay(b.nodes, this.input.value, b.dice);
    } catch (err) {
      if (!(err instanceof NotationError)) throw err;
      this.error.textContent = err.message;
      this.error.hidden = false;
      this.input.setAttribute('aria-invalid', 'true');
      this.input.setAttribute('aria-describedby', 'play-error play-help');
      this.announce(err.message);
      return;
    }
    this.clearError();
    b.playWhole({ notation: play });
    page.selected = null;
    page.dests = new Map();
    page.render();
    playSound('move');
    this.announce(t('Your move {play}: confirm it, or undo.', { play }));
    const confirm = document.getElementById('confirm');
    if (confirm && !confirm.disabled) confirm.focus();
  }

  clearError() {
    this.error.hidden = true;
    this.error.textContent = '';
    this.input.removeAttribute('aria-invalid');
    this.input.setAttribute('aria-describedby', 'play-help');
  }

  /** Add ``text`` to the live region (screen readers say it). */
  announce(text) {
    if (!text) return;
    this.live.append(h('p', { text }));
    while (this.live.childElementCount > KEEP) this.live.firstElementChild.remove();
  }

  /** A new action of the record: its sounds and its words. */
  entry(entry) {
    const st = this.page.state;
    if (!st) return;
    for (const ev of entry.events || []) {
      const data = ev.data || {};
      if (ev.kind === 'rolled' || ev.kind === 'opening') playSound('dice');
      if (ev.kind === 'played' && ev.player !== st.you) {
        playSound((entry.action.moves || []).some((m) => m[2]) ? 'hit' : 'move');
      }
      if (ev.kind === 'opening' && data.dice) {
        const [first, second] = [this.page.plainName(0), this.page.plainName(1)];
        const [a, b] = data.dice;
        this.announce(t('Opening roll: {first} {a}, {second} {b}.', { first, a, second, b }));
      }
      const saying = SAYINGS[ev.kind];
      if (!saying) continue;
      const mine = st.you !== null && ev.player === st.you;
      const name = ev.player === null || ev.player === undefined ? '' : this.page.plainName(ev.player);
      const play = entry.action.play || data.play || t('nothing');
      this.announce(saying[mine ? 0 : 1]({
        name, play, dice: (data.dice || []).join('-'), cube: data.cube ?? st.cube.value * 2,
      }));
    }
  }

  /** The player set a checker down (``path``: the steps it took). */
  moved(path) {
    playSound(path.some((st) => st.hit) ? 'hit' : 'move');
  }

  /** After each render: the field, the title, the turn's sound and notice, the result's words. */
  update() {
    const page = this.page;
    const st = page.state;
    if (!st) return;
    const b = page.builder;
    const typing = Boolean(b && st.you !== null && st.allowed_actions.includes('play'));
    if (this.form.hidden === typing) {
      this.form.hidden = !typing;
      this.input.value = '';
      this.clearError();
    }
    this.input.disabled = page.busy;
    const yourMove = st.you !== null && st.status === 'active' && !st.match.over && st.to_act === st.you
      && st.allowed_actions.length > 0;
    document.title = turnTitle(document.title, yourMove);
    if (yourMove && !this.wasYourMove) {
      if (this.seenState) playSound('turn');
      this.announce(t('Your turn.'));
      notifyTurn(page.statusText());
    }
    this.wasYourMove = yourMove;
    this.seenState = true;
    const over = st.phase === 'over' || st.match.over;
    const resultKey = over ? `${st.match.game_number}:${st.match.over}` : null;
    if (resultKey !== this.saidResult) {
      if (resultKey) this.announce(page.statusText());
      this.saidResult = resultKey;
    }
  }
}
