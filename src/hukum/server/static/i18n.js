// Every string the page shows goes through t(): t("key", {name: value}) fills {name}
// placeholders; a string missing in the chosen language falls back to English. Each
// language is one file, i18n/<code>.js (its name and its strings); adding a language is
// that file and its code in CODES.

/** The languages, by code, English (the reference) first. */
const CODES = ["en", "hi", "pa"];

const loaded = await Promise.all(CODES.map((code) => import(`./i18n/${code}.js`)));

/** Each language's own name, by code, for the language menu. */
export const LANGS = Object.fromEntries(CODES.map((code, i) => [code, loaded[i].name]));
const TABLES = Object.fromEntries(CODES.map((code, i) => [code, loaded[i].strings]));
const en = TABLES.en;

function initialLang() {
  const saved = localStorage.getItem("hukum.lang");
  if (saved && Object.hasOwn(TABLES, saved)) return saved;
  const nav = (navigator.language || "en").toLowerCase();
  return CODES.find((code) => nav.startsWith(code)) ?? "en";
}

let lang = initialLang();

export function getLang() {
  return lang;
}

export function setLang(code) {
  if (!Object.hasOwn(TABLES, code)) return;
  lang = code;
  localStorage.setItem("hukum.lang", code);
  document.documentElement.lang = code;
}

/** Whether the table has a string for this key (for rule options the server may add). */
export function has(key) {
  return Object.hasOwn(en, key);
}

/** The string for key in the current language, with {placeholders} filled. */
export function t(key, params = {}) {
  let s = TABLES[lang][key] ?? en[key] ?? key;
  for (const [name, value] of Object.entries(params)) s = s.split(`{${name}}`).join(String(value));
  return s;
}
