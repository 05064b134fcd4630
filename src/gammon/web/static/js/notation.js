// A play typed in notation ("8/5 6/5", "bar/22*", "6/off", "13/7(2)", "24/18/13"), matched against
// the legal plays of the server's tree of steps.
//
// The page holds no rules: the text is only read into checker moves (from, to) and the hits it
// marks; the play is then looked up among the tree's whole plays by where it leaves the checkers.
// Two plays that leave the same position are the same play (as gammon.core counts them), so
// "13/8 13/7", "13/7 13/8" and "13/7/2"-style chains all find the play the tree names.  Points are
// the mover's: 25 (or "bar") is the bar, 0 (or "off") is off the board.

import { t } from './i18n.js';

/** The longest text read (a double's four moves with hits fit easily), and the most moves in it. */
export const MAX_TEXT = 80;
export const MAX_MOVES = 8;

/** A typed play that cannot be read, or matches no legal play (its message is for the player). */
export class NotationError extends Error {}

function point(word, text) {
  if (word === 'bar') return 25;
  if (word === 'off') return 0;
  if (/^\d{1,2}$/.test(word)) {
    const n = Number(word);
    if (n >= 0 && n <= 25) return n;
  }
  throw new NotationError(t('"{word}" in "{text}" is not a point: write 1 to 24, bar or off.', { word, text }));
}

/**
 * The moves of ``text``: ``{moves: [[from, to], ...], hits: Set of points}``.  Throws a
 * NotationError that says what is wrong.
 */
export function parseNotation(text) {
  const clean = String(text || '').trim().toLowerCase();
  if (!clean) throw new NotationError(t('Type a play, for example 8/5 6/5.'));
  if (clean.length > MAX_TEXT) throw new NotationError(t('That is too long for a play.'));
  const moves = [];
  const hits = new Set();
  for (const token of clean.split(/[\s,]+/)) {
    const m = /^([a-z0-9*/]+?)(?:\(([1-4])\))?$/.exec(token);
    const parts = m ? m[1].split('/') : [];
    if (parts.length < 2 || parts.some((p) => !p)) {
      throw new NotationError(t('Write each move as from/to, for example 8/5, bar/22 or 6/off: "{token}" is not one.', { token }));
    }
    const points = parts.map((part) => {
      const hit = part.endsWith('*');
      const p = point(hit ? part.slice(0, -1) : part, token);
      if (hit) hits.add(p);
      return p;
    });
    const times = m[2] ? Number(m[2]) : 1;
    for (let k = 0; k < times; k++) {
      for (let i = 0; i + 1 < points.length; i++) {
        const [from, to] = [points[i], points[i + 1]];
        if (from === 0 || to === 25 || to >= from) {
          throw new NotationError(t('A checker moves down from the bar towards off: "{token}" goes the other way.', { token }));
        }
        moves.push([from, to]);
      }
    }
    if (moves.length > MAX_MOVES) throw new NotationError(t('That is more moves than one roll plays.'));
  }
  return { moves, hits };
}

/** Points (the mover's) where the opponent lost a checker between ``root`` and ``node``: the hits. */
function hitsBetween(root, node) {
  const out = new Set();
  for (let p = 1; p <= 24; p++) if (node.opp[24 - p] < root.opp[24 - p]) out.add(p);
  return out;
}

const sameSet = (a, b) => a.size === b.size && [...a].every((x) => b.has(x));

/**
 * The legal play that ``text`` names, among ``nodes`` (a MoveBuilder's decoded tree): its notation
 * as the tree writes it.  Throws a NotationError when the text cannot be read, names no legal play,
 * or could be two (moves that pass a blot with and without hitting it: mark the hit with *).
 */
export function matchPlay(nodes, text, dice) {
  const { moves, hits } = parseNotation(text);
  const root = nodes[0];
  const change = new Array(25).fill(0); // what the moves do to the mover's 25 counts (index 24: the bar)
  for (const [from, to] of moves) {
    change[from - 1] -= 1;
    if (to > 0) change[to - 1] += 1;
  }
  const found = new Map(); // play -> its hits
  for (const node of nodes) {
    if (node.play === null || found.has(node.play)) continue;
    if (node.me.every((c, i) => c - root.me[i] === change[i])) found.set(node.play, hitsBetween(root, node));
  }
  let plays = [...found.keys()];
  if (plays.length > 1) plays = plays.filter((play) => sameSet(found.get(play), hits));
  if (plays.length === 1) return plays[0];
  if (!found.size) {
    throw new NotationError(t('"{text}" is not a legal play of {dice}.', { text: text.trim(), dice: dice.slice(0, 2).join('-') }));
  }
  const choices = [...found.keys()].join('; ');
  throw new NotationError(t('"{text}" could be any of these plays: {plays}. Write the one you mean.', { text: text.trim(), plays: choices }));
}
