// The board, drawn in SVG from the viewer's side: home board bottom right, points numbered 1..24
// from the viewer (1 bottom right, 24 top right), the bar in the middle, borne-off trays on the right,
// the cube on the left.  The drawing scales with its viewBox; clicks land on transparent columns
// carrying data-point (1..24, 25 = the viewer's bar, 0 = the viewer's tray).
//
// Three layouts, chosen by the screen (the same media queries as gammon.css):
// * wide: the board as above, 1020 x 700 units (laptops, desktops, tablets);
// * short (a phone on its side): the same board with shorter points (four checkers a stack before the
//   count shows), so that its height fits a low screen while each point stays at least 40 px wide;
// * tall (a phone upright): the short board turned a quarter clockwise, so the twelve points of a side run
//   down the long edge of the screen: home board bottom left, the trays at the bottom, the cube at the top.
//   The drawing is made in the board's own coordinates inside a rotated group; texts turn back upright.
// Taps and drags find their point through the elements' data-point, so every layout hit-tests the same.

import { cardDice, cardTableLayers, checkerCard } from './cardtable.js';
import { THEME_EVENT } from './theme.js';
import { s } from './util.js';

export const TALL_QUERY = '(orientation: portrait) and (max-width: 700px)';
export const SHORT_QUERY = '(orientation: landscape) and (max-height: 500px)';

const PW = 64; // point width
const R = 29; // checker radius
const BAR_W = 60;
const MAX_BAR = 4;

/** The board's measures in its own units: the full height, or the short one of the phone layouts. */
export class Geometry {
  constructor(compact = false, rotated = false) {
    this.compact = compact;
    this.rotated = rotated;
    this.PW = PW;
    this.BAR_W = BAR_W;
    this.R = R;
    this.MAX_BAR = MAX_BAR;
    // Across the board: the cube's rail, six points, the bar, six points, the trays.  On a phone the
    // rail and the trays are slimmer, so that the board leaves room for the names and the buttons.
    this.RAIL_W = compact ? 44 : 52;
    this.CUBE = compact ? 40 : 46;
    this.LEFT_X = this.RAIL_W + 24;
    this.BAR_X = this.LEFT_X + 6 * PW;
    this.RIGHT_X = this.BAR_X + BAR_W;
    this.TRAY_X = this.RIGHT_X + 6 * PW + (compact ? 22 : 30);
    this.TRAY_W = compact ? 62 : 78;
    this.W = this.TRAY_X + this.TRAY_W + 8;
    this.H = compact ? 590 : 700;
    this.TOP = compact ? 24 : 30;
    this.BOTTOM = this.H - this.TOP;
    this.MID = this.H / 2;
    this.POINT_H = compact ? 222 : 262;
    this.MAX_STACK = compact ? 4 : 5;
    this.SLAB = compact ? 15 : 17; // a borne-off checker's step in the tray: fifteen fit either way
  }

  /** The centre x of the viewer's point ``p`` and whether it is in the top row. */
  point(p) {
    const { LEFT_X, RIGHT_X } = this;
    if (p <= 6) return { x: RIGHT_X + (6 - p) * PW + PW / 2, top: false };
    if (p <= 12) return { x: LEFT_X + (12 - p) * PW + PW / 2, top: false };
    if (p <= 18) return { x: LEFT_X + (p - 13) * PW + PW / 2, top: true };
    return { x: RIGHT_X + (p - 19) * PW + PW / 2, top: true };
  }

  stackY(top, i) {
    return top ? this.TOP + R + i * 2 * R : this.BOTTOM - R - i * 2 * R;
  }

  barY(mine, i) {
    return mine ? this.MID - 44 - i * 2 * R : this.MID + 44 + i * 2 * R;
  }

  /** The svg's viewBox: the board's, or its quarter turn. */
  viewBox() {
    return this.rotated ? `0 0 ${this.H} ${this.W}` : `0 0 ${this.W} ${this.H}`;
  }

  /** The transform from the board's units to the svg's: a quarter turn clockwise when tall. */
  transform() {
    return this.rotated ? `translate(${this.H} 0) rotate(90)` : null;
  }
}

/** The layout the screen asks for now: 'tall', 'short' or 'wide'. */
export function currentLayout() {
  if (!window.matchMedia) return 'wide';
  if (window.matchMedia(TALL_QUERY).matches) return 'tall';
  if (window.matchMedia(SHORT_QUERY).matches) return 'short';
  return 'wide';
}

