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
  const found = messages[message];
  return filled(typeof found === 'string' && found ? found : message, fields);
}

function filled(text, fields) {
  if (!fields) return text;
  return text.replace(/\{(\w+)\}/g, (whole, key) => (key in fields ? String(fields[key]) : whole));
}

/**
 * The form of ``singular``/``plural`` for the number ``n`` in the page's language, its {fields}
 * (and {n}) filled.  The catalog gives a language's forms in gettext's order, which is the order
 * of the Unicode plural categories the language uses (one, few, many, other), so Intl.PluralRules
 * picks the form: Polish has three (1 pionek, 2 pionki, 5 pionków).
 */
export function tn(singular, plural, n, fields) {
  const forms = messages[singular];
  let text = n === 1 ? singular : plural;
  if (Array.isArray(forms) && forms.length) {
    const category = new Intl.PluralRules(currentLanguage()).select(n);
    const order = ['one', 'two', 'few', 'many', 'other'].filter((c) => (
      new Intl.PluralRules(currentLanguage()).resolvedOptions().pluralCategories.includes(c)));
    const index = Math.min(order.indexOf(category), forms.length - 1);
    text = forms[index >= 0 ? index : forms.length - 1] || text;
  }
  return filled(text, { n, ...fields });
}

/**
 * ``value`` written as the page's language writes numbers: ``digits`` decimals, a decimal comma in
 * Norwegian, Swedish, Danish and Polish; ``sign`` writes + before a positive number.
 */
export function num(value, digits = 0, sign = false) {
  if (value === null || value === undefined || Number.isNaN(value)) return '–';
  return new Intl.NumberFormat(currentLanguage(), {
    minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false,
    signDisplay: sign ? 'always' : 'auto',
  }).format(value);
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
