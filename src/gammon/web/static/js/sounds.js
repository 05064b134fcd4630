// The game's sounds: the dice, a checker set down, a hit, and "your turn".
//
// Every sound is made here with the Web Audio API (an oscillator or a burst of noise through a gain
// envelope): no sound files travel.  Sounds are off until the player turns them on with the switch;
// the choice is remembered in this browser (localStorage).  The audio context is made on the first
// sound after the switch is on, which is after a click or a key press, as browsers require.

import { t } from './i18n.js';
import { h } from './util.js';

const KEY = 'gammon:sounds';
let context = null;

/** Whether the player has turned the sounds on (off on a first visit). */
export function soundsOn() {
  try { return window.localStorage.getItem(KEY) === 'on'; } catch (e) { return false; }
}

/** Turn the sounds on or off, and remember it. */
export function setSounds(on) {
  try { window.localStorage.setItem(KEY, on ? 'on' : 'off'); } catch (e) { /* not remembered */ }
}

function audio() {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return null;
  if (!context) context = new Ctx();
  if (context.state === 'suspended') context.resume().catch(() => {});
  return context;
}

/** A tone from ``freq`` towards ``to`` Hz, starting ``at`` seconds from now, fading out over ``length``. */
function tone(ctx, { freq, to = freq, at = 0, length = 0.12, volume = 0.2, type = 'sine' }) {
  const start = ctx.currentTime + at;
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, start);
  osc.frequency.exponentialRampToValueAtTime(to, start + length);
  gain.gain.setValueAtTime(volume, start);
  gain.gain.exponentialRampToValueAtTime(0.001, start + length);
  osc.connect(gain).connect(ctx.destination);
  osc.start(start);
  osc.stop(start + length + 0.02);
}

/** A short rattle of noise (a die hitting the board), ``at`` seconds from now. */
function click(ctx, at, length = 0.035, volume = 0.35) {
  const frames = Math.ceil(ctx.sampleRate * length);
  const buffer = ctx.createBuffer(1, frames, ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < frames; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / frames) ** 2;
  const src = ctx.createBufferSource();
  const gain = ctx.createGain();
  const filter = ctx.createBiquadFilter();
  filter.type = 'bandpass';
  filter.frequency.value = 2400;
  gain.gain.value = volume;
  src.buffer = buffer;
  src.connect(filter).connect(gain).connect(ctx.destination);
  src.start(ctx.currentTime + at);
}

const SOUNDS = {
  dice: (ctx) => { for (const at of [0, 0.07, 0.12, 0.2, 0.24]) click(ctx, at); },
  move: (ctx) => tone(ctx, { freq: 220, to: 140, length: 0.09, volume: 0.25, type: 'triangle' }),
  hit: (ctx) => {
    tone(ctx, { freq: 520, to: 260, length: 0.08, volume: 0.25, type: 'square' });
    tone(ctx, { freq: 180, to: 90, at: 0.06, length: 0.14, volume: 0.3, type: 'triangle' });
  },
  turn: (ctx) => {
    tone(ctx, { freq: 660, length: 0.16, volume: 0.15 });
    tone(ctx, { freq: 880, at: 0.14, length: 0.28, volume: 0.15 });
  },
};

/** Play the sound ``kind`` ('dice', 'move', 'hit', 'turn') when the sounds are on. */
export function playSound(kind) {
  if (!soundsOn() || !SOUNDS[kind]) return;
  document.documentElement.dataset.lastSound = kind; // what was heard last: for the page's tests
  try {
    const ctx = audio();
    if (ctx) SOUNDS[kind](ctx);
  } catch (e) { /* no audio here: the game goes on silently */ }
}

/** The switch that turns the sounds on and off (a labelled checkbox). */
export function soundSwitch() {
  const box = h('input#sound-switch', { type: 'checkbox', checked: soundsOn() });
  box.addEventListener('change', () => {
    setSounds(box.checked);
    if (box.checked) playSound('move'); // a gesture: the audio may start now, and the player hears it works
  });
  return h('label.switch', {}, box, ' ', t('Sounds'));
}
