// The after-game analysis: gammon.analysis's report (the same as `gammon analyse`), fetched from
// /api/games/{id}/analysis and drawn in the result panel.  The server makes it in a thread: until it
// is made the answer is `running` with the progress, shown here with a progress bar.

import { N_, num, t } from './i18n.js';
import { api } from './api.js';
import { h } from './util.js';

const POLL_MS = 600;
const MARK_WORDS = { doubtful: N_('doubtful'), error: N_('error'), blunder: N_('blunder') };
const SYMBOLS = { doubtful: '?!', error: '?', blunder: '??' };
// The words the report sends (gammon.analysis's error kinds and GNU Backgammon's rating names),
// marked here so that the catalogs carry them; shown with t().
const REPORT_WORDS = [
  N_('missed double (below cash point)'), N_('missed double (above cash point)'), N_('wrong double (too early)'),
  N_('wrong double (too good)'), N_('wrong take'), N_('wrong pass'), N_('wrong beaver'), N_('wrong resignation'),
  N_('wrong acceptance'), N_('wrong refusal'), N_('wrong double chosen'),
  N_('Supernatural'), N_('World class'), N_('Expert'), N_('Advanced'), N_('Intermediate'), N_('Casual player'),
  N_('Beginner'), N_('Awful!'), N_('N/A'),
  N_('no double'), N_('double'), N_('take'), N_('pass'), N_('beaver'), N_('play on'), N_('accept'), N_('reject'),
  N_('resigns a single game'), N_('resigns a gammon'), N_('resigns a backgammon'),
  N_('resign a single game'), N_('resign a gammon'), N_('resign a backgammon'),
  N_('accepts a single game'), N_('accepts a gammon'), N_('accepts a backgammon'),
  N_('rejects a single game'), N_('rejects a gammon'), N_('rejects a backgammon'),
];
/** A word of the report in the page's language (the word itself when the catalogs lack it). */
const reportWord = (word) => (REPORT_WORDS.includes(word) ? t(word) : word);

/**
 * Ask for the analysis until it is made or failed, calling ``onUpdate(result)`` after each answer;
 * stops early when ``onUpdate`` returns false (the page moved on).
 */
export async function followAnalysis(gameId, onUpdate) {
  for (;;) {
    let a;
    try {
      a = await api(`/games/${encodeURIComponent(gameId)}/analysis`);
    } catch (err) {
      a = { status: 'failed', message: err.message, done: 0, total: 0, engine: null };
    }
    if (onUpdate(a) === false || a.status !== 'running') return a;
    await new Promise((resolve) => { setTimeout(resolve, POLL_MS); });
  }
}

const rate = (x) => num(x, 1);
const signed = (x) => num(x, 3, true);

function playersTable(report, nameOf) {
  const ps = report.players;
  const row = (label, cell, title) => h('tr', {}, h('th', { scope: 'row', text: label, title }),
    ps.map((p) => h('td', { text: cell(p) })));
  return h('table.analysis-players#analysis-players', {},
    h('thead', {}, h('tr', {}, h('th', { text: '' }), ps.map((p, seat) => h('th', { scope: 'col', text: nameOf(seat) })))),
    h('tbody', {},
      row(t('Error rate'), (p) => rate(p.error_rate), t('mEMG lost per decision (unforced moves and close cube decisions)')),
      row(t('Checker'), (p) => `${rate(p.checker_error_rate)} (${p.unforced_moves})`, t('mEMG per unforced move (how many)')),
      row(t('Cube'), (p) => `${rate(p.cube_error_rate)} (${p.close_cube_decisions})`, t('mEMG per close cube decision (how many)')),
      row('PR', (p) => rate(p.pr), t('eXtreme Gammon’s performance rating: half the error rate')),
      row(t('Rating'), (p) => reportWord(p.rating), t('GNU Backgammon’s name for the error rate')),
      row('?! / ? / ??', (p) => `${p.marks.doubtful} / ${p.marks.error} / ${p.marks.blunder}`,
        t('doubtful plays, errors and blunders')),
      row(t('Luck'), (p) => signed(p.luck), t('normalised equity the dice gave, over all rolls'))));
}

function mistakeItem(d, nameOf) {
  const where = t('Game {number}, turn {turn}, {name}', { number: d.game, turn: d.turn, name: nameOf(d.player) });
  const what = d.kind === 'move' ? `${d.dice ? d.dice.join('-') : ''} ${d.played}` : reportWord(d.played);
  const kind = d.error_kind ? ', ' + reportWord(d.error_kind) : '';
  return h('li', { class: `mistake mark-${d.mark}` },
    h('span.where', { text: `${where}: ` }), h('span.play', { text: what.trim() }),
    h('span.mark', { text: ` ${SYMBOLS[d.mark]} ${t(MARK_WORDS[d.mark])}${kind}, −${Math.round(d.equity_lost_memg)} mEMG` }),
    d.best && d.best !== d.played ? h('div.better', {}, t('Better:') + ' ', h('span.play', { text: reportWord(d.best) })) : null,
    d.explanation ? h('div.why', { text: d.explanation }) : null);
}

/** The analysis panel for a result of /analysis; ``nameOf(seat)`` names the players. */
export function analysisPanel(a, nameOf) {
  const title = h('h3', { text: t('Analysis') });
  if (a.status === 'running') {
    const text = a.total ? t('Analysing the game ({engine}): {done} of {total} decisions…', { engine: a.engine, done: a.done, total: a.total })
      : t('Starting the analysis…');
    const bar = h('progress#analysis-bar', { max: Math.max(a.total, 1) });
    if (a.total) bar.value = a.done;
    return h('div.analysis#analysis', { dataset: { status: 'running' } }, title,
      h('p.analysis-progress#analysis-progress', {}, bar, ' ', h('span', { text })));
  }
  if (a.status !== 'done' || !a.report) {
    return h('div.analysis#analysis', { dataset: { status: 'failed' } }, title,
      h('p.muted', { text: t('No analysis: {reason}', { reason: a.message || t('it could not be made.') }) }));
  }
  const report = a.report;
  const decisions = report.games.flatMap((g) => g.decisions);
  const mistakes = decisions.filter((d) => d.mark === 'error' || d.mark === 'blunder');
  // The graph is the server's SVG (matplotlib's, with its own styles) drawn as an image; a click
  // shows it over the page at full width, another click puts it back.
  const graph = a.graph_svg ? h('img.analysis-graph#analysis-graph', {
    src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(a.graph_svg)}`,
    alt: t('Equity graph: the match winning chance (or points) after every decision, mistakes and luck marked'),
    title: t('Click to enlarge'), tabindex: '0',
    onclick: (e) => e.currentTarget.classList.toggle('zoomed'),
    onkeydown: (e) => {
      if (e.key === 'Escape') e.currentTarget.classList.remove('zoomed');
      else if (e.key === 'Enter' || e.key === ' ') e.currentTarget.classList.toggle('zoomed');
    },
  }) : null;
  return h('div.analysis#analysis', { dataset: { status: 'done' } }, title,
    playersTable(report, nameOf),
    graph,
    h('h4', { text: mistakes.length ? t('Errors and blunders ({count})', { count: mistakes.length }) : t('No errors or blunders') }),
    mistakes.length ? h('ol.analysis-mistakes#analysis-mistakes', {}, mistakes.map((d) => mistakeItem(d, nameOf))) : null,
    h('p.muted', { text: t('By {engine}, as “gammon analyse”: rates in mEMG (thousandths of normalised equity) per decision; marks from 30 (?! doubtful), 60 (? error) and 120 (?? blunder) mEMG.', { engine: a.engine }) }));
}