export function geometryFor(layout) {
  return new Geometry(layout !== 'wide', layout === 'tall');
}

const PIPS = {
  1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]],
  4: [[-1, -1], [1, -1], [-1, 1], [1, 1]], 5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
  6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]],
};

function die(x, y, value, { size = 54, used = false, mine = true } = {}) {
  const g = s('g', { class: ['die', mine ? 'die-mine' : 'die-theirs', used && 'used'], 'data-die': value });
  g.append(s('rect', { x, y, width: size, height: size, rx: 10 }));
  const step = size * 0.26;
  for (const [dx, dy] of PIPS[value] || []) {
    g.append(s('circle', { class: 'pip', cx: x + size / 2 + dx * step, cy: y + size / 2 + dy * step, r: size * 0.085 }));
  }
  return g;
}

/** Counts the animations started, by kind (window.gammonMotion): tests read it. */
function count(kind) {
  const m = window.gammonMotion || (window.gammonMotion = { glides: 0, dice: 0, cube: 0 });
  m[kind] += 1;
}

export class BoardView {
  /**
   * @param {SVGSVGElement} svg
   * @param {(point: number, event: Event) => void} onPoint called with the point clicked
   */
  constructor(svg, onPoint, onCube = null) {
    this.svg = svg;
    this.onPoint = onPoint;
    this.onCube = onCube;
    this.last = { dice: null, cube: null };
    this.model = null;
    this.root = null;
    svg.setAttribute('preserveAspectRatio', 'xMidYMid meet');
    this.setLayout(currentLayout());
    if (window.matchMedia) {
      for (const query of [TALL_QUERY, SHORT_QUERY]) {
        window.matchMedia(query).addEventListener('change', () => this.setLayout(currentLayout()));
      }
    }
    // A new theme may change the drawing itself (the card table), not only its colours.
    window.addEventListener(THEME_EVENT, () => { if (this.model) this.render(this.model); });
    svg.addEventListener('click', (ev) => {
      if (ev.target.closest && ev.target.closest('.cube') && this.onCube) {
        this.onCube(ev);
        return;
      }
      const target = ev.target.closest && ev.target.closest('[data-point]');
      if (target && this.onPoint) this.onPoint(Number(target.dataset.point), ev);
    });
  }

  /** Draw in ``layout`` ('wide', 'short' or 'tall') from now on (again at once if drawn before). */
  setLayout(layout) {
    if (this.layout === layout) return;
    this.layout = layout;
    this.g = geometryFor(layout);
    this.svg.setAttribute('viewBox', this.g.viewBox());
    this.svg.dataset.layout = layout;
    if (this.model) this.render(this.model);
  }

  /** The svg's height in px that makes each point ``px`` wide (its width across the direction of play). */
  heightFor(px) {
    return ((this.g.rotated ? this.g.W : this.g.H) * px) / PW;
  }

  /** Whether the viewer asked for less motion (the operating system's setting). */
  static reducedMotion() {
    return Boolean(window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches);
  }

  /** A text centred on (x, y) of the board, upright on the screen in every layout. */
  text(cls, x, y, value) {
    const t = s('text', { class: cls, x, y, 'dominant-baseline': 'central', text: value });
    if (this.g.rotated) t.setAttribute('transform', `rotate(-90 ${x} ${y})`);
    return t;
  }

  /** Whether the page shows the card table (the theme on <html>): the board is drawn as cards then. */
  static cardTable() {
    return document.documentElement.classList.contains('theme-cards');
  }

  /**
   * A checker at (cx, cy).  The two sides differ by shape as well as colour, for readers who cannot
   * tell the colours apart: the viewer's checkers carry a round ring, the opponent's a square one
   * turned to a diamond (data-mark says which).
   */
  checker(cx, cy, mine, label, point) {
    const g = s('g', { class: ['checker', mine ? 'mine' : 'theirs'], 'data-side': mine ? 'mine' : 'theirs', 'data-at': point,
      'data-mark': mine ? 'ring' : 'diamond', 'data-cx': cx, 'data-cy': cy });
    g.append(s('circle', { cx, cy, r: R - 1 }));
    if (mine) g.append(s('circle', { class: 'ring mark', cx, cy, r: R - 9 }));
    else {
      const d = R - 7;
      g.append(s('polygon', { class: 'ring mark', points: `${cx},${cy - d} ${cx + d},${cy} ${cx},${cy + d} ${cx - d},${cy}` }));
    }
    if (label) g.append(this.text('count', cx, cy, label));
    return g;
  }

