// The page's words in the reader's language. The server names the language in <html lang>
// (from the gammon_lang cookie that the picker sets, else Accept-Language); the translations
// are /static/i18n/<lang>.json, generated from the gettext catalogs (scripts/i18n_catalogs.py).
// English is the source text itself: nothing is loaded.

export const LANGUAGES = [['en', 'English'], ['nb', 'Norsk bokmål'], ['sv', 'Svenska'], ['da', 'Dansk'], ['pl', 'Polski']];
const COOKIE = 'gammon_lang';
let messages = {};

/** The page's language: the one the server wrote into <html lang>. */
export function currentLanguage() {
  const lang = document.documentElement.lang || 'en';
  return LANGUAGES.some(([code]) => code === lang) ? lang : 'en';
}

/** Load the current language's messages (call once, before drawing the page). */
export async function loadLanguage() {
  const lang = currentLanguage();
  if (lang === 'en') return;
  try {
    const res = await fetch(`/static/i18n/${lang}.json`);
    if (res.ok) messages = (await res.json()).messages || {};
  } catch (err) { /* no catalog: the English shows */ }
}

/** ``message`` in the page's language, its {fields} filled from ``fields``. */
export function t(message, fields) {
  const text = messages[message] || message;
  if (!fields) return text;
  return text.replace(/\{(\w+)\}/g, (whole, key) => (key in fields ? String(fields[key]) : whole));
}

/** Mark ``message`` for the catalogs without translating it (it is translated with t() where shown). */
export function N_(message) {
  return message;
}

/** Remember ``lang`` for this browser (a cookie the server reads) and draw the page again in it. */
export function chooseLanguage(lang) {
  document.cookie = `${COOKIE}=${encodeURIComponent(lang)}; Path=/; Max-Age=31536000; SameSite=Lax`;
  window.location.reload();
}
