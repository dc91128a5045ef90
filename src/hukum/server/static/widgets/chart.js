// A rating's history as a line chart, drawn by uPlot (vendored: vendor/uplot, MIT; its
// README says which version). uPlot is a classic script: it is added to the page once, by
// a <script src> (the site's policy runs no inline script), with its stylesheet.
import { getLang } from "../i18n.js";

const BASE = "/static/vendor/uplot/";
let loading = null;

/** uPlot, loaded once. */
export function loadUPlot() {
  if (window.uPlot) return Promise.resolve(window.uPlot);
  loading ??= new Promise((resolve, reject) => {
    const css = document.createElement("link");
    css.rel = "stylesheet";
    css.href = `${BASE}uPlot.min.css`;
    document.head.append(css);
    const script = document.createElement("script");
    script.src = `${BASE}uPlot.iife.min.js`;
    script.onload = () => resolve(window.uPlot);
    script.onerror = () => {
      loading = null;
      script.remove();
      reject(new Error("uPlot did not load"));
    };
    document.head.append(script);
  });
  return loading;
}

/** The labels of the time axis's ticks: the day in figures (7/12: every browser has them,
 * where a month's name may be missing, e.g. Punjabi's in some builds), with the time of day
 * when the history spans a day or two; a label the tick before has already shown is left
 * out. */
function timeLabels(_, ticks) {
  const span = ticks.length > 1 ? ticks[ticks.length - 1] - ticks[0] : 0;
  const style = span < 2 * 86400 ? { day: "numeric", month: "numeric", hour: "2-digit", minute: "2-digit" } : { day: "numeric", month: "numeric" };
  const labels = ticks.map((s) => new Date(s * 1000).toLocaleString(getLang(), style));
  return labels.map((label, i) => (i && label === labels[i - 1] ? "" : label));
}

/** A scale's range round the values: padded, and some room even for a single value (a
 * first game), which would otherwise span nothing. */
function around(pad) {
  return (_, min, max) => (min === max ? [min - pad, max + pad] : [min - (max - min) * 0.08, max + (max - min) * 0.08]);
}

/** Draw `history` ([[iso time, rating], …], oldest first) in `el`, as wide as it is; the
 * chart (its destroy() removes it), or null when `el` left the page meanwhile. */
export async function drawHistory(el, history, label) {
  const UPlot = await loadUPlot();
  if (!el.isConnected) return null;
  const xs = history.map(([at]) => Date.parse(at) / 1000);
  const ys = history.map(([, rating]) => rating);
  const width = Math.max(160, Math.floor(el.getBoundingClientRect().width));
  const chart = new UPlot(
    {
      width,
      height: 170,
      legend: { show: false },
      cursor: { drag: { x: false, y: false } },
      series: [{}, { label, stroke: "#7a1f2b", width: 2, points: { show: true, size: 6, fill: "#7a1f2b" } }],
      // The days shown are the history's (uPlot widens a single time to years by itself).
      scales: { x: { time: true, auto: false, range: around(86400)(null, xs[0], xs[xs.length - 1]) }, y: { range: around(50) } },
      axes: [
        { values: timeLabels, space: 100 },
        { size: 52, values: (_, ticks) => ticks.map((v) => String(Math.round(v))) },
      ],
    },
    [xs, ys],
    el,
  );
  el.dataset.points = String(ys.length);
  return chart;
}
