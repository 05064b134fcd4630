// The game record's lines in the reader's language.  The server sends each event with its kind,
// its facts (``data``) and core's English sentence; the page says the facts in its own words, and
// shows the English only for a kind it does not know (a newer server).

import { N_, t, tn } from './i18n.js';

const KINDS = { single: N_('a single game'), gammon: N_('a gammon'), backgammon: N_('a backgammon') };

/**
 * The record's sentence for ``ev`` (``who``: the name of the player who did it), or null for a kind
 * this page does not word.
 */
export function eventText(ev, who) {
  const d = ev.data || {};
  const name = who;
  const dice = d.dice || [];
  switch (ev.kind) {
    case 'opening-tie': return t('Both threw {number}: throw again.', { number: dice[0] });
    case 'auto-double': return t('Automatic double: the cube is now {cube}.', { cube: d.cube });
    case 'opening':
      return d.reroll ? t('Opening roll {first}-{second}: {name} starts and throws both dice.', { first: dice[0], second: dice[1], name })
        : t('Opening roll {first}-{second}: {name} starts.', { first: dice[0], second: dice[1], name });
    case 'choose-double': return t('Acey-deucey! {name} names a double.', { name });
    case 'chose-double': return t('{name} plays double {number}s.', { name, number: d.number });
    case 'roll-again': return t('{name} rolls again.', { name });
    case 'doubled': return t('{name} doubles to {cube}.', { name, cube: d.cube });
    case 'took': return t('{name} takes: the cube is {cube}.', { name, cube: d.cube });
    case 'beavered': return t('{name} beavers: the cube is {cube}.', { name, cube: d.cube });
    case 'dropped': return t('{name} drops.', { name });
    case 'resigned':
      return t('{name} offers to resign {what}.', { name, what: KINDS[d.kind] ? t(KINDS[d.kind]) : d.kind });
    case 'resignation-accepted': return t('{name} accepts the resignation.', { name });
    case 'resignation-rejected': return t('{name} refuses the resignation: play on.', { name });
    case 'timeout': return t('{name} ran out of time and loses the match.', { name });
    case 'game-over': {
      const points = tn('{n} point', '{n} points', d.points);
      if (d.timeout) return t('{name} wins {points} on time.', { name, points });
      return t('{name} wins {what}: {points}.', { name, what: KINDS[d.kind] ? t(KINDS[d.kind]) : d.kind, points });
    }
    case 'new-game':
      return d.crawford ? t('Game {number} starts (the Crawford game).', { number: d.game })
        : t('Game {number} starts.', { number: d.game });
    case 'score': return t('Score {score}.', { score: (d.score || []).join('–') });
    case 'match-over':
      if (ev.player === null || ev.player === undefined) return t('The session is over.');
      return / on time/.test(ev.text || '') ? t('{name} wins the match on time.', { name })
        : t('{name} wins the match.', { name });
    default:
      return null;
  }
}
