// The server's API: REST calls with the seat token in the Authorization header, and seat tokens kept
// in this browser (localStorage) beside the URL fragment, never in a URL the server sees.

import { t } from './i18n.js';

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

// Over a rate limit the server answers 429 with Retry-After, refusing the request before doing
// anything: api() waits that long and sends it again by itself (an action carries its
// expected_version, so a repeat can never apply twice), telling the page through onWait.
const MAX_WAITS = 30;
let waitListener = null;

/** Call fn(seconds) whenever a request waits out a 429 (null: nobody is told). */
export function onWait(fn) {
  waitListener = fn;
}

function retryAfter(response) {
  const s = Number(response.headers.get('Retry-After'));
  return Number.isFinite(s) && s > 0 ? Math.min(s, 60) : 2;
}

export async function api(path, options = {}) {
  for (let waits = 0; ; waits++) {
    try {
      return await apiOnce(path, options);
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 429 || waits >= MAX_WAITS) throw err;
      const seconds = err.retryAfter || 2;
      if (waitListener) waitListener(seconds);
      await new Promise((resolve) => setTimeout(resolve, seconds * 1000 * (1 + Math.random() / 4)));
    }
  }
}

async function apiOnce(path, { method = 'GET', token = null, body = undefined } = {}) {
  const headers = { Accept: 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let response;
  try {
    response = await fetch(`/api${path}`, {
      method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store',
    });
  } catch (e) {
    throw new ApiError(0, 'network', t('The server cannot be reached. Check your connection.'));
  }
  let data = null;
  try { data = await response.json(); } catch (e) { data = null; }
  if (!response.ok) {
    const err = (data && data.error) || {};
    const e = new ApiError(response.status, err.code || `http_${response.status}`,
      err.message || t('The server answered {status}.', { status: response.status }));
    if (response.status === 429) e.retryAfter = retryAfter(response);
    throw e;
  }
  return data;
}

const KEY = (kind, gameId) => `gammon:${kind}:${gameId}`;

function storageGet(key) {
  try { return window.localStorage.getItem(key); } catch (e) { return null; }
}

function storageSet(key, value) {
  try { window.localStorage.setItem(key, value); } catch (e) { /* private mode: the fragment still works */ }
}

export const tokens = {
  seat: (gameId) => storageGet(KEY('token', gameId)),
  saveSeat: (gameId, token) => storageSet(KEY('token', gameId), token),
  invite: (gameId) => storageGet(KEY('invite', gameId)),
  saveInvite: (gameId, token) => storageSet(KEY('invite', gameId), token),
};

/** The parameters of the URL fragment (#token=...&x=...). */
export function fragmentParams() {
  return new URLSearchParams(window.location.hash.replace(/^#/, ''));
}

export function gameUrl(gameId, token) {
  return `/game/${encodeURIComponent(gameId)}#token=${encodeURIComponent(token)}`;
}

export function inviteUrl(gameId, invite) {
  return `${window.location.origin}/join/${encodeURIComponent(gameId)}#invite=${encodeURIComponent(invite)}`;
}

export function watchUrl(gameId) {
  return `${window.location.origin}/watch/${encodeURIComponent(gameId)}`;
}

/** The game's WebSocket: no token in the URL; the page sends it in the first message (authMessage). */
export function socketUrl(gameId) {
  const proto = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${proto}//${window.location.host}/api/games/${encodeURIComponent(gameId)}/ws`;
}

/** The socket's first message: the seat's token, or none to watch. */
export function authMessage(token) {
  return JSON.stringify(token ? { type: 'auth', token } : { type: 'auth' });
}