  /** Where a checker of ``side`` stands at ``point`` (viewer's numbering; 25 = bar, 0 = tray). */
  spot(side, point, index = 0) {
    const { BAR_X, TRAY_X, TRAY_W } = this.g;
    const mine = side === 'mine';
    const g = this.g;
    if (point === 25) return { x: BAR_X + BAR_W / 2, y: g.barY(mine, index) };
    if (point === 0) return { x: TRAY_X + TRAY_W / 2, y: mine ? g.BOTTOM - 40 : g.TOP + 40 };
    const { x, top } = g.point(point);
    return { x, y: g.stackY(top, Math.min(index, g.MAX_STACK - 1)) };
  }

  /**
   * Let the checkers of ``moves`` glide from where they were to where they are now, one step after
   * the other ({side, from, to}: viewer's numbering); none with prefers-reduced-motion.
   */
  glide(moves) {
    if (!moves || !moves.length || BoardView.reducedMotion() || !this.svg.animate || !this.root) return;
    const STEP = 320;
    moves.forEach((mv, i) => {
      const all = [...this.root.querySelectorAll(`.checkers .checker[data-side='${mv.side}'][data-at='${mv.to}']`)];
      const el = all[all.length - 1];
      const from = this.spot(mv.side, mv.from);
      let to;
      if (el) {
        to = { x: Number(el.dataset.cx), y: Number(el.dataset.cy) };
      } else {
        to = this.spot(mv.side, mv.to);
      }
      const target = el || this._ghost(mv.side, to);
      const frames = [{ transform: `translate(${from.x - to.x}px, ${from.y - to.y}px)` }, { transform: 'translate(0, 0)' }];
      const anim = target.animate(frames, { duration: STEP, delay: i * STEP, easing: 'ease-in-out', fill: 'backwards' });
      if (!el) anim.finished.then(() => target.remove(), () => target.remove());
      count('glides');
    });
  }

  _ghost(side, at) {
    const g = BoardView.cardTable() ? checkerCard(this, at.x, at.y, side === 'mine', null, -1)
      : this.checker(at.x, at.y, side === 'mine', null, -1);
    g.classList.add('gliding');
    this.root.append(g);
    return g;
  }

  render(m) {
    this.model = m;
    const layers = BoardView.cardTable() ? cardTableLayers(this, m) : this._layers(m);
    this.root = s('g', { class: 'turn', transform: this.g.transform() }, layers.filter(Boolean));
    this.svg.replaceChildren(this.root);
    this.svg.classList.toggle('interactive', Boolean(m.interactive));
    this.svg.classList.toggle('card-table', BoardView.cardTable());
    this._motion(m);
  }

  /** The wooden board's layers, bottom to top. */
  _layers(m) {
    const layers = [];
    layers.push(this._frame());
    layers.push(this._points(m));
    layers.push(this._trays(m));
    layers.push(this._checkers(m));
    layers.push(this._markers(m));
    layers.push(this._dice(m));
    layers.push(this._cube(m));
    layers.push(this._hits(m));
    return layers;
  }

  /** New dice roll, a turned or offered cube: their animations (CSS, off with reduced motion). */
  _motion(m) {
    const dice = m.dice && m.dice.values ? `${m.dice.side}:${m.dice.values.join('-')}:${m.dice.key || ''}` : null;
    if (dice && dice !== this.last.dice && (m.dice.used || []).length === 0) {
      for (const d of this.svg.querySelectorAll('.dice .die')) d.classList.add('rolling');
      if (!BoardView.reducedMotion()) count('dice');
    }
    this.last.dice = dice;
    const cube = m.cube && m.cube.show ? `${m.cube.value}:${m.cube.owner}:${m.cube.offeredBy}` : null;
    if (cube && this.last.cube && cube !== this.last.cube) {
      const el = this.svg.querySelector('.cube');
      if (el) el.classList.add('turning');
      if (!BoardView.reducedMotion()) count('cube');
    }
    this.last.cube = cube;
  }

