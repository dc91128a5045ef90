// The server's HTTP API (docs/protocol.md) from the page, and its errors in the page's words.
import { getLang, has, t } from "../i18n.js";

/** Codes whose server message (English) says more than the page's words: shown after them. */
const DETAILED = new Set(["bad_rules", "bad_request", "network"]);

/** An error in the page's words: its code's sentence alone where the page has one (the
 * server's message may name 0-based seats), else with the server's message after it. */
export function errorText(err) {
  const code = err?.code ?? "";
  if (code === "suspended") return suspendedText(err);
  if (has(`err.${code}`) && !DETAILED.has(code)) return t(`err.${code}`);
  const prefix = has(`err.${code}`) ? t(`err.${code}`) : t("err.prefix");
  return err?.message ? `${prefix}: ${err.message}` : prefix;
}

/** A moderator's suspension (`until`) or closing (no `until`), with the reason the player is
 * shown, in the page's words: any refusal `suspended` (a room, a seat, a hello). */
function suspendedText(err) {
  const reason = String(err?.reason ?? "");
  const until = err?.until ? new Date(err.until) : null;
  if (!until || Number.isNaN(until.getTime())) return t("seats.closed", { reason });
  return t("seats.suspended", { reason, until: until.toLocaleString(getLang()) });
}

/** Ask the server; {data, text} (the answer parsed, and as sent), or throws its error
 * ({code, message, …}; "network" when there is no answer; "aborted" when `signal`, an
 * AbortController's, ended the request: a long poll of a page left). */
export async function api(method, path, body, signal) {
  let res;
  try {
    res = await fetch(path, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  } catch (e) {
    if (e?.name === "AbortError") throw { code: "aborted", message: "left" };
    throw { code: "network", message: String(e.message ?? e) };
  }
  const text = await res.text();
  let data = {};
  try {
    data = text ? JSON.parse(text) : {};
  } catch {
    data = {};
  }
  if (!res.ok || data.error) throw data.error ?? { code: "network", message: `${res.status} ${res.statusText}` };
  return { data, text };
}
