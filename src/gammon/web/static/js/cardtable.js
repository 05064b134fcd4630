// The card table: the board as the rule texts lay it out for a game played with a deck of cards.
// Twelve cards lie face down in a row across the middle; each marks two points, one on its upper
// side and one on its lower side.  One more card lies crosswise in the middle of the row: the bar.
// The checkers are face-up playing cards, red for the viewer and black for the opponent, set on
// the outer side of the row and fanned outwards when several share a point; borne-off cards are set
// aside on the right.  Dice are two piles of six cards, ace to six (black spades and red hearts),
// with the card each pile gave lying face up on top.
//
// Drawn in the board's own units (board.js's Geometry), so the points, the bar and the trays sit
// where the wooden board has them and the same transparent columns (data-point) take the clicks.

import { t } from './i18n.js';
import { s } from './util.js';

const CARD_W = 50; // a face-down card of the row
const CARD_H = 72;
const FACE_W = 46; // a checker card
const FACE_H = 64;
const GAP = 6; // between the row and the first card of a point
const RANKS = ['A', '2', '3', '4', '5', '6'];
// The suit shapes tell the sides apart without their colour: hearts and diamonds are the viewer's
// (red), spades and clubs the opponent's (black).
const SUITS = { mine: ['\u2665', '\u2666'], theirs: ['\u2660', '\u2663'] };

/** A face-down card centred on (cx, cy), ``w`` wide and ``h`` high. */
function cardBack(cx, cy, w, h, cls, attrs = {}) {
  const g = s('g', { class: ['card-back', cls], ...attrs });
  g.append(s('rect', { class: 'back', x: cx - w / 2, y: cy - h / 2, width: w, height: h, rx: 5 }));
  g.append(s('rect', { class: 'back-inset', x: cx - w / 2 + 5, y: cy - h / 2 + 5, width: w - 10, height: h - 10, rx: 3 }));
  const d = Math.min(w, h) / 4;
  g.append(s('polygon', { class: 'back-mark', points: `${cx},${cy - d} ${cx + d},${cy} ${cx},${cy + d} ${cx - d},${cy}` }));
  return g;
}

/** A text centred on (x, y) that stays upright on a turned board (the view's helper). */
function label(view, cls, x, y, value) {
  return view.text(cls, x, y, value);
}

/**
 * A checker card at (cx, cy): a face-up card with its suit large in the middle and small in the
 * corner.  ``tilt`` (degrees) fans a stack; ``label`` (the number on the point) is written on top.
 */
export function checkerCard(view, cx, cy, mine, text, point, tilt = 0, index = 0) {
  const side = mine ? 'mine' : 'theirs';
  const suit = SUITS[side][index % 2];
  const g = s('g', { class: ['checker', 'checker-card', side], 'data-side': side, 'data-at': point,
    'data-mark': suit, 'data-cx': cx, 'data-cy': cy });
  const face = s('g', { transform: tilt ? `rotate(${tilt} ${cx} ${cy})` : null });
  face.append(s('rect', { class: 'face', x: cx - FACE_W / 2, y: cy - FACE_H / 2, width: FACE_W, height: FACE_H, rx: 5 }));
  face.append(s('text', { class: 'corner suit', x: cx - FACE_W / 2 + 5, y: cy - FACE_H / 2 + 12, text: suit }));
  face.append(s('text', { class: 'corner suit', x: cx + FACE_W / 2 - 5, y: cy + FACE_H / 2 - 4, 'text-anchor': 'end', text: suit }));
  g.append(face);
  g.append(label(view, text ? 'count' : 'pip-suit suit', cx, cy, text || suit));
  return g;
}

/** The row of face-down cards and the crosswise card at the bar (data-points: the two points a card marks). */
function row(view) {
  const g = s('g', { class: 'card-row' });
  const geo = view.g;
  for (let top = 13; top <= 24; top++) {
    const { x } = geo.point(top);
    g.append(cardBack(x, geo.MID, CARD_W, CARD_H, 'point-card', { 'data-points': `${top} ${25 - top}` }));
  }
  g.append(cardBack(geo.BAR_X + geo.BAR_W / 2, geo.MID, CARD_H, CARD_W, 'bar-card', { 'data-crosswise': 'true' }));
  return g;
}

