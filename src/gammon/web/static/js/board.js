// The board, drawn in SVG from the viewer's side: home board bottom right, points numbered 1..24
// from the viewer (1 bottom right, 24 top right), the bar in the middle, borne-off trays on the right,
// the cube on the left.  The drawing scales with its viewBox; clicks land on transparent columns
// carrying data-point (1..24, 25 = the viewer's bar, 0 = the viewer's tray).

import { s } from './util.js';

export const W = 1020;
export const H = 700;
const PW = 64; // point width
const R = 29; // checker radius
const TOP = 30;
const BOTTOM = 670;
const MID = 350;
const LEFT_X = 76;
const BAR_X = 460;
const BAR_W = 60;
const RIGHT_X = BAR_X + BAR_W;
const TRAY_X = 934;
const TRAY_W = 78;
const POINT_H = 262;
const MAX_STACK = 5;
const MAX_BAR = 4;

/** The centre x of the viewer's point ``p`` and whether it is in the top row. */
export function pointGeometry(p) {
  if (p <= 6) return { x: RIGHT_X + (6 - p) * PW + PW / 2, top: false };
  if (p <= 12) return { x: LEFT_X + (12 - p) * PW + PW / 2, top: false };
  if (p <= 18) return { x: LEFT_X + (p - 13) * PW + PW / 2, top: true };
  return { x: RIGHT_X + (p - 19) * PW + PW / 2, top: true };
}

