// The table drawn from a TableView (the family's `presentation` hook, as JSON): the seats with
// their cards or backs, the dealer's button and whose turn it is, the middle, and one's hand.

import { cardEl, cardRow } from "./cards.js";
import { el, fill } from "./dom.js";

/** Draws table into node. opts: {onCard(card), selected, usable: Set of card numbers}. */
export function renderTable(node, table, opts = {}) {
  const seats = (table.seats || []).map((s) => el("li", {
    class: ["seat", s.you ? "you" : "", s.to_act ? "to-act" : "", s.out ? "out" : ""].filter(Boolean).join(" "),
    "aria-current": s.to_act ? "true" : null,
  },
  el("div", { class: "seat-head" },
    el("span", { class: "name", text: s.name ?? "" }),
    s.dealer ? el("span", { class: "dealer", title: "dealer", "aria-label": "dealer", text: "D" }) : null,
    s.to_act ? el("span", { class: "badge turn", text: "to act" }) : null,
    s.bot ? el("span", { class: "badge", text: "bot" }) : null,
    s.away ? el("span", { class: "badge away", text: "away: a bot plays" }) : null),
  el("div", { class: "score", text: s.score ?? "" }),
  cardRow(s.cards || [], s.hidden || 0, `${s.name ?? "seat"}'s cards`),
  s.note ? el("div", { class: "note", text: s.note }) : null));
  const piles = (table.piles || []).map((p) => el("li", { class: "pile" },
    el("span", { class: "pile-name", text: p.name ?? "" }),
    cardRow(p.cards || [], 0, p.name || ""),
    p.count ? el("span", { class: "count", text: p.count }) : null));
  const handCards = table.hand_cards || [];
  const hand = (table.hand || []).map((face, i) => {
    const card = handCards[i];
    if (!opts.onCard || card === undefined) return cardEl(face);
    return cardEl(face, { button: true, card, selected: opts.selected === card,
      onclick: () => opts.onCard(card) });
  });
  const you = (table.seats || []).find((s) => s.you);
  fill(node,
    el("ul", { class: "seats", "aria-label": "the seats" }, ...seats),
    el("ul", { class: "middle", "aria-label": "the middle of the table" }, ...piles),
    you || hand.length ? el("div", { class: "hand", "aria-label": "your hand" },
      el("h2", { text: "Your hand" }),
      el("div", { class: "cards big" }, ...hand),
      table.hand_note ? el("p", { class: "hand-note", text: table.hand_note }) : null) : null,
    table.prompt ? el("p", { id: "prompt", class: "prompt", text: table.prompt }) : null);
}