  _frame() {
    const { TOP, BOTTOM, MID, H, LEFT_X, BAR_X, RIGHT_X, TRAY_X, TRAY_W } = this.g;
    const g = s('g', { class: 'frame' });
    g.append(s('rect', { class: 'wood', x: LEFT_X - 16, y: 0, width: RIGHT_X + 6 * PW + 16 - (LEFT_X - 16), height: H, rx: 14 }));
    g.append(s('rect', { class: 'felt', x: LEFT_X, y: TOP, width: 6 * PW, height: BOTTOM - TOP }));
    g.append(s('rect', { class: 'felt', x: RIGHT_X, y: TOP, width: 6 * PW, height: BOTTOM - TOP }));
    g.append(s('rect', { class: 'bar', x: BAR_X, y: TOP - 8, width: BAR_W, height: BOTTOM - TOP + 16, rx: 4 }));
    g.append(s('rect', { class: 'tray', x: TRAY_X, y: TOP, width: TRAY_W, height: MID - TOP - 14, rx: 8 }));
    g.append(s('rect', { class: 'tray', x: TRAY_X, y: MID + 14, width: TRAY_W, height: BOTTOM - MID - 14, rx: 8 }));
    g.append(s('rect', { class: 'cube-rail', x: 4, y: TOP, width: this.g.RAIL_W, height: BOTTOM - TOP, rx: 8 }));
    return g;
  }

  _points(m) {
    const { TOP, BOTTOM, POINT_H, H } = this.g;
    const g = s('g', { class: 'points' });
    for (let p = 1; p <= 24; p++) {
      const { x, top } = this.g.point(p);
      const y0 = top ? TOP : BOTTOM;
      const y1 = top ? TOP + POINT_H : BOTTOM - POINT_H;
      const cls = ['point', (p % 2) ? 'odd' : 'even',
        m.dests && m.dests.has(p) && 'dest', m.lastTo && m.lastTo.has(p) && 'last'];
      g.append(s('polygon', {
        class: cls, 'data-for': p,
        points: `${x - PW / 2 + 3},${y0} ${x + PW / 2 - 3},${y0} ${x},${y1}`,
      }));
      g.append(this.text('label', x, top ? TOP / 2 : H - TOP / 2, String(p)));
    }
    return g;
  }

  _trays(m) {
    const { TOP, BOTTOM, MID, SLAB, compact, rotated, TRAY_X, TRAY_W } = this.g;
    const g = s('g', { class: 'off' });
    const slab = (i, mine) => {
      const y = mine ? BOTTOM - 8 - (i + 1) * SLAB : TOP + 8 + i * SLAB;
      return s('rect', { class: ['slab', mine ? 'mine' : 'theirs'], x: TRAY_X + 8, y, width: TRAY_W - 16, height: SLAB - 3, rx: 4 });
    };
    for (let i = 0; i < m.offTheirs; i++) g.append(slab(i, false));
    for (let i = 0; i < m.offMine; i++) g.append(slab(i, true));
    // The count stands beside the stack, towards the middle (across the tray when the board is turned).
    const gap = rotated ? 36 : 30;
    const cx = TRAY_X + TRAY_W / 2;
    if (m.offTheirs) g.append(this.text('tray-count', cx, MID - gap, `${m.offTheirs} off`));
    if (m.offMine) g.append(this.text('tray-count', cx, MID + (compact ? gap : 35), `${m.offMine} off`));
    if (m.dests && m.dests.has(0)) {
      g.append(s('rect', { class: 'tray-dest', x: TRAY_X + 2, y: MID + 16, width: TRAY_W - 4, height: BOTTOM - MID - 18, rx: 8 }));
    }
    return g;
  }

  _checkers(m) {
    const { BAR_X } = this.g;
    const geo = this.g;
    const g = s('g', { class: 'checkers' });
    for (let p = 1; p <= 24; p++) {
      const mine = m.mine[p - 1];
      const theirs = m.theirs[24 - p];
      const n = mine || theirs;
      if (!n) continue;
      const { x, top } = geo.point(p);
      const shown = Math.min(n, geo.MAX_STACK);
      for (let i = 0; i < shown; i++) {
        const label = i === shown - 1 && n > geo.MAX_STACK ? String(n) : null;
        const c = this.checker(x, geo.stackY(top, i), Boolean(mine), label, p);
        if (mine && i === shown - 1 && m.selected === p) c.classList.add('selected');
        if (mine && i === shown - 1 && m.movable && m.movable.has(p)) c.classList.add('movable');
        g.append(c);
      }
    }
    const cx = BAR_X + BAR_W / 2;
    const barStack = (n, mine) => {
      const shown = Math.min(n, MAX_BAR);
      for (let i = 0; i < shown; i++) {
        const c = this.checker(cx, geo.barY(mine, i), mine, i === shown - 1 && n > 1 ? String(n) : null, 25);
        if (mine && i === shown - 1 && m.selected === 25) c.classList.add('selected');
        if (mine && i === shown - 1 && m.movable && m.movable.has(25)) c.classList.add('movable');
        g.append(c);
      }
    };
    barStack(m.mine[24], true);
    barStack(m.theirs[24], false);
    return g;
  }

