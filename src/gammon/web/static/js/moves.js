// Building a play checker by checker, by walking the server's tree of legal steps.
//
// The page holds no rules.  With the dice, the server sends the tree of legal single steps of
// the roll, computed by gammon.core (state.steps): node 0 is the start of the turn; each node has
// the board there (what the page draws), the pip counts, the legal next steps
// ([from, to, die, hit, node]) and, when the steps so far make a whole legal play, that play's
// notation.  A tap on a checker walks the child of the highest die that moves it (tapStep), a double
// tap on to a second die or off (doubleTapPath), a drag to the point it is dropped on
// (destinations); Undo goes back up, and Confirm sends the steps walked.  Nothing here decides what is legal: a step is offered only when it is in the
// tree.  Points are numbered from the mover's side: 25 is the bar, 0 is off.

import { t, tn } from './i18n.js';

export const BAR = 25;
export const OFF = 0;

/** The two rows (25 counts each, index 24 the bar) of a node's board: 50 base-36 digits. */
export function decodeBoard(text) {
  const counts = Array.from(text, (c) => parseInt(c, 36));
  return { me: counts.slice(0, 25), opp: counts.slice(25, 50) };
}

function stepOf(raw) {
  return { from: raw[0], to: raw[1], die: raw[2], hit: Boolean(raw[3]), node: raw[4] };
}

export class MoveBuilder {
  /**
   * @param {{dice: number[], nodes: {board: string, pips: number[], steps: number[][], play: string|null}[]}} tree
   *   the server's tree of legal steps for the roll (state.steps)
   */
  constructor(tree) {
    this.tree = tree;
    this.dice = tree.dice.slice();
    this.nodes = tree.nodes.map((n) => ({ ...decodeBoard(n.board), pips: n.pips, steps: n.steps.map(stepOf), play: n.play }));
    this.reset();
  }

  reset() {
    this.groups = []; // each: steps moved by one click (a checker may use several dice at once)
    this.path = []; // every step walked, in order
    this.at = 0;
  }

  get node() {
    return this.nodes[this.at];
  }

  /** The board drawn now: { me, opp }. */
  get board() {
    return { me: this.node.me, opp: this.node.opp };
  }

  /** Pip counts now: [mover, opponent] (from the server). */
  get pips() {
    return this.node.pips;
  }

  /** Whether the roll can be played at all (a pass has no step). */
  get canMove() {
    return this.nodes[0].steps.length > 0;
  }

  get complete() {
    return this.node.play !== null;
  }

  /** The notation of the legal play walked so far, when complete; else null. */
  get play() {
    return this.node.play;
  }

  /** The legal next steps from the current node. */
  allowedSteps() {
    return this.node.steps;
  }

  /** Points (25 = bar) with a checker that may move now. */
  sources() {
    return new Set(this.node.steps.map((st) => st.from));
  }

  /**
   * Where the checker on ``from`` may go now: a Map from destination to the steps that take it
   * there (one step, or the same checker moved on by further steps of the tree; fewest first).
   */
  destinations(from) {
    const found = new Map();
    const queue = [{ node: this.at, point: from, path: [] }];
    const seen = new Set();
    while (queue.length) {
      const { node, point, path } = queue.shift();
      for (const st of this.nodes[node].steps) {
        if (st.from !== point) continue;
        const next = [...path, st];
        if (!found.has(st.to)) found.set(st.to, next);
        const key = `${st.node}/${st.to}`;
        if (st.to !== OFF && !seen.has(key)) {
          seen.add(key);
          queue.push({ node: st.node, point: st.to, path: next });
        }
      }
    }
    return found;
  }

  /**
   * The step a tap on ``from`` makes: its checker moved by the higher die that fits, that is the
   * child of the current node with the highest die among those that move this checker (null when
   * none does).  The tree says what fits; a bigger die may still bear off where the exact one is gone.
   */
  tapStep(from) {
    let best = null;
    for (const st of this.node.steps) {
      if (st.from === from && (best === null || st.die > best.die)) best = st;
    }
    return best;
  }

  /** Whether a tap on ``from`` had no other choice: the tree moves that checker by one die only now. */
  tapIsForced(from) {
    return new Set(this.node.steps.filter((st) => st.from === from).map((st) => st.die)).size === 1;
  }

  /**
   * The steps of a double tap on ``from``: the checker borne off when the tree lets it (fewest
   * steps), else moved on by two dice, the higher die first where the tree has that order; a
   * plain tap's step when this checker cannot use two dice.  Null when it cannot move.
   */
  doubleTapPath(from) {
    const reach = this.destinations(from);
    if (reach.has(OFF)) return reach.get(OFF);
    const firsts = this.node.steps.filter((st) => st.from === from).sort((a, b) => b.die - a.die);
    for (const first of firsts) {
      const next = this.nodes[first.node].steps.filter((st) => st.from === first.to).sort((a, b) => b.die - a.die);
      if (next.length) return [first, next[0]];
    }
    return firsts.length ? [firsts[0]] : null;
  }

