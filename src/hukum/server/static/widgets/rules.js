// The rules every game offers (GET /api/rules) and their words: options, values, presets
// and the computer players of each game; the table's Rules panel, each house rule in a
// sentence. Loaded once, for the lobby and the rules panel.
import { getLang, has, t } from "../i18n.js";
import { api } from "./api.js";
import { esc } from "./html.js";

let meta = null;
/** Whether `meta` is the server's answer (else the kept copy, and asked again next time). */
let fromServer = false;

/** Presets as {name: rules} and options as [{name, values, default, description}],
 * whatever reasonable shape the server sends; `games`: every game's own rules, as sent
 * ({name: {title, options, presets, default_preset, players, bots}}, docs/protocol.md). */
function normalizeMeta(m) {
  let presets = m?.presets ?? {};
  if (Array.isArray(presets)) presets = Object.fromEntries(presets.map((p) => [p.name, p]));
  for (const [name, p] of Object.entries(presets)) presets[name] = p?.rules ?? p?.options ?? p;
  let options = m?.options ?? {};
  if (!Array.isArray(options)) options = Object.entries(options).map(([name, o]) => ({ name, ...o }));
  options = options.map((o) => ({
    name: o.name,
    values: o.values ?? o.choices ?? null,
    default: o.default,
    description: o.description ?? o.doc ?? o.help ?? "",
  }));
  return { presets, options, games: m?.games ?? {} };
}

/** Where the last rules metadata the server sent is kept, so that a page opened offline
 * (from the service worker, sw.js) still draws the lobby's games and forms. */
const KEPT = "hukum.rules";

/** The rules metadata, asked of the server the first time; without a network, the copy
 * kept from the last answer (asked again next time), else none. */
export async function loadRulesMeta() {
  if (fromServer) return meta;
  try {
    const { data, text } = await api("GET", "/api/rules");
    meta = normalizeMeta(data);
    localStorage.setItem(KEPT, text);
    fromServer = true;
  } catch {
    meta ??= normalizeMeta(keptRules() ?? { presets: { classic: {} } });
  }
  return meta;
}

/** The rules the server sent last (as sent), or null. */
function keptRules() {
  try {
    return JSON.parse(localStorage.getItem(KEPT));
  } catch {
    return null;
  }
}

/** The metadata if loaded, else null. */
export function rulesMeta() {
  return meta;
}

export function optionLabel(name) {
  return has(`opt.${name}`) ? t(`opt.${name}`) : name.replaceAll("_", " ");
}

export function valueLabel(value) {
  if (value === null || value === undefined) return t("option.none");
  if (value === true) return t("option.yes");
  if (value === false) return t("option.no");
  if (Array.isArray(value)) return value.join(", ");
  return has(`val.${value}`) ? t(`val.${value}`) : String(value);
}

/** An option's one-line description: the server's (GET /api/rules, naming the rule ids) in
 * English, the translation table's in other languages; each falls back to the other. */
export function optionDescription(name) {
  const server = meta?.options.find((o) => o.name === name)?.description ?? "";
  const local = has(`desc.${name}`) ? t(`desc.${name}`) : "";
  return getLang() === "en" ? server || local : local || server;
}

export function presetLabel(name) {
  return has(`preset.${name}`) ? t(`preset.${name}`) : name;
}

// ---------------------------------------------------------------- a house rule in words
//
// Each option's chosen value has a sentence, one key per value (static/i18n/<lang>.js):
//   say.<option>.<value>   a value of a choice ("say.trump.cut", "say.must_trump.false"),
//                          or one number said in its own words ("say.deals.1");
//   say.<option>           a number ({n}) or a list of numbers ({n1}, {n2}, …);
//   say.<option>.none      no value (a nullable option: "say.target.none").
// The rule id the rules schema gives the option (GET /api/rules, `rule`) follows in
// brackets, unless the sentence names its own (a value with a rule of its own, M-12).

/** The words of one option's value: the sentence's key and its placeholders. */
function sentenceKey(name, value) {
  if (value === null || value === undefined) return { key: `say.${name}.none`, params: {} };
  const own = `say.${name}.${Array.isArray(value) ? value.join("-") : String(value)}`;
  if (has(own)) return { key: own, params: {} };
  if (Array.isArray(value)) return { key: `say.${name}`, params: Object.fromEntries(value.map((v, i) => [`n${i + 1}`, v])) };
  return { key: `say.${name}`, params: { n: value } };
}

/** The option `name` of `game` as the rules schema gives it, if loaded. */
function schemaOption(game, name) {
  return meta?.games?.[game]?.options?.find((o) => o.name === name) ?? null;
}

/** One house rule in a sentence of the player's language, with its rule id: "Cut hukum: …
 * (M-11)". An option the page has no words for says what the server says of it. */
function ruleSentence(game, name, value) {
  const { key, params } = sentenceKey(name, value);
  if (!has(key)) return optionDescription(name);
  const text = t(key, params);
  const rule = schemaOption(game, name)?.rule;
  return rule && !/\b[A-Z]-\d+\b/.test(text) ? `${text} (${rule})` : text;
}

/** `text` as HTML, each rule id in it ("M-12") kept on one line. */
export function ruleIdsHTML(text) {
  return esc(text).replace(/\b([A-Z]-\d+)\b/g, '<span class="rule-id">$1</span>');
}

/** The table's Rules panel: the rule set's name, then each option with its value and that
 * value in a sentence; a link to How to play, which returns to `back`. */
export function rulesPanelHTML(game, rules, label, back) {
  const rows = Object.entries(rules ?? {})
    .map(([name, value]) => {
      const option = schemaOption(game, name);
      const title = option?.label && has(option.label) ? t(option.label) : optionLabel(name);
      return `<tr data-option="${esc(name)}"><th>${esc(title)}</th><td><span class="value">${esc(valueLabel(value))}</span>
        <p class="say">${ruleIdsHTML(ruleSentence(game, name, value))}</p></td></tr>`;
    })
    .join("");
  return `<section class="panel rules" id="rules-panel"><h3>${esc(t("rules.title"))}</h3>
    <p>${esc(t("rules.preset"))}: <b>${esc(label)}</b></p>
    <table>${rows}</table>
    <p><a href="/how-to-play?back=${encodeURIComponent(back)}" id="rules-howto">${esc(t("howto.link"))}</a></p></section>`;
}