/** The centre y of card ``i`` of a point (0 nearest the row), fanned outwards from the row. */
function slotY(geo, top, i) {
  const first = CARD_H / 2 + GAP + FACE_H / 2;
  const room = geo.MID - CARD_H / 2 - GAP - FACE_H - geo.TOP;
  const step = Math.min(FACE_H * 0.8, room / (geo.MAX_STACK - 1));
  const dy = first + i * step;
  return top ? geo.MID - dy : geo.MID + dy;
}

/** A slight turn of card ``i`` of ``n``, so that a stack reads as a fan. */
function fan(i, n) {
  return n > 1 ? (i - (n - 1) / 2) * 4 : 0;
}

function stacks(view, m) {
  const geo = view.g;
  const g = s('g', { class: 'checkers' });
  const flag = (c, p, last) => {
    if (!last) return;
    if (m.selected === p) c.classList.add('selected');
    if (m.movable && m.movable.has(p)) c.classList.add('movable');
  };
  for (let p = 1; p <= 24; p++) {
    const mine = m.mine[p - 1];
    const n = mine || m.theirs[24 - p];
    if (!n) continue;
    const { x, top } = geo.point(p);
    const shown = Math.min(n, geo.MAX_STACK);
    for (let i = 0; i < shown; i++) {
      const text = i === shown - 1 && n > geo.MAX_STACK ? String(n) : null;
      const c = checkerCard(view, x, slotY(geo, top, i), Boolean(mine), text, p, fan(i, shown), i);
      flag(c, p, Boolean(mine) && i === shown - 1);
      g.append(c);
    }
  }
  // Cards that were hit wait on the crosswise card's sides: the viewer's above it, the opponent's below.
  const cx = geo.BAR_X + geo.BAR_W / 2;
  for (const mine of [true, false]) {
    const n = mine ? m.mine[24] : m.theirs[24];
    const shown = Math.min(n, geo.MAX_BAR);
    for (let i = 0; i < shown; i++) {
      const y = slotY(geo, mine, Math.min(i, geo.MAX_STACK - 1));
      const c = checkerCard(view, cx, y, mine, i === shown - 1 && n > 1 ? String(n) : null, 25, fan(i, shown), i);
      flag(c, 25, mine && i === shown - 1);
      g.append(c);
    }
  }
  return g;
}

/** Borne-off cards, set aside in a neat pile on the right: the opponent's above, the viewer's below. */
function setAside(view, m) {
  const { TRAY_X, TRAY_W, TOP, BOTTOM, MID, SLAB } = view.g;
  const g = s('g', { class: 'off' });
  const cx = TRAY_X + TRAY_W / 2;
  const pile = (n, mine) => {
    const side = mine ? 'mine' : 'theirs';
    for (let i = 0; i < n; i++) {
      const y = mine ? BOTTOM - FACE_H / 2 - 4 - i * (SLAB / 2) : TOP + FACE_H / 2 + 4 + i * (SLAB / 2);
      const c = s('g', { class: ['slab', 'off-card', side] });
      c.append(s('rect', { class: 'face', x: cx - FACE_W / 2, y: y - FACE_H / 2, width: FACE_W, height: FACE_H, rx: 5 }));
      c.append(label(view, 'pip-suit suit', cx, y, SUITS[side][i % 2]));
      g.append(c);
    }
  };
  pile(m.offTheirs, false);
  pile(m.offMine, true);
  if (m.offTheirs) g.append(label(view, 'tray-count', cx, MID - 30, t('{n} off', { n: m.offTheirs })));
  if (m.offMine) g.append(label(view, 'tray-count', cx, MID + 30, t('{n} off', { n: m.offMine })));
  if (m.dests && m.dests.has(0)) {
    g.append(s('rect', { class: 'tray-dest', x: TRAY_X + 2, y: MID + 16, width: TRAY_W - 4, height: BOTTOM - MID - 18, rx: 8 }));
  }
  return g;
}

function markers(view, m) {
  if (!m.dests || !m.dests.size) return null;
  const geo = view.g;
  const g = s('g', { class: 'markers' });
  for (const p of m.dests) {
    if (p < 1 || p > 24) continue;
    const { x, top } = geo.point(p);
    const y = slotY(geo, top, Math.min(m.mine[p - 1], geo.MAX_STACK - 1));
    g.append(s('rect', { class: 'landing', x: x - FACE_W / 2, y: y - FACE_H / 2, width: FACE_W, height: FACE_H, rx: 5 }));
  }
  return g;
}

