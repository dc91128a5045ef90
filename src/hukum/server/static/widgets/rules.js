// The rules every game offers (GET /api/rules) and their words: options, values, presets
// and the computer players of each game. Loaded once, for the lobby and the rules panel.
import { getLang, has, t } from "../i18n.js";
import { api } from "./api.js";

let meta = null;

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

/** The rules metadata, asked of the server the first time. */
export async function loadRulesMeta() {
  if (meta) return meta;
  try {
    const { data } = await api("GET", "/api/rules");
    meta = normalizeMeta(data);
  } catch {
    meta = normalizeMeta({ presets: { classic: {} } });
  }
  return meta;
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
