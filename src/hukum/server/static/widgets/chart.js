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

/** A date as the page's language writes it, short. */
function day(seconds) {
  return new Date(seconds * 1000).toLocaleDateString(getLang(), { day: "numeric", month: "short" });
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
      axes: [
        { values: (_, ticks) => ticks.map(day), space: 60 },
        { size: 46 },
      ],
    },
    [xs, ys],
    el,
  );
  el.dataset.points = String(ys.length);
  return chart;
}