function frame(view) {
  const { W, H, TOP, BOTTOM, TRAY_X, TRAY_W, MID } = view.g;
  const g = s('g', { class: 'frame' });
  g.append(s('rect', { class: 'table-top', x: 0, y: 0, width: W, height: H, rx: 16 }));
  g.append(s('rect', { class: 'aside', x: TRAY_X, y: TOP, width: TRAY_W, height: MID - TOP - 14, rx: 8 }));
  g.append(s('rect', { class: 'aside', x: TRAY_X, y: MID + 14, width: TRAY_W, height: BOTTOM - MID - 14, rx: 8 }));
  g.append(s('rect', { class: 'cube-rail', x: 4, y: TOP, width: view.g.RAIL_W, height: BOTTOM - TOP, rx: 8 }));
  return g;
}

function numbers(view, m) {
  const { TOP, H } = view.g;
  const g = s('g', { class: 'points' });
  for (let p = 1; p <= 24; p++) {
    const { x, top } = view.g.point(p);
    const cls = ['label', m.dests && m.dests.has(p) && 'dest', m.lastTo && m.lastTo.has(p) && 'last'];
    g.append(view.text(cls.filter(Boolean).join(' '), x, top ? TOP / 2 : H - TOP / 2, String(p)));
  }
  return g;
}

/** One die as a pile of cards with its drawn card face up on top (``pile`` 0: black spades, 1: red hearts). */
function pileOf(view, cx, cy, value, pile, used, card) {
  const suit = pile === 0 ? '\u2660' : '\u2665';
  const rank = RANKS[value - 1] || '?';
  const g = s('g', { class: ['die', 'card-die', pile === 0 ? 'pile-black' : 'pile-red', used && 'used'], 'data-die': value,
    'data-card': card || `${rank}${suit}` });
  for (let k = 2; k >= 1; k--) g.append(cardBack(cx + k * 3, cy - k * 3, CARD_W, CARD_H, 'pile-back'));
  g.append(s('rect', { class: 'face', x: cx - CARD_W / 2, y: cy - CARD_H / 2, width: CARD_W, height: CARD_H, rx: 5 }));
  g.append(label(view, 'card-rank', cx, cy - 8, rank));
  g.append(label(view, 'card-suit suit', cx, cy + 16, suit));
  return g;
}

/**
 * The dice as two card piles in the roller's half: the cards drawn (the server's ``cards`` for card
 * dice, else the dice read as cards).  A double is played four times: each pile counts for two moves
 * and is dimmed once both are played.
 */
export function cardDice(view, m) {
  const { LEFT_X, RIGHT_X, MID, PW } = view.g;
  const values = m.dice.values;
  const mine = m.dice.side === 'me';
  const cx = mine ? RIGHT_X + 3 * PW : LEFT_X + 3 * PW;
  const used = (m.dice.used || []).slice();
  const double = values[0] === values[1] && !m.dice.opening;
  const flags = [false, false];
  if (double) {
    flags[0] = used.length >= 4;
    flags[1] = used.length >= 2;
  } else {
    for (let i = 0; i < 2; i++) {
      const k = used.indexOf(values[i]);
      if (k >= 0) {
        flags[i] = true;
        used.splice(k, 1);
      }
    }
  }
  const cards = m.dice.cards || [];
  const g = s('g', { class: ['dice', 'card-dice'] });
  g.append(pileOf(view, cx - CARD_W / 2 - 8, MID, values[0], 0, flags[0], cards[0]));
  g.append(pileOf(view, cx + CARD_W / 2 + 8, MID, values[1], 1, flags[1], cards[1]));
  return g;
}

/** Every layer of the card table, bottom to top (the cube and the click columns are the board's own). */
export function cardTableLayers(view, m) {
  const dice = m.dice && m.dice.values && m.dice.values.length ? cardDice(view, m) : null;
  return [frame(view), row(view), numbers(view, m), setAside(view, m), stacks(view, m), markers(view, m), dice,
    view._cube(m), view._hits(m)];
}
