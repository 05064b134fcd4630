// Building a play checker by checker.
//
// The server is the judge of what is legal: with the dice it sends every legal play of the roll
// (its single-die checker moves and the position it leads to).  Here a player moves one checker
// by one die at a time, in any order; a step is offered only when some legal play can still be
// reached from the position it leads to with the dice left.  So the page never offers a move
// the rules forbid, whatever order the player picks, and the play sent (the steps as [from, to]
// pairs) is one the server accepts.  Points are numbered from the mover's side: 25 is the bar,
// 0 is off.  A row is 25 counts: index i holds point i + 1, index 24 the bar.

export const BAR = 25;
export const OFF = 0;

const clone = (row) => row.slice();

function boardKey(me, opp) {
  return me.join(',') + '|' + opp.join(',');
}

/** The board after one checker moves ``from`` -> ``to`` (hitting a blot it lands on). */
export function applyStep(board, from, to) {
  const me = clone(board.me);
  const opp = clone(board.opp);
  let hit = false;
  me[from === BAR ? 24 : from - 1] -= 1;
  if (to !== OFF) {
    const oi = 24 - to; // the opponent's index of our point ``to``
    if (opp[oi] === 1) {
      opp[oi] = 0;
      opp[24] += 1;
      hit = true;
    }
    me[to - 1] += 1;
  }
  return { me, opp, hit };
}

function allHome(me) {
  for (let i = 6; i <= 24; i++) if (me[i] > 0) return false;
  return true;
}

export function pips(row) {
  let total = 0;
  for (let i = 0; i < 25; i++) total += row[i] * (i + 1);
  return total;
}

function removeOne(list, value) {
  const i = list.indexOf(value);
  const out = list.slice();
  out.splice(i, 1);
  return out;
}

export class MoveBuilder {
  /**
   * @param {{me: number[], opp: number[]}} board the mover's row and the opponent's (each from its own side)
   * @param {number[]} dice the roll ([a, b]; doubles are played four times)
   * @param {{notation: string, moves: {from_point: number, to_point: number}[]}[]} legalPlays
   * @param {string} variant the variant's name (bar-first does not hold in Acey-Deucey)
   */
  constructor(board, dice, legalPlays, variant = 'standard') {
    this.start = { me: clone(board.me), opp: clone(board.opp) };
    this.dice = dice[0] === dice[1] ? [dice[0], dice[0], dice[0], dice[0]] : [dice[0], dice[1]];
    this.mustEnterFirst = variant !== 'acey-deucey';
    this.plays = legalPlays || [];
    this.finals = new Map(); // board key -> {play, steps}
    for (const play of this.plays) {
      let b = this.start;
      for (const m of play.moves) b = applyStep(b, m.from_point, m.to_point);
      this.finals.set(boardKey(b.me, b.opp), { play, steps: play.moves.length });
    }
    this.length = this.plays.reduce((n, p) => Math.max(n, p.moves.length), 0);
    this.memo = new Map();
    this.reset();
  }

  reset() {
    this.groups = []; // each: steps moved by one click (a checker may use several dice at once)
    this.board = { me: clone(this.start.me), opp: clone(this.start.opp) };
    this.remaining = this.dice.slice();
    this.done = 0;
    this._allowed = null;
  }

  /** Single-die steps the rules of checker movement allow on ``board`` (legality of the whole play aside). */
  steps(board, die) {
    const { me, opp } = board;
    const out = [];
    const sources = [];
    if (me[24] > 0) sources.push(BAR);
    if (!(me[24] > 0 && this.mustEnterFirst)) {
      for (let p = 24; p >= 1; p--) if (me[p - 1] > 0) sources.push(p);
    }
    const home = allHome(me);
    for (const from of sources) {
      let to = (from === BAR ? 25 : from) - die;
      if (to <= 0) {
        if (!home || from === BAR) continue;
        if (to < 0) {
          // A higher die bears off from the highest point only.
          let higher = false;
          for (let i = from; i < 6; i++) if (me[i] > 0) higher = true;
          if (higher) continue;
        }
        to = OFF;
      } else if (opp[24 - to] >= 2) {
        continue; // blocked
      }
      out.push({ from, to, die });
    }
    return out;
  }

