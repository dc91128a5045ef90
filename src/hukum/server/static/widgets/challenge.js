// What the daily challenge's pages share (issue 42; docs/protocol.md "Daily challenge"): its
// days and ISO weeks (UTC), the tabs between a day's deals and the day's and the week's
// leaderboards, a percentage as the pages show it.
import { getLang, t } from "../i18n.js";
import { esc } from "./html.js";

/** A day as the addresses write it: 2026-12-07. */
export const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** An ISO week as the addresses write it: 2026-W49. */
export const WEEK = /^\d{4}-W\d{2}$/;

/** Today (UTC), as the server counts days. */
export function today() {
  return new Date().toISOString().slice(0, 10);
}

/** The day `n` days after `day` (before it for a negative n). */
export function shiftDay(day, n) {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/** The ISO week of a day: "2026-W49" (its Thursday's year). */
export function weekOf(day) {
  const d = new Date(`${day}T00:00:00Z`);
  const weekday = (d.getUTCDay() + 6) % 7; // Monday 0
  d.setUTCDate(d.getUTCDate() - weekday + 3);
  const year = d.getUTCFullYear();
  const week = Math.ceil(((d - Date.UTC(year, 0, 1)) / 86400000 + 1) / 7);
  return `${year}-W${String(week).padStart(2, "0")}`;
}

/** The Monday of an ISO week ("2026-W49"). */
export function mondayOf(week) {
  const [year, w] = week.split("-W").map(Number);
  const jan4 = new Date(Date.UTC(year, 0, 4));
  jan4.setUTCDate(jan4.getUTCDate() - ((jan4.getUTCDay() + 6) % 7) + (w - 1) * 7);
  return jan4.toISOString().slice(0, 10);
}

/** A day in the page's language: "Monday, 7 December 2026" (the page's own words, not the
 * browser's: a browser without Punjabi's calendar names writes "2026 M12 7, Mon"). */
export function dayText(day) {
  const d = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(d.getTime())) return day;
  return t("challenge.date", {
    weekday: t(`weekday.${d.getUTCDay()}`),
    d: d.getUTCDate(),
    month: t(`month.${d.getUTCMonth() + 1}`),
    y: d.getUTCFullYear(),
  });
}

/** A percentage: "62.5%" (one decimal at most); "–" for none. */
export function percentText(p) {
  if (p === null || p === undefined) return "–";
  return `${(Math.round(p * 10) / 10).toLocaleString(getLang())}%`;
}

/** The tabs of a day: its deals, its leaderboard, its week's leaderboard; `current` is
 * "deals", "day" or "week". */
export function tabsHTML(day, current) {
  const tabs = [
    ["deals", `/challenge/${day}`, t("challenge.tab.deals")],
    ["day", `/challenge/${day}/leaderboard`, t("challenge.tab.day")],
    ["week", `/challenge/week/${weekOf(day)}`, t("challenge.tab.week")],
  ];
  const links = tabs.map(
    ([name, href, text]) => `<a class="tab" id="tab-${name}" href="${esc(href)}"${name === current ? ' aria-current="page"' : ""}>${esc(text)}</a>`,
  );
  return `<nav class="tabs" aria-label="${esc(t("challenge.tabs"))}">${links.join("")}</nav>`;
}
