// Cards drawn in CSS: a face from the contract's {symbols, letters, colour}, or a back.

import { el } from "./dom.js";

const SUITS = { "♠": ["s", "spades"], "♥": ["h", "hearts"], "♦": ["d", "diamonds"], "♣": ["c", "clubs"] };
const RANKS = { A: "ace", K: "king", Q: "queen", J: "jack", T: "ten", 10: "ten" };

/** Rank, suit letter and words of a face: "10♥" -> ["10", "h", "10 of hearts"]. */
export function parts(face) {
  const text = face.symbols || face.letters || "?";
  const last = text.slice(-1);
  if (SUITS[last]) {
    const rank = text.slice(0, -1);
    return [rank, SUITS[last][0], `${RANKS[rank] || rank} of ${SUITS[last][1]}`];
  }
  return [text, "", text];
}

/** A face-up card. opts: {button: true} makes it a toggle button, {selected} marks it. */
export function cardEl(face, opts = {}) {
  const [rank, suit, plain] = parts(face);
  const words = face.name || plain;
  const classes = ["card", `c-${face.colour || "black"}`];
  classes.push(suit ? `suit-${suit}` : "plain");
  if (opts.selected) classes.push("selected");
  const body = [
    el("span", { class: "corner", "aria-hidden": "true" },
      el("span", { class: "rank", text: rank }), el("span", { class: "pip", text: suit ? face.symbols.slice(-1) : "" })),
    el("span", { class: "centre", "aria-hidden": "true", text: suit ? face.symbols.slice(-1) : rank }),
  ];
  if (opts.button) {
    return el("button", {
      type: "button", class: classes.join(" "), "aria-label": words,
      "aria-pressed": opts.selected ? "true" : "false", "data-card": opts.card ?? null,
      onclick: opts.onclick, title: face.name || null,
    }, ...body);
  }
  return el("span", { class: classes.join(" "), role: "img", "aria-label": words, title: face.name || null }, ...body);
}

/** A card face down. */
export function backEl() {
  return el("span", { class: "card back", role: "img", "aria-label": "a card face down" });
}

/** A row of cards: the faces, then count backs. */
export function cardRow(faces, backs = 0, label = "") {
  const row = el("span", { class: "cards", "aria-label": label || null });
  for (const face of faces || []) row.append(cardEl(face));
  for (let i = 0; i < backs; i += 1) row.append(backEl());
  return row;
}
