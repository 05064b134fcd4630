// The game page: /game/{id}#token=... for a seat, /watch/{id} for a spectator.
//
// The page reads the state over REST, then follows the game on its WebSocket (reconnecting with
// backoff; every connection starts with the full state).  Actions go over REST with the state's
// version, so a stale page is refused rather than acting on a game it has not seen.

import { N_, num, t, tn } from './i18n.js';
import { GameAccess } from './access.js';
import { analysisPanel, followAnalysis } from './analysis.js';
import { api, ApiError, authMessage, fragmentParams, gameUrl, inviteUrl, onWait, socketUrl, tokens, watchUrl } from './api.js';
import { BoardView } from './board.js';
import { ChatPanel } from './chat.js';
import { eventText } from './events.js';
import { MoveBuilder } from './moves.js';
import { themePicker } from './theme.js';
import { copyText, fill, h, VARIANT_TITLES } from './util.js';

const RESIGN_LABELS = { single: N_('a single game'), gammon: N_('a gammon'), backgammon: N_('a backgammon') };
/** A seat's name as shown: the names the server gives ("Computer (expert)", "Guest") in the page's language. */
const seatName = (s) => {
  if (s.kind === 'computer' && s.level && s.name === 'Computer (' + s.level + ')') return t('Computer ({level})', { level: s.level });
  return s.kind === 'human' && s.name === 'Guest' ? t('Guest') : s.name;
};
/** A result's kind in words (the server's word itself when it is none of the three). */
const kindWords = (kind) => (RESIGN_LABELS[kind] ? t(RESIGN_LABELS[kind]) : kind);
// The server lets a player call off a game whose opponent never moved after this many seconds.
const CANCEL_GRACE_MS = 30000;
// A second tap on the same point this soon after the first is a double tap (a mouse says so itself).
const DOUBLE_TAP_MS = 350;
// A tap this close to a checker that may move counts as on it (CSS px): every target that size at least.
const TARGET_PX = 44;
const AUTO_CONFIRM_KEY = 'gammon.autoConfirm';

/** Whether this browser asked to send a complete play without Confirm (remembered in localStorage). */
function autoConfirmOn() {
  try { return window.localStorage.getItem(AUTO_CONFIRM_KEY) === '1'; } catch (e) { return false; }
}

export function gamePage(root, gameId, { spectator = false } = {}) {
  let token = null;
  if (!spectator) {
    token = fragmentParams().get('token') || tokens.seat(gameId);
    if (token) tokens.saveSeat(gameId, token);
  }
  const page = new GamePage(root, gameId, token);
  page.start();
  return page;
}

class GamePage {
  constructor(root, gameId, token) {
    this.root = root;
    this.gameId = gameId;
    this.token = token;
    this.state = null;
    this.builder = null;
    this.selected = null;
    this.dests = new Map();
    this.entries = [];
    this.hint = null;
    this.verify = null;
    this.busy = false;
    this.ws = null;
    this.attempts = 0;
    this.closed = false;
    this.suppressClick = false;
    this.resigning = false;
    this.build();
  }

  // -- layout ------------------------------------------------------------------------------

  build() {
    this.el = {};
    const e = this.el;
    e.title = h('span.game-title');
    e.conn = h('span.conn', { text: t('connecting…'), title: t('Connection to the server') });
    // The rules of this game's variant with its settings; the server says which options they bring.
    e.rules = h('a.rules-link', { href: '/rules', text: t('these rules'), target: '_blank', rel: 'noopener' });
    e.oppStrip = h('div.strip.opp');
    e.meStrip = h('div.strip.me');
    e.svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    e.svg.setAttribute('class', 'board');
    e.svg.setAttribute('role', 'img');
    e.svg.setAttribute('aria-label', t('Backgammon board'));
    this.board = new BoardView(e.svg, (p, ev) => this.onPoint(p, ev), () => this.onCube());
    this.installDrag(e.svg);
    e.status = h('p.status#status', { role: 'status', 'aria-live': 'polite' });
    e.notice = h('p.notice#notice', { role: 'alert', 'aria-live': 'assertive', hidden: true });
    e.controls = h('div.controls#controls');
    e.banner = h('div.banner#banner', { hidden: true });
    e.side = h('aside.side');
    e.hintPanel = h('section.panel.hint-panel#hint-panel', { hidden: true });
    e.resultPanel = h('section.panel.result-panel#result', { hidden: true });
    e.invitePanel = h('section.panel.invite-panel#invite', { hidden: true });
    e.recordList = h('ol.record-list#record');
    e.recordPanel = h('section.panel.record-panel', {}, h('h2', { text: t('Record') }), e.recordList,
      h('p.downloads', {}, t('Download:') + ' ',
        h('a', { href: `/api/games/${this.gameId}/export.mat`, download: '', text: '.mat' }), ' · ',
        h('a', { href: `/api/games/${this.gameId}/export.sgf`, download: '', text: 'SGF' }), ' · ',
        h('a', { href: `/api/games/${this.gameId}/export.json`, download: '', text: 'JSON' })));
    e.fairPanel = h('section.panel.fair-panel#fair');
    e.autoConfirm = h('input#auto-confirm', { type: 'checkbox', checked: autoConfirmOn(), onchange: (ev) => {
      try { window.localStorage.setItem(AUTO_CONFIRM_KEY, ev.target.checked ? '1' : '0'); } catch (err) { /* kept for this page */ }
      this.autoConfirm = ev.target.checked;
    } });
    this.autoConfirm = autoConfirmOn();
    e.inputPanel = h('section.panel.input-panel#input-panel', {}, h('h2', { text: t('Moving checkers') }),
      h('p.muted', { text: t('Tap a checker: it moves by the higher die (tap it again for the other). Double-tap: both dice, or off. Drag it to any point it can reach.') }),
      h('label.check.auto-confirm', {}, e.autoConfirm, h('span', { text: t('Confirm a complete play automatically') })));
    this.chat = new ChatPanel(this.gameId, this.token,
      () => (this.ws && this.ws.readyState === WebSocket.OPEN ? this.ws : null));
    // The board's theme is picked beside the game (the header stays short on a phone).
    e.themePanel = h('section.panel.theme-panel', {}, h('label.row', {}, h('span', { text: t('Board theme') }), themePicker()));
    e.side.append(e.resultPanel, e.invitePanel, e.hintPanel, e.inputPanel, this.chat.element, e.recordPanel, e.fairPanel,
      e.themePanel);
    this.access = new GameAccess(this); // keyboard play, live region, sounds, turn notice
    this.access.keepFocus(e.controls);
    const table = h('section.table', {},
      e.oppStrip, h('div.board-wrap', {}, e.svg, e.banner), e.meStrip, e.status, e.notice, e.controls, this.access.element);
    this.root.classList.add('app-game');
    fill(this.root,
      h('header.topbar', {}, h('a.brand', { href: '/', text: 'gammon' }), e.title, e.rules, e.conn),
      h('main.game', {}, table, e.side));
    document.addEventListener('keydown', (ev) => this.onKey(ev));
    window.addEventListener('resize', () => requestAnimationFrame(() => this.fitBoard()));
  }

  // -- loading and following -----------------------------------------------------------------

