// Small pieces of HTML every page writes: text made safe, a <select>.

/** Text made safe to put in HTML (an element's text or an attribute's value). */
export function esc(value) {
  return String(value ?? "").replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c],
  );
}

/** A <select> of [value, label] items, `selected` chosen. */
export function selectHTML(id, items, selected) {
  return `<select id="${id}" name="${id}">${items
    .map(([value, label]) => `<option value="${esc(value)}" ${String(value) === String(selected) ? "selected" : ""}>${esc(label)}</option>`)
    .join("")}</select>`;
}
