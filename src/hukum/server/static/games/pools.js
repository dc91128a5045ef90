// The quick-match pools the server offers (hukum.online.pools.POOLS, in its order; a test
// keeps the two the same): each one's name, the game its tables play and whether partners
// sit opposite (a party of two queues only there). Their words are the translations'
// `pool.<name>` and `pool.<name>.text`.
export const POOLS = [
  { name: "mindi", game: "mindi", partners: true },
  { name: "band", game: "mindi", partners: true },
  { name: "ganjifa", game: "ganjifa", partners: false },
];

/** The pool named `name`, or null. */
export function poolNamed(name) {
  return POOLS.find((p) => p.name === name) ?? null;
}