  async start() {
    this.setStatus(t('Loading the game…'));
    // Requests over a rate limit wait and go again by themselves: say so, keep the game on screen.
    onWait((seconds) => this.showNotice(t('The server is busy: trying again in {seconds} s…', { seconds: Math.ceil(seconds) })));
    try {
      const st = await api(`/games/${this.gameId}`, { token: this.token });
      this.applyState(st);
      await this.loadRecord();
    } catch (err) {
      if (err instanceof ApiError && (err.status === 404 || err.status === 403)) {
        this.fatal(err);
      } else { // the server cannot be reached or is busy: try again, never leave the game
        this.setStatus(t('{error} Trying again…', { error: err.message }), 'error');
        setTimeout(() => this.start(), 3000);
      }
      return;
    }
    this.connect();
    window.addEventListener('online', () => this.reconnectNow());
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible') this.reconnectNow();
    });
  }

  fatal(err) {
    let text = err.message || String(err);
    if (err instanceof ApiError && err.status === 404) text = t('There is no such game here. Check the link.');
    if (err instanceof ApiError && err.status === 403) {
      text = t('This link holds no seat in this game. Ask your opponent for a new link, or watch the game.');
    }
    fill(this.el.controls, h('a.button', { href: '/', text: t('Start a new game') }),
      err.status === 403 ? h('a.button.secondary', { href: `/watch/${this.gameId}`, text: t('Watch it') }) : null);
    this.setStatus(text, 'error');
    this.setConn('offline');
  }

  connect() {
    if (this.closed) return;
    clearTimeout(this.retryTimer);
    const ws = new WebSocket(socketUrl(this.gameId));
    this.ws = ws;
    ws.onopen = () => {
      ws.send(authMessage(this.token));
      this.attempts = 0;
      this.setConn('live');
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => {
        if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: 'ping' }));
      }, 25000);
    };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch (e) { return; }
      if (this.chat.answer(msg)) return;
      if (msg.type === 'hello') {
        this.applyState(msg.state);
        this.loadRecord();
        this.chat.load();
      } else if (msg.type === 'chat') {
        this.chat.receive(msg.message);
      } else if (msg.type === 'state') {
        this.applyState(msg.state);
      } else if (msg.type === 'action') {
        this.addEntry(msg.entry);
      } else if (msg.type === 'error' && msg.request_id == null) {
        this.showNotice(msg.error.message);
      }
    };
    ws.onclose = (ev) => {
      clearInterval(this.pingTimer);
      if (this.ws !== ws) return;
      this.ws = null;
      if (ev.code === 4400 || ev.code === 4403 || ev.code === 4404) {
        this.setConn('offline');
        return;
      }
      this.scheduleReconnect();
    };
    ws.onerror = () => { /* onclose follows */ };
  }

  scheduleReconnect() {
    this.attempts += 1;
    const delay = Math.min(10000, 400 * 2 ** Math.min(this.attempts, 6)) * (0.75 + Math.random() / 2);
    this.setConn('retry');
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  reconnectNow() {
    if (!this.ws && !this.closed && this.state) {
      this.attempts = 0;
      this.connect();
    }
  }

  /** Show the connection's state: 'live', 'retry' (reconnecting) or 'offline'. */
  setConn(state) {
    const words = { live: t('live'), retry: t('reconnecting…'), offline: t('offline') };
    this.el.conn.textContent = words[state] || words.offline;
    this.el.conn.dataset.state = state === 'live' || state === 'retry' ? state : 'off';
  }

  async loadRecord() {
    try {
      const log = await api(`/games/${this.gameId}/actions`);
      if (log.actions.length >= this.entries.length) this.entries = log.actions; // the socket may be ahead
      this.renderRecord();
    } catch (err) { /* the socket brings the rest */ }
  }

  addEntry(entry) {
    const last = this.entries.length ? this.entries[this.entries.length - 1].seq : 0;
    if (entry.seq <= last) return;
    if (entry.seq !== last + 1) {
      this.loadRecord();
      return;
    }
    this.entries.push(entry);
    this.access.entry(entry);
    const st = this.state;
    if (st && entry.type === 'play' && entry.player !== this.viewer && entry.action.moves) {
      // The opponent's play glides step by step once the state that includes it is shown.
      const mine = (x) => (x === 25 || x === 0 ? x : 25 - x);
      const moves = [];
      for (const [from, to, hit] of entry.action.moves) {
        moves.push({ side: 'theirs', from: mine(from), to: mine(to) });
        if (hit) moves.push({ side: 'mine', from: mine(to), to: 25 });
      }
      this.pendingMotion = { seq: entry.seq, moves };
    }
    this.renderRecord();
  }

  /** Seconds of delay and of reserve ``seat`` has now, counted on from the server's last state. */
  clockLeft(seat) {
    const c = this.state.clock;
    const gone = (Date.now() - this.stateAt) / 1000;
    if (c.running !== seat) return { delay: 0, reserve: c.remaining[seat] };
    const used = (Date.parse(c.now) - Date.parse(c.since)) / 1000;
    const delayLeft = c.delay_left ?? Math.max(0, c.delay - used); // the server's: one delay per turn
    return { delay: Math.max(0, delayLeft - gone), reserve: Math.max(0, c.remaining[seat] - Math.max(0, gone - delayLeft)) };
  }

  renderClocks() {
    if (!this.state || !this.state.clock) return;
    const fmt = (t) => `${Math.floor(t / 60)}:${String(Math.floor(t % 60)).padStart(2, '0')}`;
    for (const el of this.root.querySelectorAll('.strip .clock')) {
      const seat = Number(el.dataset.seat);
      const left = this.clockLeft(seat);
      el.textContent = (left.delay > 0 ? t('+{seconds}s', { seconds: Math.ceil(left.delay) }) + ' ' : '') + fmt(left.reserve);
      el.classList.toggle('running', this.state.clock.running === seat);
      el.classList.toggle('low', left.reserve < 30);
    }
  }

  startClockTicks() {
    if (!this.state.clock || this.clockTimer) return;
    this.clockTimer = setInterval(() => this.renderClocks(), 250);
  }

  onCube() {
    const st = this.state;
    if (!st || st.you === null) return;
    if (st.allowed_actions.includes('double')) this.send({ type: 'double' });
    else if (st.allowed_actions.includes('take')) this.showNotice(t('Answer the double with the buttons: take or drop.'));
    else if (!st.cube.in_use) this.showNotice(t('This game is played without the cube.'));
    else this.showNotice(t('You may double before you roll, when the cube is in the middle or yours.'));
  }

  applyState(st) {
    if (this.state && st.version < this.state.version) return;
    const changed = !this.state || st.version !== this.state.version || this.state.you !== st.you;
    const wasOver = this.state && this.state.match.over;
    this.state = st;
    this.stateAt = Date.now();
    this.startClockTicks();
    if (changed) {
      this.selected = null;
      this.dests = new Map();
      this.hint = null;
      this.resigning = false;
      this.builder = null;
      if (st.allowed_actions.includes('play') && st.steps && st.you !== null) {
        this.builder = new MoveBuilder(st.steps); // the server's tree of legal steps: the page only walks it
      }
      this.clearNotice();
      if (this.builder && !this.builder.canMove) setTimeout(() => this.maybeAutoConfirm(true), 0); // a pass
    }
    if (st.match.over && (!wasOver || !this.verify)) {
      this.loadVerify();
      this.loadAnalysis();
    }
    this.render();
  }

  async loadVerify() {
    try {
      this.verify = await api(`/games/${this.gameId}/verify`);
    } catch (err) {
      this.verify = { verified: null, message: err.message };
    }
    this.renderResult();
  }

  async loadAnalysis() {
    const gameId = this.gameId;
    await followAnalysis(gameId, (a) => {
      if (this.gameId !== gameId) return false;
      this.analysis = a;
      if (a.status !== 'running') this.renderRecord();
      this.renderResult();
      return true;
    });
  }

  // -- names and words ---------------------------------------------------------------------

  get viewer() {
    return this.state && this.state.you !== null ? this.state.you : 0;
  }

  name(seat) {
    if (!this.state) return t('Player {seat}', { seat });
    if (this.state.you === seat) return t('You');
    return seatName(this.state.seats[seat]);
  }

  plainName(seat) {
    return this.state ? seatName(this.state.seats[seat]) : t('Player {seat}', { seat });
  }

  withNames(text) {
    return text.replace(/player ([01])/g, (_, s) => this.plainName(Number(s)));
  }

  // -- acting ------------------------------------------------------------------------------

  async send(action) {
    if (this.busy || !this.state) return;
    this.busy = true;
    this.renderControls();
    try {
      const res = await api(`/games/${this.gameId}/actions`, {
        method: 'POST', token: this.token, body: { ...action, expected_version: this.state.version },
      });
      for (const a of res.actions) this.addEntry(a);
      this.busy = false;
      this.applyState(res.state);
      this.renderControls(); // the socket may have brought a newer state first
      const stuck = res.actions.flatMap((a) => a.events).find((ev) => ev.kind === 'no-move' && ev.player === this.state.you);
      if (stuck) {
        const dice = (stuck.data.dice || this.lastRoll() || []).join('-');
        this.showNotice(t('You rolled {dice} and cannot move: the turn passes.', { dice }));
      }
    } catch (err) {
      this.busy = false;
      this.showNotice(err.message);
      if (err.code === 'version_conflict' || err.status === 409) {
        try { this.applyState(await api(`/games/${this.gameId}`, { token: this.token })); } catch (e) { /* keep */ }
      }
      this.renderControls();
    }
  }

  confirm() {
    if (!this.builder || !this.builder.complete) {
      this.showNotice(t('Your move is not complete yet: play all the dice you can.'));
      return;
    }
    this.send({ type: 'play', play: this.builder.movesForServer() });
  }

  undo() {
    if (this.builder && this.builder.undo()) {
      this.selected = null;
      this.dests = new Map();
      this.clearNotice();
      this.render();
    }
  }

  async askHint() {
    if (!this.builder) return;
    this.el.hintPanel.hidden = false;
    fill(this.el.hintPanel, h('h2', { text: t('Hint') }), h('p.muted', { text: t('Thinking…') }));
    try {
      this.hint = await api(`/games/${this.gameId}/hint?count=5`, { token: this.token });
    } catch (err) {
      this.hint = null;
      fill(this.el.hintPanel, h('h2', { text: t('Hint') }), h('p.muted', { text: err.message }));
      return;
    }
    this.renderHint();
  }

  // -- the board -----------------------------------------------------------------------------

  onPoint(p, ev) {
    if (this.suppressClick) return;
    const st = this.state;
    if (!st) return;
    if (!this.builder) {
      if (st.you === null) this.showNotice(t('You are watching this game: only the players move.'));
      else if (st.allowed_actions.includes('roll')) this.showNotice(t('Roll the dice first.'));
      else if (st.allowed_actions.length) this.showNotice(this.statusText());
      else if (st.match.over) this.showNotice(t('The game is over.'));
      else this.showNotice(t('It is not your turn: {name} is to play.', { name: this.name(st.to_act ?? st.turn) }));
      return;
    }
    const b = this.builder;
    if (b.complete) {
      this.showNotice(b.canMove ? t('You have played your roll: confirm the move, or undo to change it.')
        : t('You cannot move: confirm to pass.'));
      return;
    }
    if (this.selected !== null) { // picked by a drag (or the keyboard): a tap says where it goes
      if (p === this.selected) {
        this.select(null);
        return;
      }
      p = this.near(p, ev, new Set(this.dests.keys()));
      if (this.dests.has(p)) {
        this.moveTo(p);
        return;
      }
      if (b.sources().has(p)) {
        this.select(p);
        return;
      }
      const mine = p === 25 ? b.board.me[24] : p >= 1 && p <= 24 ? b.board.me[p - 1] : 0;
      if (mine && p !== 0) this.explainSource(p);
      else this.explainStep(this.selected, p, b.explainDestination(this.selected, p));
      return;
    }
    if (p === 0) {
      this.showNotice(t('Pick one of your checkers first, then where it goes.'));
      return;
    }
    const last = this.lastTap;
    this.lastTap = null;
    if (last && last.point === p && last.groups === b.groups.length && ev
      && (ev.detail >= 2 || (ev.pointerType === 'touch' && ev.timeStamp - last.at < DOUBLE_TAP_MS))) {
      this.doubleTap(p);
      return;
    }
    const mine = p === 25 ? b.board.me[24] : p >= 1 && p <= 24 ? b.board.me[p - 1] : 0;
    if (!mine) p = this.near(p, ev, b.sources());
    if (b.sources().has(p)) {
      this.tapMove(p);
      this.lastTap = { point: p, at: ev ? ev.timeStamp : 0, groups: b.groups.length };
    } else {
      this.explainSource(p);
    }
  }

  /**
   * The point of ``wanted`` a tap at ``ev`` meant: ``p`` itself, or the one whose column, grown to
   * TARGET_PX each way where it is narrower (the points of a small phone are), holds the tap.
   * A click from the keyboard (no position) keeps ``p``.
   */
  near(p, ev, wanted) {
    if (wanted.has(p) || !ev || !ev.detail || typeof ev.clientX !== 'number') return p;
    let best = p;
    let bestDistance = Infinity;
    for (const q of wanted) {
      const el = this.el.svg.querySelector(`.hit[data-point='${q}']`);
      if (!el) continue;
      const r = el.getBoundingClientRect();
      const dx = Math.max(r.left - ev.clientX, 0, ev.clientX - r.right);
      const dy = Math.max(r.top - ev.clientY, 0, ev.clientY - r.bottom);
      const inside = dx <= Math.max(0, (TARGET_PX - r.width) / 2) && dy <= Math.max(0, (TARGET_PX - r.height) / 2);
      if (inside && Math.hypot(dx, dy) < bestDistance) {
        best = q;
        bestDistance = Math.hypot(dx, dy);
      }
    }
    return best;
  }

  /** A tap on a checker that may move: it moves by the higher die that fits (the tree's child). */
  tapMove(p) {
    const b = this.builder;
    const step = b.tapStep(p);
    if (!step) return;
    const sure = b.tapIsForced(p);
    this.walk([step]);
    this.maybeAutoConfirm(sure);
  }

  /**
   * A double tap on ``p`` (its first tap already moved a checker from there): that checker off, or
   * on by both dice instead.  Where it can do neither, the second tap is a tap of its own.
   */
  doubleTap(p) {
    const b = this.builder;
    const first = b.groups[b.groups.length - 1];
    b.undo();
    const path = b.doubleTapPath(p);
    if (!path || path[path.length - 1].node === first[first.length - 1].node) {
      b.move(first);
      if (b.sources().has(p) && !b.complete) this.tapMove(p);
      return;
    }
    const sure = b.unique(p, path[path.length - 1].to);
    this.walk(path);
    this.maybeAutoConfirm(sure);
  }

  /**
   * With "confirm automatically" on, send the play once it is complete, when ``sure``: the last
   * move had no other way to end (the page did not pick among several), so nothing was guessed.
   */
  maybeAutoConfirm(sure) {
    const b = this.builder;
    if (!this.autoConfirm || !sure || !b || !b.complete || this.busy) return;
    if (!this.state || !this.state.allowed_actions.includes('play')) return;
    this.confirm();
  }

  /** Why the checker on ``p`` cannot move: the board's facts here, the rule from the server. */
  explainSource(p) {
    const b = this.builder;
    const { me } = b.board;
    const mine = p === 25 ? me[24] : p >= 1 && p <= 24 ? me[p - 1] : 0;
    const left = b.diceLeft();
    if (!mine || b.complete || !left.length) {
      this.showNotice(b.explainSource(p));
      return;
    }
    // Ask about the biggest die left: the rule that stops it (bar first, a blocked point, ...).
    this.explainStep(p, Math.max(0, p - Math.max(...left)), b.explainSource(p));
  }

  /**
   * Say why the step ``from`` -> ``to`` is refused.  The page holds no rules: it shows the tree's
   * plain words at once and asks the server for gammon.core's reason, which replaces them
   * (``fallback`` stays when the server cannot say, or the board has changed meanwhile).
   */
  async explainStep(from, to, fallback) {
    this.showNotice(fallback);
    const b = this.builder;
    this.whyAsked = (this.whyAsked || 0) + 1;
    const asked = { seq: this.whyAsked, walked: b.path.length, version: this.state.version };
    let answer;
    try {
      answer = await api(`/games/${this.gameId}/why-not`, {
        method: 'POST', token: this.token,
        body: { walked: b.path.map((st) => [st.from, st.to, st.die]), from_point: from, to_point: to,
          version: this.state.version },
      });
    } catch (e) {
      return; // the plain words stay
    }
    const current = this.whyAsked === asked.seq && this.builder === b && b.path.length === asked.walked
      && this.state.version === asked.version;
    if (!current || answer.allowed || !answer.message) return;
    const text = answer.message.charAt(0).toUpperCase() + answer.message.slice(1);
    this.showNotice(/[.!?]$/.test(text) ? text : `${text}.`);
    this.el.notice.dataset.reason = answer.reason;
  }

  select(p) {
    this.selected = p;
    this.dests = p === null ? new Map() : this.builder.destinations(p);
    this.clearNotice();
    this.renderBoard();
    this.setStatus(this.statusText());
  }

  moveTo(p) {
    const from = this.selected;
    const sure = this.builder.unique(from, p);
    this.walk(this.dests.get(p));
    this.maybeAutoConfirm(sure);
  }

  /** Walk ``path`` on the builder as one undoable move, the checkers gliding along it. */
  walk(path) {
    this.builder.move(path);
    this.access.moved(path);
    const moves = [];
    for (const st of path) {
      moves.push({ side: 'mine', from: st.from, to: st.to });
      if (st.hit) moves.push({ side: 'theirs', from: st.to, to: 25 });
    }
    this.pendingMotion = { seq: this.state.actions, moves };
    this.selected = null;
    this.dests = new Map();
    this.clearNotice();
    this.render();
  }

  installDrag(svg) {
    let drag = null;
    const toSvg = (ev) => {
      const pt = svg.createSVGPoint();
      pt.x = ev.clientX;
      pt.y = ev.clientY;
      const m = svg.getScreenCTM();
      return m ? pt.matrixTransform(m.inverse()) : { x: 0, y: 0 };
    };
    svg.addEventListener('pointerdown', (ev) => {
      if (ev.button !== 0 || !this.builder || this.builder.complete) return;
      const t = ev.target.closest && ev.target.closest('[data-point]');
      if (!t) return;
      const p = Number(t.dataset.point);
      if (!this.builder.sources().has(p)) return;
      drag = { from: p, x: ev.clientX, y: ev.clientY, active: false, id: ev.pointerId };
    });
    svg.addEventListener('pointermove', (ev) => {
      if (!drag || ev.pointerId !== drag.id) return;
      if (!drag.active) {
        if (Math.hypot(ev.clientX - drag.x, ev.clientY - drag.y) < 8) return;
        drag.active = true;
        try { svg.setPointerCapture(ev.pointerId); } catch (e) { /* fine */ }
        this.select(drag.from);
        drag.ghost = document.createElementNS('http://www.w3.org/2000/svg', 'circle');
        drag.ghost.setAttribute('class', 'ghost');
        drag.ghost.setAttribute('r', '28');
      }
      const q = toSvg(ev);
      drag.ghost.setAttribute('cx', String(q.x));
      drag.ghost.setAttribute('cy', String(q.y));
      if (!drag.ghost.isConnected) svg.append(drag.ghost);
    });
    const end = (ev) => {
      if (!drag || ev.pointerId !== drag.id) return;
      const d = drag;
      drag = null;
      if (!d.active) return;
      if (d.ghost) d.ghost.remove();
      this.suppressClick = true;
      setTimeout(() => { this.suppressClick = false; }, 0);
      if (ev.type === 'pointercancel') return;
      const el = document.elementFromPoint(ev.clientX, ev.clientY);
      const t = el && el.closest && el.closest('[data-point]');
      if (!t) return;
      const p = Number(t.dataset.point);
      if (p === d.from) return;
      if (this.dests.has(p)) this.moveTo(p);
      else this.explainStep(d.from, p, this.builder.explainDestination(d.from, p));
    };
    svg.addEventListener('pointerup', end);
    svg.addEventListener('pointercancel', end);
  }

  onKey(ev) {
    if (ev.target && /^(INPUT|TEXTAREA|SELECT)$/.test(ev.target.tagName)) return;
    if (ev.key === 'Enter' && ev.target && ev.target.closest && ev.target.closest('button, a')) return; // the focused button acts
    const allowed = this.state ? this.state.allowed_actions : [];
    if (ev.key === 'r' && allowed.includes('roll')) this.send({ type: 'roll' });
    else if (ev.key === 'Enter' && this.builder && this.builder.complete) this.confirm();
    else if ((ev.key === 'u' || ev.key === 'Backspace') && this.builder) this.undo();
    else if (ev.key === 'Escape' && this.selected !== null) this.select(null);
    else return;
    ev.preventDefault();
  }

  // -- rendering -------------------------------------------------------------------------------

  render() {
    if (!this.state) return;
    this.renderTitle();
    this.renderBoard();
    this.renderStrips();
    this.renderControls();
    this.setStatus(this.statusText());
    this.renderBanner();
    this.renderResult();
    this.renderInvite();
    this.renderHint();
    this.renderFair();
    this.root.dataset.phase = this.state.phase;
    this.root.dataset.version = String(this.state.version);
    this.fitBoard();
    this.root.dataset.status = this.state.status;
    this.root.dataset.position = this.state.board.position_id;
    this.access.update();
  }

  renderTitle() {
    const st = this.state;
    const variant = t(VARIANT_TITLES[st.rules.variant] || st.rules.variant);
    const number = st.match.game_number;
    let kind = st.match.length ? t('match to {length}, game {number}', { length: st.match.length, number })
      : t('money game');
    if (!st.match.length && st.rules.games > 1) {
      kind = t('money session, game {number} of {games}', { number, games: st.rules.games });
    }
    if (st.match.crawford_game) kind += ' ' + t('(Crawford game)');
    const people = st.seats.every((seat) => seat.kind === 'human');
    const parts = [variant, kind];
    if (people) parts.push(st.rules.hints ? t('hints on for both') : t('no hints'));
    if (st.you === null) parts.push(t('watching'));
    this.el.title.textContent = parts.join(' · ');
    document.title = `${variant} – gammon`;
    const r = st.rules;
    const query = new URLSearchParams({
      match_length: r.match_length, crawford: r.crawford, jacoby: r.jacoby, beavers: r.beavers,
      automatic_doubles: r.automatic_doubles, cube_limit: r.cube_limit, gammons: r.gammons, cube: r.cube,
      opening: r.opening, back: window.location.pathname,
    });
    this.el.rules.href = `/rules/${encodeURIComponent(r.variant)}?${query}`;
  }

  boardModel() {
    const st = this.state;
    const v = this.viewer;
    const b = this.builder;
    const mine = b ? b.board.me : st.board.points[v];
    const theirs = b ? b.board.opp : st.board.points[1 - v];
    const moved = b ? st.board.points[v].reduce((a, c) => a + c, 0) - b.board.me.reduce((a, c) => a + c, 0) : 0;
    const model = {
      mine, theirs,
      offMine: st.board.off[v] + moved,
      offTheirs: st.board.off[1 - v],
      interactive: Boolean(b && !b.complete),
      selected: this.selected,
      dests: new Set(this.dests.keys()),
      movable: b && this.selected === null && !b.complete ? b.sources() : new Set(),
      lastTo: this.lastOpponentPoints(),
      cube: {
        show: st.cube.in_use,
        value: st.cube.value,
        owner: st.cube.owner === null ? null : st.cube.owner === v ? 'me' : 'opp',
        offeredBy: st.cube.offered_by === null ? null : st.cube.offered_by === v ? 'me' : 'opp',
      },
      dice: null,
    };
    if (st.dice && st.phase !== 'doubled') {
      model.dice = { values: st.dice, used: b ? b.usedDice() : [], side: st.turn === v ? 'me' : 'opp',
        cards: st.fair_dice.cards || null };
    }
    return model;
  }

  lastRoll() {
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const e = this.entries[i];
      if (e.type === 'roll' && e.action.dice) return e.action.dice;
    }
    return null;
  }

  /** "Computer played 24/18 13/10. " when the opponent's action is the last thing that happened. */
  lastOpponentPlay() {
    const st = this.state;
    const e = this.entries[this.entries.length - 1];
    if (!e || e.player === st.you || st.you === null || e.action.game !== st.match.game_number) return '';
    const who = this.plainName(e.player);
    switch (e.type) {
      case 'play': return (e.action.play ? t('{name} played {play}.', { name: who, play: e.action.play })
        : t('{name} could not move.', { name: who })) + ' ';
      case 'take': return t('{name} took: the cube is at {cube}.', { name: who, cube: st.cube.value }) + ' ';
      case 'beaver': return t('{name} beavered: the cube is at {cube}.', { name: who, cube: st.cube.value }) + ' ';
      case 'reject': return t('{name} rejected your resignation.', { name: who }) + ' ';
      default: return '';
    }
  }

  lastOpponentPoints() {
    const v = this.viewer;
    const out = new Set();
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const e = this.entries[i];
      if (e.type !== 'play') continue;
      if (e.player === v || !e.action.moves) break;
      if (this.state.phase === 'over' || this.state.match.game_number !== e.action.game) break;
      for (const [, to] of e.action.moves) if (to !== 0) out.add(25 - to);
      break;
    }
    return out;
  }

  /**
   * The board's size comes from the CSS alone (gammon.css): upright on a phone it takes the height
   * that the bar, the names, the status and the buttons leave, whatever the turn, so it never jumps
   * and the buttons never leave the screen.  Nothing is measured here any more; an older page's
   * inline size is cleared.
   */
  fitBoard() {
    this.el.svg.style.maxHeight = '';
  }

  renderBoard() {
    if (!this.state) return;
    this.board.render(this.boardModel());
    const motion = this.pendingMotion;
    if (motion && this.state.actions >= motion.seq) {
      this.pendingMotion = null;
      this.board.glide(motion.moves);
    }
  }

  renderStrips() {
    const st = this.state;
    const v = this.viewer;
    const b = this.builder;
    const strip = (seat, el) => {
      const pipCount = b ? b.pips[seat === v ? 0 : 1] : st.board.pips[seat];
      const seatInfo = st.seats[seat];
      const active = st.to_act === seat || (st.to_act === null && st.phase !== 'over' && st.status === 'active' && false);
      let tag = '';
      if (!seatInfo.joined) tag = t('not joined yet');
      else if (st.status === 'active' && st.to_act === seat) {
        tag = seatInfo.kind === 'computer' ? t('thinking…') : seat === st.you ? t('your turn') : t('to play');
      }
      const score = st.match.length ? `${st.match.score[seat]} / ${st.match.length}`
        : tn('{n} pt', '{n} pts', st.match.score[seat]);
      fill(el,
        h('span.swatch', { class: `swatch ${seat === v ? 'mine' : 'theirs'}` }),
        h('span.name', { text: seat === st.you ? t('{name} (you)', { name: seatName(seatInfo) }) : seatName(seatInfo) }),
        seatInfo.level && !seatInfo.name.includes(seatInfo.level) ? h('span.level', { text: seatInfo.level }) : null,
        h('span.tag', { text: tag, hidden: !tag }),
        h('span.spacer'),
        h('span.figures', {},
          st.clock ? h('span.clock', { title: t('Time left: the delay of this turn, then the reserve'), dataset: { seat } }) : null,
          h('span.pips', { title: t('Pip count'), text: tn('{n} pip', '{n} pips', pipCount) }),
          h('span.score', { title: st.match.length ? t('Match score') : t('Points won'), text: score })));
      el.classList.toggle('active', Boolean(active));
      el.dataset.seat = String(seat);
    };
    strip(1 - v, this.el.oppStrip);
    strip(v, this.el.meStrip);
    this.renderClocks();
  }

  button(label, onClick, { id, kind = '', disabled = false, title } = {}) {
    return h(`button.btn${kind ? '.' + kind : ''}`, {
      type: 'button', text: label, onclick: onClick, disabled: disabled || this.busy,
      id: id || null, title: title || null,
    });
  }

  renderControls() {
    const st = this.state;
    if (!st) return;
    const allowed = st.allowed_actions;
    const out = [];
    const b = this.builder;
    if (this.resigning) {
      out.push(h('span.ask', { text: t('Resign:') }));
      for (const kind of ['single', 'gammon', 'backgammon']) {
        const words = { single: t('Single'), gammon: t('Gammon'), backgammon: t('Backgammon') };
        const btn = this.button(words[kind], () => this.send({ type: 'resign', kind }),
          { id: `resign-${kind}`, kind: 'danger' });
        if (kind === 'single') btn.append(h('span.roomy', { text: ' ' + t('game') })); // "Single" where room is short
        out.push(btn);
      }
      out.push(this.button(t('Cancel'), () => this.askResign(false), { id: 'resign-cancel' }));
      fill(this.el.controls, out);
      return;
    }
    if (allowed.includes('roll')) {
      const label = st.phase === 'opening' ? t('Roll to start') : st.phase === 'over' ? t('Start next game') : t('Roll');
      out.push(this.button(label, () => this.send({ type: 'roll' }), { id: 'roll', kind: 'primary', title: t('Roll (r)') }));
    }
    if (allowed.includes('double')) {
      out.push(this.button(t('Double to {cube}', { cube: st.cube.value * 2 }), () => this.send({ type: 'double' }), { id: 'double' }));
    }
    if (allowed.includes('take')) out.push(this.button(t('Take'), () => this.send({ type: 'take' }), { id: 'take', kind: 'primary' }));
    if (allowed.includes('beaver')) {
      out.push(this.button(t('Beaver (to {cube})', { cube: st.cube.value * 4 }), () => this.send({ type: 'beaver' }), { id: 'beaver' }));
    }
    if (allowed.includes('drop')) out.push(this.button(t('Drop'), () => this.send({ type: 'drop' }), { id: 'drop', kind: 'danger' }));
    if (allowed.includes('accept')) {
      out.push(this.button(t('Accept'), () => this.send({ type: 'accept' }), { id: 'accept', kind: 'primary' }));
    }
    if (allowed.includes('reject')) out.push(this.button(t('Reject'), () => this.send({ type: 'reject' }), { id: 'reject' }));
    if (allowed.includes('choose-double')) {
      out.push(h('span.ask', { text: t('Play double:') }));
      for (let n = 1; n <= 6; n++) {
        out.push(this.button(t('{number}s', { number: n }), () => this.send({ type: 'choose-double', number: n }), { id: `choose-${n}` }));
      }
    }
    if (allowed.includes('play') && b) {
      out.push(this.button(b.canMove ? t('Confirm') : t('Confirm (no move)'), () => this.confirm(),
        { id: 'confirm', kind: 'primary', disabled: !b.complete, title: t('Confirm (Enter)') }));
      out.push(this.button(t('Undo'), () => this.undo(), { id: 'undo', disabled: !b.groups.length, title: t('Undo (u)') }));
      if ((st.legal_plays || []).length > 1 && st.rules.hints) {
        out.push(this.button(t('Hint'), () => this.askHint(), { id: 'hint', kind: 'quiet' }));
      }
    }
    if (allowed.includes('resign')) {
      out.push(this.button(t('Resign…'), () => this.askResign(true), { id: 'resign', kind: 'quiet' }));
    }
    if (st.match.over) {
      if (st.you !== null) out.push(this.rematchButton('rematch-control'));
      out.push(h('a.btn#new-game', { href: '/', text: t('New game') }));
    }
    if (this.opponentNeverMoved()) {
      out.push(this.button(t('Call the game off'), () => this.cancelGame(), {
        id: 'call-off', kind: 'quiet', title: t('Your opponent has not moved: end the game with no result') }));
    }
    fill(this.el.controls, out);
  }

  /** Whether this seat may call the game off: it waits on an opponent who never acted, for a while. */
  opponentNeverMoved() {
    const st = this.state;
    if (!st || st.you === null || st.status !== 'active' || st.match.over) return false;
    if (st.seats.some((s) => s.kind === 'computer')) return false;
    const other = 1 - st.you;
    if (this.entries.some((e) => e.player === other)) return false; // they have moved: play it out
    if (this.entries.length > 0 && st.to_act !== other) return false; // nothing played, or it waits on them
    const waited = Date.now() - this.stateAt;
    if (waited < CANCEL_GRACE_MS) {
      clearTimeout(this.callOffTimer); // show the button once the grace has passed
      this.callOffTimer = setTimeout(() => this.renderControls(), CANCEL_GRACE_MS - waited + 500);
      return false;
    }
    return true;
  }

  /** Cancel the game (the host before anyone joined, or either seat when the opponent never moved). */
  async cancelGame() {
    if (!window.confirm(t('Cancel this game? It ends with no result.'))) return;
    try {
      this.applyState(await api(`/games/${this.gameId}/cancel`, { method: 'POST', token: this.token }));
    } catch (err) {
      this.showNotice(err.message);
    }
  }

  /** Show (or take back) the three resignations to choose from, the status line asking which. */
  askResign(on) {
    this.resigning = on;
    this.renderControls();
    this.setStatus(this.statusText());
    this.fitBoard();
  }

  statusText() {
    const st = this.state;
    const you = st.you;
    const allowed = st.allowed_actions;
    if (this.resigning && allowed.includes('resign')) return t('Resign: which result do you give up?');
    const other = (seat) => this.name(seat);
    if (st.status === 'expired') return t('Nobody joined this game in time: it has expired.');
    if (st.status === 'cancelled') return t('This game was called off before it was played: it has no result.');
    if (st.status === 'waiting') {
      const missing = st.seats.findIndex((s) => !s.joined);
      const name = st.seats[missing].name;
      if (you !== null && st.rematch_of) return t('Waiting for {name} to accept the rematch.', { name });
      if (you === null) return t('Waiting for the second player to join.');
      return name === 'Guest' ? t('Waiting for your opponent to join: send them the invitation link.')
        : t('Waiting for {name} to join: send them the invitation link.', { name });
    }
    if (st.match.over) {
      const w = st.match.winner;
      if (w === null || w === undefined) return t('The game is over.');
      const late = st.match.timeout;
      const onTime = late !== null && late !== undefined;
      const name = this.plainName(w);
      const won = {
        match: [t('You won the match!'), t('{name} won the match.', { name }),
          t('You won the match on time!'), t('{name} won the match on time.', { name })],
        session: [t('You won the session!'), t('{name} won the session.', { name }),
          t('You won the session on time!'), t('{name} won the session on time.', { name })],
        game: [t('You won the game!'), t('{name} won the game.', { name }),
          t('You won the game on time!'), t('{name} won the game on time.', { name })],
      }[st.match.length ? 'match' : st.rules.games > 1 ? 'session' : 'game'][(w === you ? 0 : 1) + (onTime ? 2 : 0)];
      if (!onTime) return won;
      return won + ' ' + (late === you ? t('Your time ran out.')
        : t('{name}’s time ran out.', { name: this.plainName(late) }));
    }
    if (st.phase === 'over') {
      return allowed.includes('roll') ? this.resultSentence() + ' ' + t('Roll to start the next game.') : this.resultSentence();
    }
    const turn = st.to_act;
    const cube = st.cube.value * 2;
    switch (st.phase) {
      case 'opening':
        return allowed.includes('roll') ? t('Roll to decide who starts: each player throws one die.')
          : t('Waiting for the opening roll.');
      case 'roll':
        if (turn === you) {
          return this.lastOpponentPlay() +
            (allowed.includes('double') ? t('Your turn: roll the dice, or double.') : t('Your turn: roll the dice.'));
        }
        return t('{name} to roll.', { name: other(turn) });
      case 'doubled': {
        const doubler = this.plainName(st.cube.offered_by);
        if (turn === you) return t('{name} doubles to {cube}: take or drop?', { name: doubler, cube });
        return st.cube.offered_by === you ? t('You doubled to {cube}: waiting for {name} to answer.', { cube, name: other(turn) })
          : t('{name} doubles to {cube}.', { name: doubler, cube });
      }
      case 'beavered':  // after a beaver the doubler takes (cube doubled again) or drops
        return turn === you ? t('Your double was beavered: take at {cube} or drop (losing {lose})?', { cube, lose: st.cube.value })
          : t('Beavered: waiting for {name} to take or drop.', { name: other(turn) });
      case 'move': {
        const dice = st.dice ? st.dice.join('-') : '';
        if (turn === you && this.builder) {
          const b = this.builder;
          if (!b.canMove) return t('You rolled {dice} and cannot move: confirm to pass.', { dice });
          if (b.complete) return b.play ? t('Your move {play}: confirm it, or undo.', { play: b.play }) : t('Your move: confirm it, or undo.');
          if (this.selected !== null) return t('Now click where the checker goes (highlighted).');
          return t('You rolled {dice}: tap a checker to move it, or drag it.', { dice });
        }
        return st.seats[turn].kind === 'computer' ? t('{name} rolled {dice} and is thinking…', { name: other(turn), dice })
          : t('{name} rolled {dice} and is moving.', { name: other(turn), dice });
      }
      case 'choose-double':
        return turn === you ? t('Acey-deucey! Choose the double to play.') : t('{name} chooses a double.', { name: other(turn) });
      case 'resigned': {
        const r = st.resignation;
        const what = kindWords(r.kind);
        const name = this.plainName(r.player);
        if (turn === you) return t('{name} offers to resign {what}: accept or reject?', { name, what });
        return r.player === you ? t('You offered to resign {what}: waiting for the answer.', { what })
          : t('{name} offers to resign {what}.', { name, what });
      }
      default:
        return '';
    }
  }

  /** "You won the game!" / "Bob won the match." / "Bob wins game 2." */
  headline() {
    const st = this.state;
    if (st.match.over) return this.statusText();
    const r = st.result;
    if (!r) return t('The game is over.');
    const number = st.match.game_number;
    return r.winner === st.you ? t('You win game {number}!', { number })
      : t('{name} wins game {number}.', { name: this.plainName(r.winner), number });
  }

  /** "A gammon: 2 points (cube 1, by resignation)." */
  resultDetail() {
    const r = this.state.result;
    if (!r) return '';
    const points = tn('{n} point', '{n} points', r.points);
    const notes = [];
    if (r.cube > 1) notes.push(t('cube at {cube}', { cube: r.cube }));
    if (r.timeout) {
      return notes.length ? t('On time: {points} ({notes}).', { points, notes: notes.join(', ') })
        : t('On time: {points}.', { points });
    }
    const what = { single: t('A single game'), gammon: t('A gammon'), backgammon: t('A backgammon') }[r.kind] || r.kind;
    if (r.dropped) notes.push(t('the double was dropped'));
    else if (r.resigned) notes.push(t('by resignation'));
    return notes.length ? t('{what}: {points} ({notes}).', { what, points, notes: notes.join(', ') })
      : t('{what}: {points}.', { what, points });
  }

  resultSentence() {
    const r = this.state.result;
    if (!r) return t('The game is over.');
    const fields = { name: this.plainName(r.winner), what: kindWords(r.kind), points: tn('{n} point', '{n} points', r.points) };
    const mine = r.winner === this.state.you;
    if (r.dropped) {
      return mine ? t('You win {what} (the double was dropped): {points}.', fields)
        : t('{name} wins {what} (the double was dropped): {points}.', fields);
    }
    if (r.resigned) {
      return mine ? t('You win {what} by resignation: {points}.', fields)
        : t('{name} wins {what} by resignation: {points}.', fields);
    }
    return mine ? t('You win {what}: {points}.', fields) : t('{name} wins {what}: {points}.', fields);
  }

  renderBanner() {
    const st = this.state;
    // The banner sits over the board; closing it shows the final position until the game moves on.
    const show = (st.phase === 'over' || st.status === 'waiting' || st.status === 'expired' || st.status === 'cancelled')
      && this.bannerClosedAt !== st.version;
    this.el.banner.hidden = !show;
    if (!show) return;
    const close = h('button.banner-close#banner-close', {
      type: 'button', text: '×', title: t('Close: show the board'), 'aria-label': t('Close'),
      onclick: () => { this.bannerClosedAt = st.version; this.renderBanner(); },
    });
    if (st.status === 'expired') {
      fill(this.el.banner, close, h('strong', { text: t('This game has expired') }),
        h('span', { text: t('Nobody joined it in time.') }));
      return;
    }
    if (st.status === 'cancelled') {
      fill(this.el.banner, close, h('strong', { text: t('This game was called off') }),
        h('span', { text: t('It was cancelled before it was played: it has no result.') }),
        h('div.banner-actions', {}, h('a.btn', { href: '/', text: t('New game') })));
      return;
    }
    if (st.status === 'waiting') {
      fill(this.el.banner, close, h('strong', { text: t('Waiting for your opponent') }),
        h('span', { text: st.rematch_of ? t('The rematch starts when they accept it.') : t('The game starts when they open the invitation.') }));
      return;
    }
    const next = [];
    if (st.allowed_actions.includes('roll') && !st.match.over) {
      next.push(this.button(t('Next game'), () => this.send({ type: 'roll' }), { id: 'next-game', kind: 'primary' }));
    }
    if (st.match.over && st.you !== null) next.push(this.rematchButton());
    fill(this.el.banner, close, h('strong', { text: this.headline() }), h('span', { text: this.resultDetail() }),
      h('span', { text: this.scoreLine() }), next.length ? h('div.banner-actions', {}, next) : null);
  }

  /** Rematch (or accept the opponent's): a new game with the same settings, linked to this one. */
  rematchButton(id = 'rematch') {
    const st = this.state;
    const offered = st.rematch_id && !tokens.seat(st.rematch_id);
    const label = offered ? t('Accept the rematch') : st.rematch_id ? t('Go to the rematch') : t('Rematch');
    return this.button(label, () => this.rematch(), { id, kind: 'primary' });
  }

  async rematch() {
    const st = this.state;
    const mine = st.rematch_id ? tokens.seat(st.rematch_id) : null;
    if (mine) {
      window.location.assign(gameUrl(st.rematch_id, mine));
      return;
    }
    try {
      const joined = await api(`/games/${this.gameId}/rematch`, { method: 'POST', token: this.token });
      tokens.saveSeat(joined.state.id, joined.token);
      window.location.assign(gameUrl(joined.state.id, joined.token));
    } catch (err) {
      this.showNotice(err.message);
    }
  }

  scoreLine() {
    const st = this.state;
    const [a, b] = [this.plainName(0), this.plainName(1)];
    const [x, y] = st.match.score;
    const fields = { length: st.match.length, first: a, second: b, score: `${x} – ${y}` };
    return st.match.length ? t('Match to {length}: {first} {score} {second}', fields) : t('Points: {first} {score} {second}', fields);
  }

  renderResult() {
    const st = this.state;
    const panel = this.el.resultPanel;
    if (!st || !st.match.over) {
      panel.hidden = true;
      return;
    }
    panel.hidden = false;
    const ver = this.verify;
    let dice;
    if (!ver) dice = h('p.muted', { text: t('Checking the dice…') });
    else {
      const ok = ver.verified === true;
      dice = h('div.verify', { class: `verify ${ok ? 'ok' : 'bad'}`, id: 'verify' },
        h('p.verdict', { text: ok ? '✔ ' + tn('Dice verified: OK — the roll comes from the revealed seed.',
          'Dice verified: OK — all {n} rolls come from the revealed seed.', ver.rolls.length)
          : '✘ ' + ver.message }),
        h('p', {}, t('Commitment (SHA-256 of the seed, shown from the first roll):') + ' ', h('code', { text: ver.commitment })),
        ver.seed ? h('p', {}, t('Seed:') + ' ', h('code#seed', { text: ver.seed })) : null,
        ok ? null : h('p.muted', { text: ver.message || '' }));
    }
    fill(panel,
      h('h2', { text: st.match.length ? t('Match over') : t('Game over') }),
      h('p.result-line#result-line', { text: this.statusText() }),
      h('p', { text: this.resultDetail() }),
      h('p.score-line#score-line', { text: this.scoreLine() }),
      this.analysisSummary(),
      h('h3', { text: t('Fair dice') }), dice,
      h('p.downloads', {}, t('Save the game:') + ' ',
        h('a#download-mat', { href: `/api/games/${this.gameId}/export.mat`, download: '', text: '.mat' }), ' · ',
        h('a#download-sgf', { href: `/api/games/${this.gameId}/export.sgf`, download: '', text: 'SGF' }), ' · ',
        h('a', { href: `/api/games/${this.gameId}/export.json`, download: '', text: 'JSON' })),
      st.rematch_id && st.you !== null && !tokens.seat(st.rematch_id)
        ? h('p.rematch-offer#rematch-offer', { text: t('A rematch is on offer: accept it with the button below the board.') }) : null,
      h('p', {}, h('a.btn', { href: '/', text: t('Start a different game') })));
  }

  analysisSummary() {
    return this.analysis ? analysisPanel(this.analysis, (seat) => this.plainName(seat)) : null;
  }

  renderInvite() {
    const st = this.state;
    const panel = this.el.invitePanel;
    const invite = tokens.invite(this.gameId);
    if (st.status !== 'waiting' || st.you === null || st.rematch_of) {
      panel.hidden = true;
      return;
    }
    panel.hidden = false;
    const link = invite ? inviteUrl(this.gameId, invite) : null;
    const input = link ? h('input.link', { type: 'text', readonly: true, value: link }) : null;
    const copied = h('span.copied', { text: '' });
    fill(panel, h('h2', { text: t('Invite your opponent') }),
      link ? h('p', { text: t('Send this link to the person you want to play:') }) : h('p', { text: t('Send your opponent the invitation link you got when you created the game.') }),
      link ? h('div.copy-row', {}, input, this.button(t('Copy'), async () => {
        copied.textContent = (await copyText(link, input)) ? t('Copied!') : t('Select the link and copy it.');
      }, { kind: 'quiet' }), copied) : null,
      h('p', {}, t('Spectators:') + ' ', h('a', { href: watchUrl(this.gameId), text: watchUrl(this.gameId) })),
      h('p', {}, this.button(t('Cancel this game'), () => this.cancelGame(), { id: 'cancel-game', kind: 'quiet' })));
  }

  renderHint() {
    const panel = this.el.hintPanel;
    if (!this.hint || !this.builder) {
      panel.hidden = true;
      return;
    }
    panel.hidden = false;
    const hint = this.hint;
    const rows = hint.plays.map((p, i) => h('li', {},
      h('button.link-btn', {
        type: 'button', text: p.notation || t('(no move)'), title: t('Show this play on the board'),
        onclick: () => { this.builder.playWhole(p); this.selected = null; this.dests = new Map(); this.render(); },
      }),
      p.equity !== null ? h('span.eq', { text: ' ' + num(p.equity, 3, true) }) : null,
      p.difference !== null && i > 0 ? h('span.diff', { text: ' (' + num(p.difference, 3) + ')' }) : null));
    fill(panel, h('h2', { text: t('Hint') }),
      h('ol.hint-list', {}, rows),
      h('p.muted', { text: (hint.engine === 'heuristic' ? t('Ranked by the quick heuristic.')
        : t('Equities at this score and cube, by {engine}.', { engine: hint.engine })) + ' ' + t('Click a play to set it on the board.') }));
  }

  renderFair() {
    const st = this.state;
    const f = st.fair_dice;
    this.el.fairPanel.hidden = st.match.over; // the result panel shows the verification
    if (st.match.over) return;
    fill(this.el.fairPanel, h('h2', { text: t('Fair dice') }),
      h('p.muted', { text: f.revealed ? t('The seed is revealed: every roll can be checked.')
        : t('Before the first roll the server committed to its secret dice seed with this hash; the seed is revealed when the game ends.') }),
      h('p', {}, h('code.commitment', { text: f.commitment })),
      h('p.muted', { text: tn('{n} roll so far.', '{n} rolls so far.', f.rolls_made) }));
  }

  renderRecord() {
    if (!this.state) return;
    const items = [];
    const reviews = new Map(((this.analysis && this.analysis.plays) || []).map((r) => [r.seq, r]));
    let game = 0;
    let pendingRoll = null;
    for (const e of this.entries) {
      const g = e.action.game || 1;
      if (g !== game) {
        game = g;
        items.push(h('li.game-head', { text: t('Game {number}', { number: g }) }));
      }
      for (const ev of e.events) {
        const who = ev.player === null || ev.player === undefined ? '' : this.plainName(ev.player);
        switch (ev.kind) {
          case 'rolled':
            pendingRoll = ev.data.dice;
            break;
          case 'turn':
          case 'roll-again':
            break;
          case 'no-move':
            items.push(h('li.move', {}, h('b', { text: who }), ' ' + t('{dice}: cannot move', { dice: (ev.data.dice || pendingRoll || []).join('-') })));
            break;
          case 'played': {
            const review = reviews.get(e.seq);
            const line = h('li.move', { dataset: { seq: e.seq } }, h('b', { text: who }),
              ` ${(pendingRoll || []).join('-')}: `, h('span.play', { text: e.action.play || ev.data.play || '' }));
            if (review && review.mark) {
              line.classList.add('marked');
              const memg = Math.round(1000 * review.loss);
              line.append(h('span.mark', { text: ` ${review.mark}` }),
                h('span.best', { text: ' ' + t('best {play} (−{memg} mEMG)', { play: review.best, memg }) }));
              line.title = t('Equity lost: {memg} mEMG; best play: {play}', { memg, play: review.best });
            }
            items.push(line);
            pendingRoll = null;
            break;
          }
          case 'game-over':
          case 'match-over':
            items.push(h('li.end', { text: eventText(ev, who) || this.withNames(ev.text) }));
            break;
          default:
            items.push(h('li.event', { text: eventText(ev, who) || this.withNames(ev.text) }));
        }
      }
    }
    if (!items.length) items.push(h('li.muted', { text: t('No moves yet.') }));
    fill(this.el.recordList, items);
    this.el.recordList.scrollTop = this.el.recordList.scrollHeight;
    this.renderBoard();
    if (this.selected === null) this.setStatus(this.statusText());
  }

  setStatus(text, kind = '') {
    this.el.status.textContent = text;
    this.el.status.className = `status ${kind}`;
  }

  showNotice(text) {
    this.el.notice.textContent = text;
    delete this.el.notice.dataset.reason; // set by explainStep when the words are core's rule
    this.el.notice.hidden = false;
    clearTimeout(this.noticeTimer);
    this.noticeTimer = setTimeout(() => this.clearNotice(), 8000);
  }

  clearNotice() {
    this.el.notice.hidden = true;
    this.el.notice.textContent = '';
  }
}