  /** Whether a legal play can still be completed from ``board`` with ``remaining`` dice after ``done`` steps. */
  canFinish(board, remaining, done) {
    const key = boardKey(board.me, board.opp);
    const final = this.finals.get(key);
    if (final && final.steps === done) return true;
    if (done >= this.length || remaining.length === 0) return false;
    const memoKey = key + '/' + remaining.slice().sort().join('') + '/' + done;
    if (this.memo.has(memoKey)) return this.memo.get(memoKey);
    let ok = false;
    for (const die of new Set(remaining)) {
      for (const st of this.steps(board, die)) {
        if (this.canFinish(applyStep(board, st.from, st.to), removeOne(remaining, die), done + 1)) {
          ok = true;
          break;
        }
      }
      if (ok) break;
    }
    this.memo.set(memoKey, ok);
    return ok;
  }

  /** Single-die steps from the current board that keep a legal play within reach. */
  allowedSteps() {
    if (this._allowed) return this._allowed;
    const out = [];
    if (!this.complete) {
      for (const die of new Set(this.remaining)) {
        for (const st of this.steps(this.board, die)) {
          const next = applyStep(this.board, st.from, st.to);
          if (this.canFinish(next, removeOne(this.remaining, die), this.done + 1)) {
            out.push({ ...st, hit: next.hit });
          }
        }
      }
    }
    this._allowed = out;
    return out;
  }

  /** Points (25 = bar) with a checker that may move now. */
  sources() {
    return new Set(this.allowedSteps().map((st) => st.from));
  }

  /**
   * Where the checker on ``from`` may go now: a Map from destination to the steps that take it
   * there (one die, or several dice moving the same checker on; the fewest steps first).
   */
  destinations(from) {
    const found = new Map();
    const queue = [{ board: this.board, remaining: this.remaining, at: from, path: [] }];
    while (queue.length) {
      const node = queue.shift();
      const done = this.done + node.path.length;
      for (const die of new Set(node.remaining)) {
        for (const st of this.steps(node.board, die)) {
          if (st.from !== node.at) continue;
          const next = applyStep(node.board, st.from, st.to);
          const rest = removeOne(node.remaining, die);
          if (!this.canFinish(next, rest, done + 1)) continue;
          const path = [...node.path, { ...st, hit: next.hit }];
          if (!found.has(st.to)) found.set(st.to, path);
          if (st.to !== OFF) queue.push({ board: next, remaining: rest, at: st.to, path });
        }
      }
    }
    return found;
  }

  /** Move along ``path`` (from :meth:`destinations`) as one undoable group. */
  move(path) {
    for (const st of path) {
      const next = applyStep(this.board, st.from, st.to);
      this.board = { me: next.me, opp: next.opp };
      this.remaining = removeOne(this.remaining, st.die);
      this.done += 1;
    }
    this.groups.push(path);
    this._allowed = null;
  }

  /** Take back the last group of steps; false when there is none. */
  undo() {
    if (!this.groups.length) return false;
    const groups = this.groups.slice(0, -1);
    this.reset();
    for (const g of groups) this.move(g);
    return true;
  }

  /** Play a whole legal play (its checker moves) from the start of the turn. */
  playWhole(play) {
    this.reset();
    const path = [];
    let b = this.start;
    const left = this.dice.slice();
    for (const m of play.moves) {
      const die = this._dieFor(b, m.from_point, m.to_point, left);
      path.push({ from: m.from_point, to: m.to_point, die, hit: m.hit });
      left.splice(left.indexOf(die), 1);
      b = applyStep(b, m.from_point, m.to_point);
    }
    for (const st of path) this.move([st]);
  }