  _markers(m) {
    if (!m.dests || !m.dests.size) return null;
    const geo = this.g;
    const g = s('g', { class: 'markers' });
    for (const p of m.dests) {
      if (p < 1 || p > 24) continue;
      const { x, top } = geo.point(p);
      const mine = m.mine[p - 1];
      const i = Math.min(mine, geo.MAX_STACK - 1);
      g.append(s('circle', { class: 'landing', cx: x, cy: geo.stackY(top, i), r: R - 3 }));
    }
    return g;
  }

  _dice(m) {
    const { LEFT_X, RIGHT_X } = this.g;
    if (!m.dice || !m.dice.values || !m.dice.values.length) return null;
    if (m.dice.cards) return cardDice(this, m); // card dice: the two piles with the drawn cards
    const { MID } = this.g;
    const g = s('g', { class: 'dice' });
    const mine = m.dice.side === 'me';
    const values = m.dice.values[0] === m.dice.values[1] && !m.dice.opening
      ? [m.dice.values[0], m.dice.values[0], m.dice.values[0], m.dice.values[0]] : m.dice.values;
    const used = (m.dice.used || []).slice();
    const size = 54;
    const gap = 12;
    const cx = mine ? RIGHT_X + 3 * PW : LEFT_X + 3 * PW;
    const total = values.length * size + (values.length - 1) * gap;
    let x = cx - total / 2;
    // Used dice are the last ones of their value, so the dice still to play stay in front.
    const flags = values.map(() => false);
    for (const u of used) {
      for (let i = values.length - 1; i >= 0; i--) {
        if (values[i] === u && !flags[i]) { flags[i] = true; break; }
      }
    }
    values.forEach((v, i) => {
      const d = die(x, MID - size / 2, v, { size, used: flags[i], mine: m.dice.opening ? i === 0 : mine });
      g.append(d);
      x += size + gap;
    });
    return g;
  }

  _cube(m) {
    const { LEFT_X, RIGHT_X } = this.g;
    if (!m.cube || !m.cube.show) return null;
    const { TOP, BOTTOM, MID } = this.g;
    const size = this.g.CUBE;
    const g = s('g', { class: 'cube' });
    let x = (this.g.RAIL_W + 8 - size) / 2;
    let y;
    let value = m.cube.value;
    if (m.cube.offeredBy) {
      // The offered cube stands in the doubler's half, where the dice would be, showing its new value.
      const cx = m.cube.offeredBy === 'me' ? RIGHT_X + 3 * PW : LEFT_X + 3 * PW;
      x = cx - size / 2;
      y = MID - size / 2;
      value = m.cube.value * 2;
      g.classList.add('offered');
    } else if (m.cube.owner === 'me') {
      y = BOTTOM - size - 8;
    } else if (m.cube.owner === 'opp') {
      y = TOP + 8;
    } else {
      y = MID - size / 2;
    }
    g.append(s('rect', { x, y, width: size, height: size, rx: 7 }));
    const shown = !m.cube.owner && !m.cube.offeredBy && value === 1 ? 64 : value;
    g.append(this.text('cube-value', x + size / 2, y + size / 2, String(shown)));
    g.dataset.value = String(value);
    g.dataset.owner = m.cube.owner || 'centre';
    return g;
  }

  _hits(m) {
    const { TOP, BOTTOM, MID, BAR_X, TRAY_X, TRAY_W } = this.g;
    const g = s('g', { class: 'hits' });
    const attrs = (p) => ({
      class: ['hit', m.dests && m.dests.has(p) && 'dest', m.movable && m.movable.has(p) && 'movable',
        m.selected === p && 'selected'],
      'data-point': p,
    });
    for (let p = 1; p <= 24; p++) {
      const { x, top } = this.g.point(p);
      g.append(s('rect', { ...attrs(p), x: x - PW / 2, y: top ? TOP : MID, width: PW, height: MID - TOP }));
    }
    g.append(s('rect', { ...attrs(25), x: BAR_X, y: TOP, width: BAR_W, height: MID - TOP }));
    g.append(s('rect', { ...attrs(0), x: TRAY_X, y: MID, width: TRAY_W, height: BOTTOM - MID }));
    return g;
  }
}