function stackY(top, i) {
  return top ? TOP + R + i * 2 * R : BOTTOM - R - i * 2 * R;
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

function checker(cx, cy, mine, label, point) {
  const g = s('g', { class: ['checker', mine ? 'mine' : 'theirs'], 'data-side': mine ? 'mine' : 'theirs', 'data-at': point });
  g.append(s('circle', { cx, cy, r: R - 1 }));
  g.append(s('circle', { class: 'ring', cx, cy, r: R - 9 }));
  if (label) g.append(s('text', { class: 'count', x: cx, y: cy + 7, text: label }));
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
    svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
    svg.setAttribute('preserveAspectRatio', 'xMidYMid meet');
    svg.addEventListener('click', (ev) => {
      if (ev.target.closest && ev.target.closest('.cube') && this.onCube) {
        this.onCube(ev);
        return;
      }
      const target = ev.target.closest && ev.target.closest('[data-point]');
      if (target && this.onPoint) this.onPoint(Number(target.dataset.point), ev);
    });
  }

  /** Whether the viewer asked for less motion (the operating system's setting). */
  static reducedMotion() {
    return Boolean(window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches);
  }

  /** Where a checker of ``side`` stands at ``point`` (viewer's numbering; 25 = bar, 0 = tray). */
  static spot(side, point, index = 0) {
    const mine = side === 'mine';
    if (point === 25) return { x: BAR_X + BAR_W / 2, y: mine ? MID - 44 - index * 2 * R : MID + 44 + index * 2 * R };
    if (point === 0) return { x: TRAY_X + TRAY_W / 2, y: mine ? BOTTOM - 40 : TOP + 40 };
    const { x, top } = pointGeometry(point);
    return { x, y: stackY(top, Math.min(index, MAX_STACK - 1)) };
  }

  /**
   * Let the checkers of ``moves`` glide from where they were to where they are now, one step after
   * the other ({side, from, to}: viewer's numbering); none with prefers-reduced-motion.
   */
  glide(moves) {
    if (!moves || !moves.length || BoardView.reducedMotion() || !this.svg.animate) return;
    const STEP = 320;
    moves.forEach((mv, i) => {
      const all = [...this.svg.querySelectorAll(`.checkers .checker[data-side='${mv.side}'][data-at='${mv.to}']`)];
      const el = all[all.length - 1];
      const from = BoardView.spot(mv.side, mv.from);
      let to;
      if (el) {
        const c = el.querySelector('circle');
        to = { x: Number(c.getAttribute('cx')), y: Number(c.getAttribute('cy')) };
      } else {
        to = BoardView.spot(mv.side, mv.to);
      }
      const target = el || this._ghost(mv.side, to);
      const frames = [{ transform: `translate(${from.x - to.x}px, ${from.y - to.y}px)` }, { transform: 'translate(0, 0)' }];
      const anim = target.animate(frames, { duration: STEP, delay: i * STEP, easing: 'ease-in-out', fill: 'backwards' });
      if (!el) anim.finished.then(() => target.remove(), () => target.remove());
      count('glides');
    });
  }

  _ghost(side, at) {
    const g = checker(at.x, at.y, side === 'mine', null, -1);
    g.classList.add('gliding');
    this.svg.append(g);
    return g;
  }

  render(m) {
    const layers = [];
    layers.push(this._frame());
    layers.push(this._points(m));
    layers.push(this._trays(m));
    layers.push(this._checkers(m));
    layers.push(this._markers(m));
    layers.push(this._dice(m));
    layers.push(this._cube(m));
    layers.push(this._hits(m));
    this.svg.replaceChildren(...layers.filter(Boolean));
    this.svg.classList.toggle('interactive', Boolean(m.interactive));
    this._motion(m);
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
    const g = s('g', { class: 'frame' });
    g.append(s('rect', { class: 'wood', x: LEFT_X - 16, y: 0, width: RIGHT_X + 6 * PW + 16 - (LEFT_X - 16), height: H, rx: 14 }));
    g.append(s('rect', { class: 'felt', x: LEFT_X, y: TOP, width: 6 * PW, height: BOTTOM - TOP }));
    g.append(s('rect', { class: 'felt', x: RIGHT_X, y: TOP, width: 6 * PW, height: BOTTOM - TOP }));
    g.append(s('rect', { class: 'bar', x: BAR_X, y: TOP - 8, width: BAR_W, height: BOTTOM - TOP + 16, rx: 4 }));
    g.append(s('rect', { class: 'tray', x: TRAY_X, y: TOP, width: TRAY_W, height: MID - TOP - 14, rx: 8 }));
    g.append(s('rect', { class: 'tray', x: TRAY_X, y: MID + 14, width: TRAY_W, height: BOTTOM - MID - 14, rx: 8 }));
    g.append(s('rect', { class: 'cube-rail', x: 4, y: TOP, width: 52, height: BOTTOM - TOP, rx: 8 }));
    return g;
  }

  _points(m) {
    const g = s('g', { class: 'points' });
    for (let p = 1; p <= 24; p++) {
      const { x, top } = pointGeometry(p);
      const y0 = top ? TOP : BOTTOM;
      const y1 = top ? TOP + POINT_H : BOTTOM - POINT_H;
      const cls = ['point', (p % 2) ? 'odd' : 'even',
        m.dests && m.dests.has(p) && 'dest', m.lastTo && m.lastTo.has(p) && 'last'];
      g.append(s('polygon', {
        class: cls, 'data-for': p,
        points: `${x - PW / 2 + 3},${y0} ${x + PW / 2 - 3},${y0} ${x},${y1}`,
      }));
      g.append(s('text', { class: 'label', x, y: top ? TOP - 9 : BOTTOM + 21, text: String(p) }));
    }
    return g;
  }

  _trays(m) {
    const g = s('g', { class: 'off' });
    const slab = (i, mine) => {
      const y = mine ? BOTTOM - 8 - (i + 1) * 17 : TOP + 8 + i * 17;
      return s('rect', { class: ['slab', mine ? 'mine' : 'theirs'], x: TRAY_X + 8, y, width: TRAY_W - 16, height: 14, rx: 4 });
    };
    for (let i = 0; i < m.offTheirs; i++) g.append(slab(i, false));
    for (let i = 0; i < m.offMine; i++) g.append(slab(i, true));
    if (m.offTheirs) g.append(s('text', { class: 'tray-count', x: TRAY_X + TRAY_W / 2, y: MID - 26, text: `${m.offTheirs} off` }));
    if (m.offMine) g.append(s('text', { class: 'tray-count', x: TRAY_X + TRAY_W / 2, y: MID + 40, text: `${m.offMine} off` }));
    if (m.dests && m.dests.has(0)) {
      g.append(s('rect', { class: 'tray-dest', x: TRAY_X + 2, y: MID + 16, width: TRAY_W - 4, height: BOTTOM - MID - 18, rx: 8 }));
    }
    return g;
  }

  _checkers(m) {
    const g = s('g', { class: 'checkers' });
    for (let p = 1; p <= 24; p++) {
      const mine = m.mine[p - 1];
      const theirs = m.theirs[24 - p];
      const n = mine || theirs;
      if (!n) continue;
      const { x, top } = pointGeometry(p);
      const shown = Math.min(n, MAX_STACK);
      for (let i = 0; i < shown; i++) {
        const label = i === shown - 1 && n > MAX_STACK ? String(n) : null;
        const c = checker(x, stackY(top, i), Boolean(mine), label, p);
        if (mine && i === shown - 1 && m.selected === p) c.classList.add('selected');
        if (mine && i === shown - 1 && m.movable && m.movable.has(p)) c.classList.add('movable');
        g.append(c);
      }
    }
    const cx = BAR_X + BAR_W / 2;
    const barStack = (n, mine) => {
      const shown = Math.min(n, MAX_BAR);
      for (let i = 0; i < shown; i++) {
        const cy = mine ? MID - 44 - i * 2 * R : MID + 44 + i * 2 * R;
        const c = checker(cx, cy, mine, i === shown - 1 && n > 1 ? String(n) : null, 25);
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
    const g = s('g', { class: 'markers' });
    for (const p of m.dests) {
      if (p < 1 || p > 24) continue;
      const { x, top } = pointGeometry(p);
      const mine = m.mine[p - 1];
      const i = Math.min(mine, MAX_STACK - 1);
      g.append(s('circle', { class: 'landing', cx: x, cy: stackY(top, i), r: R - 3 }));
    }
    return g;
  }

  _dice(m) {
    if (!m.dice || !m.dice.values || !m.dice.values.length) return null;
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
    if (!m.cube || !m.cube.show) return null;
    const size = 46;
    const g = s('g', { class: 'cube' });
    let x = 7;
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
    g.append(s('text', { x: x + size / 2, y: y + size / 2 + 8, text: String(shown) }));
    g.dataset.value = String(value);
    g.dataset.owner = m.cube.owner || 'centre';
    return g;
  }

  _hits(m) {
    const g = s('g', { class: 'hits' });
    const attrs = (p) => ({
      class: ['hit', m.dests && m.dests.has(p) && 'dest', m.movable && m.movable.has(p) && 'movable',
        m.selected === p && 'selected'],
      'data-point': p,
    });
    for (let p = 1; p <= 24; p++) {
      const { x, top } = pointGeometry(p);
      g.append(s('rect', { ...attrs(p), x: x - PW / 2, y: top ? TOP : MID, width: PW, height: MID - TOP }));
    }
    g.append(s('rect', { ...attrs(25), x: BAR_X, y: TOP, width: BAR_W, height: MID - TOP }));
    g.append(s('rect', { ...attrs(0), x: TRAY_X, y: MID, width: TRAY_W, height: BOTTOM - MID }));
    return g;
  }
}