  _dieFor(board, from, to, left) {
    const dist = (from === BAR ? 25 : from) - to;
    if (left.includes(dist)) return dist;
    const bigger = left.filter((d) => d > dist).sort((a, b) => a - b);
    return bigger.length ? bigger[0] : left[0];
  }

  get complete() {
    if (this.plays.length === 0) return true; // nothing can be played: the roll passes
    const final = this.finals.get(boardKey(this.board.me, this.board.opp));
    return Boolean(final && final.steps === this.done);
  }

  /** The legal play the steps made so far amount to (when complete). */
  get play() {
    const final = this.finals.get(boardKey(this.board.me, this.board.opp));
    if (this.plays.length === 0) return { notation: '', moves: [] };
    return final && final.steps === this.done ? final.play : null;
  }

  /** The steps as the server takes them: [[from, to], ...]. */
  movesForServer() {
    return this.groups.flat().map((st) => [st.from, st.to]);
  }

  /** Dice values already used, for drawing them greyed. */
  usedDice() {
    const used = this.dice.slice();
    for (const d of this.remaining) used.splice(used.indexOf(d), 1);
    return used;
  }

  /** Why the checker on ``from`` cannot move now (a sentence). */
  explainSource(from) {
    const { me, opp } = this.board;
    const mine = from === BAR ? me[24] : from >= 1 && from <= 24 ? me[from - 1] : 0;
    if (this.complete) return 'You have played your roll: confirm the move, or undo to change it.';
    if (!mine) {
      if (from >= 1 && from <= 24 && opp[24 - from] > 0) return 'That is your opponent\'s checker.';
      return 'You have no checker there.';
    }
    if (from !== BAR && me[24] > 0 && this.mustEnterFirst) {
      return 'You have a checker on the bar: enter it before moving any other checker.';
    }
    const dice = this.remaining.join(' and ');
    const anyStep = [...new Set(this.remaining)].some((d) => this.steps(this.board, d).some((st) => st.from === from));
    if (anyStep) {
      return `That checker could move, but then you could not play the rest of your roll (${dice}): ` +
        'the rules make you use as much of the roll as you can.';
    }
    return `That checker has no legal move with ${this.remaining.length > 1 ? 'the dice' : 'the die'} left (${dice}).`;
  }

  /** Why the checker on ``from`` cannot go to ``to`` (a sentence). */
  explainDestination(from, to) {
    const { me, opp } = this.board;
    const name = (p) => (p === BAR ? 'the bar' : p === OFF ? 'off' : `point ${p}`);
    const start = from === BAR ? 25 : from;
    if (to === BAR) return 'Checkers never move back to the bar.';
    if (to !== OFF && to >= start) {
      return `Checkers move towards your home board (point 1): ${name(to)} is behind ${name(from)}.`;
    }
    if (to === OFF) {
      const tmp = { me: clone(me), opp };
      tmp.me[from === BAR ? 24 : from - 1] -= 1;
      if (!allHome(tmp.me) || from === BAR || from > 6) {
        return 'You can bear off only when all your checkers are in your home board (points 1 to 6).';
      }
    } else if (opp[24 - to] >= 2) {
      return `Point ${to} is blocked: your opponent has ${opp[24 - to]} checkers there.`;
    }
    const dist = start - to;
    const sums = new Set();
    let acc = 0;
    for (const d of this.remaining) { acc += d; sums.add(acc); }
    for (const d of this.remaining) sums.add(d);
    if (to !== OFF && !sums.has(dist)) {
      return `No die you have left (${this.remaining.join(' and ')}) moves a checker ${dist} pips, ` +
        `from ${name(from)} to ${name(to)}.`;
    }
    return `Moving from ${name(from)} to ${name(to)} would leave part of your roll unplayable, ` +
      'or passes a blocked point: the rules make you use as much of the roll as you can.';
  }
}
