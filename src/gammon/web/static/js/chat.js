// The game's chat panel: the players' channel for a seat, the spectators' for a watcher.
//
// Messages are plain text and are only ever inserted with textContent (h()'s `text`), never as
// HTML: '<script>' in a message shows as those characters.  The server cleans and limits them;
// the page keeps no rules of its own beyond the field's maxlength.  A message goes out on the game's
// socket when it is open, else over REST; history comes over REST.

import { t } from './i18n.js';
import { api } from './api.js';
import { fill, h } from './util.js';

const MAX_LENGTH = 500;

export class ChatPanel {
  /** gameId, the seat's token (null for a spectator), and socket() giving the open socket or null. */
  constructor(gameId, token, socket) {
    this.gameId = gameId;
    this.token = token;
    this.socket = socket;
    this.seen = new Set();
    this.sent = 0;
    this.list = h('ol.chat-list#chat-list', { 'aria-live': 'polite' });
    this.error = h('p.chat-error#chat-error', { role: 'alert', hidden: true });
    this.input = h('input.chat-input#chat-input', {
      type: 'text', maxlength: String(MAX_LENGTH), autocomplete: 'off', 'aria-label': t('Chat message'),
      placeholder: token ? t('Say something to your opponent') : t('Say something to the other spectators'),
    });
    const form = h('form.chat-form', { onsubmit: (ev) => { ev.preventDefault(); this.send(); } },
      this.input, h('button.chat-send#chat-send', { type: 'submit', text: t('Send') }));
    this.options = h('div.chat-options');
    if (token) {
      this.mute = this.option('chat-mute', t('Mute opponent'), 'muted');
      this.spectators = this.option('chat-spectators', t('Show spectators'), 'spectators');
    }
    this.element = h('section.panel.chat-panel#chat', {},
      h('h2', { text: token ? t('Chat') : t('Spectators’ chat') }), this.list, this.error, form, this.options);
  }

  option(id, label, field) {
    const box = h(`input#${id}`, { type: 'checkbox', onchange: () => this.setOption(field, box.checked) });
    this.options.append(h('label.chat-option', {}, box, ` ${label}`));
    return box;
  }

  /** Read the history (and a seat's settings) again: at start and after each reconnection. */
  async load() {
    try {
      const history = await api(`/games/${this.gameId}/chat`, { token: this.token });
      fill(this.list);
      this.seen.clear();
      for (const m of history.messages) this.receive(m);
      if (this.token) {
        const s = await api(`/games/${this.gameId}/chat/settings`, { token: this.token });
        this.mute.checked = !!s.muted;
        this.spectators.checked = !!s.spectators;
      }
    } catch (err) { /* the socket brings new messages; the history comes with the next connection */ }
  }

  /** A message from the socket or the history (each shown once). */
  receive(m) {
    if (!m || this.seen.has(m.id)) return;
    this.seen.add(m.id);
    const who = m.seat === null ? t('{name} (spectator)', { name: m.author }) : m.author;
    this.list.append(h('li.chat-message', { dataset: { channel: m.channel } },
      h('span.chat-author', { text: `${who}: ` }), h('span.chat-text', { text: m.text })));
    this.list.scrollTop = this.list.scrollHeight;
  }

  /** The socket's answer to one of our messages: true when it was ours. */
  answer(msg) {
    if (typeof msg.request_id !== 'string' || !msg.request_id.startsWith('chat-')) return false;
    if (msg.type === 'error') this.showError(msg.error.message);
    return true;
  }

  showError(text) {
    this.error.textContent = text;
    this.error.hidden = !text;
  }

  async send() {
    const text = this.input.value;
    if (!text.trim()) return;
    this.showError('');
    const ws = this.socket();
    if (ws) {
      this.sent += 1;
      ws.send(JSON.stringify({ type: 'chat', request_id: `chat-${this.sent}`, text }));
    } else {
      try {
        this.receive(await api(`/games/${this.gameId}/chat`, { method: 'POST', token: this.token, body: { text } }));
      } catch (err) {
        this.showError(err.message);
        return;
      }
    }
    this.input.value = '';
  }

  async setOption(field, value) {
    try {
      await api(`/games/${this.gameId}/chat/settings`, { method: 'PUT', token: this.token, body: { [field]: value } });
      this.load();
    } catch (err) {
      this.showError(err.message);
    }
  }
}
