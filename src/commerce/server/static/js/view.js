// The table drawn from a TableView (the family's `presentation` hook, as JSON): the seats
// around the table with their cards or backs, the dealer's button and whose turn it is, the
// middle with the last move, and one's hand (with the cards' names where faces are codes).

import { cardEl, cardRow } from "./cards.js";
import { el, fill } from "./dom.js";

/** Draws table into node. opts: {onCard(card), selected}. */
export function renderTable(node, table, opts = {}) {
  // around an oval on a wide screen, one's own seat at the bottom (style.css places them)
  const n = table.seats.length;
  const mine = Math.max(0, table.seats.findIndex((s) => s.you));
  const place = (node, k) => {
    // set through the CSSOM: a Content-Security-Policy forbids style attributes
    const angle = Math.PI / 2 + (2 * Math.PI * ((k - mine + n) % n)) / n;
    node.style.setProperty("--x", `${(50 + 50 * Math.cos(angle)).toFixed(1)}%`);
    node.style.setProperty("--y", `${(50 + 50 * Math.sin(angle)).toFixed(1)}%`);
    return node;
  };
  // one's own cards are drawn once, big, in one's hand
  const same = (a, b) => a.length === b.length && a.every((f, i) => f.symbols === b[i].symbols);
  const seats = table.seats.map((s, k) => place(el("li", {
    class: ["seat", s.you ? "you" : "", s.to_act ? "to-act" : "", s.out ? "out" : ""].filter(Boolean).join(" "),
    "aria-current": s.to_act ? "true" : null,
  },
  el("div", { class: "seat-head" },
    el("span", { class: "name", text: s.name }),
    s.dealer ? el("span", { class: "dealer", title: "dealer", "aria-label": "dealer", text: "D" }) : null,
    s.to_act ? el("span", { class: "badge turn", text: s.you ? "your turn" : "to act" }) : null,
    s.bot && !s.away ? el("span", { class: "badge", text: "bot" }) : null,
    s.away ? el("span", { class: "badge away", text: "away: a bot plays" }) : null),
  s.score ? el("div", { class: "score", text: s.score }) : null,
  s.you && s.cards.length && same(s.cards, table.hand) ? el("div", { class: "note", text: "your hand is below" })
    : cardRow(s.cards, s.hidden, `${s.name}'s cards`),
  s.note ? el("div", { class: "note", text: s.note }) : null), k));
  const piles = table.piles.map((p) => el("li", { class: "pile" },
    el("span", { class: "pile-name", text: p.name }),
    p.cards.length ? cardRow(p.cards, 0, p.name) : null,
    p.count ? el("span", { class: "count", text: p.count }) : null));
  const hand = table.hand.map((face, i) => {
    const card = table.hand_cards[i];
    if (!opts.onCard || card === undefined) return cardEl(face);
    return cardEl(face, { button: true, card, selected: opts.selected === card,
      onclick: () => opts.onCard(card) });
  });
  const named = [...new Map(table.hand.filter((f) => f.name).map((f) => [f.symbols, f.name])).entries()];
  const you = table.seats.find((s) => s.you);
  fill(node,
    el("div", { class: `felt seats-${n}` },
      el("ul", { class: "seats", "aria-label": "the seats" }, ...seats),
      el("div", { class: "middle-area" },
        table.last ? el("p", { id: "last-move", class: "last", "aria-hidden": "true" }, el("span", { class: "last-label", text: "Last: " }), table.last) : null,
        el("ul", { class: "middle", "aria-label": "the middle of the table" }, ...piles))),
    you && you.out && !hand.length
      // out of the game: no hand to show; while the others play on, say so
      ? (opts.over ? null : el("p", { class: "hand-note out-note",
        text: "You are out of the game: the others play on to the end, and you may watch." }))
      // at the end of the game, an empty hand is not shown
      : hand.length || (you && !opts.over) ? el("div", { class: "hand", "aria-label": "your hand" },
        el("h2", { text: "Your hand" }),
        el("div", { class: "cards big" }, ...hand),
        named.length ? el("p", { class: "card-names", text: named.map(([code, name]) => `${code} ${name}`).join(" · ") }) : null,
        table.hand_note ? el("p", { class: "hand-note", text: table.hand_note }) : null) : null,
    table.prompt ? el("p", { id: "prompt", class: "prompt", text: table.prompt }) : null);
}