  /**
   * Whether moving the checker on ``from`` to ``to`` can end in one way only: every path of the
   * tree that takes it there reaches the same node (the same hits on the way, the same dice left).
   */
  unique(from, to) {
    const ends = new Set();
    const walk = (node, point, depth) => {
      if (depth > 4) return;
      for (const st of this.nodes[node].steps) {
        if (st.from !== point) continue;
        if (st.to === to) ends.add(st.node);
        else if (st.to !== OFF) walk(st.node, st.to, depth + 1);
      }
    };
    walk(this.at, from, 1);
    return ends.size === 1;
  }

  /** Walk ``path`` (steps from :meth:`destinations` or :meth:`allowedSteps`) as one undoable group. */
  move(path) {
    let at = this.at;
    for (const st of path) {
      if (!this.nodes[at].steps.includes(st)) throw new Error('not a step of the current node');
      at = st.node;
    }
    this.at = at;
    this.path.push(...path);
    this.groups.push(path);
  }

  /** Take back the last group of steps; false when there is none. */
  undo() {
    if (!this.groups.length) return false;
    const groups = this.groups.slice(0, -1);
    this.reset();
    for (const g of groups) this.move(g);
    return true;
  }

  /**
   * Set a whole legal play (``{notation, moves: [{from_point, to_point}]}``, as the hint gives)
   * on the board: its moves in order where the tree has them, else the path to the node of
   * that notation.  False when the tree has no such play.
   */
  playWhole(play) {
    this.reset();
    let at = 0;
    const path = [];
    for (const m of play.moves || []) {
      const st = this.nodes[at].steps.find((s) => s.from === m.from_point && s.to === m.to_point);
      if (!st) break;
      path.push(st);
      at = st.node;
    }
    if (this.nodes[at].play === null || (play.notation !== undefined && this.nodes[at].play !== play.notation)) {
      const found = this.findPlay(play.notation);
      if (!found) return false;
      path.splice(0, path.length, ...found);
    }
    for (const st of path) this.move([st]);
    return true;
  }

  /** A path from the start to the node whose play is ``notation`` (null when none). */
  findPlay(notation) {
    const seen = new Set();
    const go = (at) => {
      const node = this.nodes[at];
      if (node.play === notation) return [];
      if (seen.has(at)) return null;
      seen.add(at);
      for (const st of node.steps) {
        const rest = go(st.node);
        if (rest) return [st, ...rest];
      }
      return null;
    };
    return go(0);
  }

  /** The steps as the server takes them: [[from, to], ...]. */
  movesForServer() {
    return this.path.map((st) => [st.from, st.to]);
  }

  /** Dice values already used, for drawing them greyed. */
  usedDice() {
    return this.path.map((st) => st.die);
  }

  /** Dice still to play. */
  diceLeft() {
    const left = this.dice.slice();
    for (const st of this.path) left.splice(left.indexOf(st.die), 1);
    return left;
  }

  /** Why the checker on ``from`` cannot be picked now (a sentence; the tree says what can move). */
  explainSource(from) {
    const { me, opp } = this.board;
    const mine = from === BAR ? me[24] : from >= 1 && from <= 24 ? me[from - 1] : 0;
    if (this.complete) {
      return this.canMove ? t('You have played your roll: confirm the move, or undo to change it.')
        : t('You cannot move: confirm to pass.');
    }
    if (!mine) {
      if (from >= 1 && from <= 24 && opp[24 - from] > 0) return t('That is your opponent\'s checker.');
      return t('You have no checker there.');
    }
    return tn(
      'No legal play of your roll moves that checker now (die left: {dice}): pick one of the '
      + 'highlighted checkers.', 'No legal play of your roll moves that checker now (dice left: {dice}): '
      + 'pick one of the highlighted checkers.', this.diceLeft().length, { dice: this.diceLeftWords() });
  }

  /** Why the checker on ``from`` cannot go to ``to`` (a sentence; the tree says where it can). */
  explainDestination(from, to) {
    const fields = { dice: this.diceLeftWords(), from: pointName(from), to: pointName(to) };
    return tn(
      'No legal play of your roll (die left: {dice}) takes that checker from {from} to {to}: the '
      + 'highlighted points are where it can go.', 'No legal play of your roll (dice left: {dice}) takes '
      + 'that checker from {from} to {to}: the highlighted points are where it can go.',
    this.diceLeft().length, fields);
  }

  /** The dice left, joined with the language's "and": ``6 and 5``, ``4 and 4 and 4``. */
  diceLeftWords() {
    const dice = this.diceLeft().map(String);
    return dice.slice(1).reduce((text, die) => t('{first} and {second}', { first: text, second: die }),
      dice[0] || '');
  }
}

/** A point as the notices name it: the bar, off, or point 13. */
function pointName(p) {
  if (p === BAR) return t('the bar');
  return p === OFF ? t('off the board') : t('point {p}', { p });
}
