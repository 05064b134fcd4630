// Small DOM helpers shared by the pages.

import { N_, t } from './i18n.js';

/** h('div.card#main', {onclick}, child, ...): an element with classes, id, attributes and children. */
export function h(spec, attrs = {}, ...children) {
  const m = /^([a-z0-9-]+)?((?:[.#][\w-]+)*)$/i.exec(spec);
  const el = document.createElement((m && m[1]) || 'div');
  if (m && m[2]) {
    for (const part of m[2].match(/[.#][\w-]+/g)) {
      if (part[0] === '.') el.classList.add(part.slice(1));
      else el.id = part.slice(1);
    }
  }
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

function setAttrs(el, attrs) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'text') el.textContent = v;
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k in el && typeof v !== 'string') el[k] = v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
}

export function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/** Replace the children of ``el``. */
export function fill(el, ...children) {
  el.replaceChildren();
  return append(el, children);
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** An SVG element with attributes and children. */
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'text') el.textContent = v;
    else if (k === 'class') el.setAttribute('class', Array.isArray(v) ? v.filter(Boolean).join(' ') : v);
    else el.setAttribute(k, String(v));
  }
  for (const c of children.flat(Infinity)) if (c) el.append(c);
  return el;
}

/** Copy ``text`` to the clipboard (falls back to selecting ``input`` for browsers without the API). */
export async function copyText(text, input) {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch (e) { /* fall through */ }
  if (input) {
    input.focus();
    input.select();
    try { return document.execCommand('copy'); } catch (e) { return false; }
  }
  return false;
}

/** "a, b and c". */
export function listing(items) {
  if (items.length <= 1) return items.join('');
  return items.slice(0, -1).join(', ') + ' and ' + items[items.length - 1];
}

/** The most characters a player name may have: the server's NAME_MAX_LENGTH (a test keeps them equal). */
export const NAME_MAX_LENGTH = 24;

/** The name this browser used last, cut to the limit. */
export function savedName() {
  try { return (window.localStorage.getItem('gammon:name') || '').slice(0, NAME_MAX_LENGTH); } catch (e) { return ''; }
}

export const VARIANT_TITLES = {
  standard: 'Backgammon', nackgammon: 'Nackgammon', hypergammon: 'Hypergammon',
  hypergammon2: N_('Hypergammon (2 checkers)'), hypergammon1: N_('Hypergammon (1 checker)'),
  dutch: N_('Dutch backgammon'), 'acey-deucey': 'Acey-Deucey',
};

/** A game's clock as the server sends it ({delay, reserve} in seconds; null: none), in words. */
export function clockText(clock) {
  if (!clock) return t('no clock');
  const span = (s) => (s >= 60 && s % 60 === 0 ? (s === 60 ? t('1 minute') : t('{n} minutes', { n: s / 60 })) : `${s} s`);
  return t('{delay} a turn + {reserve} each', { delay: span(clock.delay), reserve: span(clock.reserve) });
}
