// A player's tables and games, and the step-by-step replay of a finished game, every hand shown.

import { call, token } from "./api.js";
import { cardRow } from "./cards.js";
import { el, fill } from "./dom.js";
import { renderTable } from "./view.js";

/** Lists the player's tables and games in root. */
export async function showHistory(root) {
  fill(root, el("h1", { text: "My games" }), el("p", {}, el("a", { href: "/", "data-route": "", text: "Lobby" })));
  if (!token()) {
    root.append(el("p", { text: "Choose a name in the lobby first: your games are kept under it." }));
    return;
  }
  let me;
  try {
    me = await call("GET", "/api/players/me");
  } catch (err) {
    root.append(el("p", { class: "notice", role: "alert", text: err.message }));
    return;
  }
  const tables = me.tables || [];
  const games = me.games || [];
  root.append(
    el("h2", { text: "Tables" }),
    tables.length ? el("ul", { id: "my-tables" }, ...tables.map((t) => el("li", {},
      el("a", { href: `/t/${t.invite || t.table_id}`, "data-route": "", text: `${t.title || t.ruleset} (${t.status || ""})` }))))
      : el("p", { text: "No tables yet." }),
    el("h2", { text: "Finished games" }),
    games.length ? el("ul", { id: "my-games" }, ...games.map((g) => el("li", {},
      el("a", { href: `/replay/${g.game_id ?? g.id}`, "data-route": "",
        text: `${g.title || g.ruleset} · ${g.finished || g.ended || ""} · ${g.result || ""}` }), " ",
      el("a", { href: `/api/games/${g.game_id ?? g.id}/record`, download: `commerce-${g.game_id ?? g.id}.json`,
        text: "record (JSON for commerce replay)" }))))
      : el("p", { text: "No finished games yet." }));
}

/** Replays a finished game step by step in root. */
export async function showReplay(root, gameId) {
  fill(root, el("h1", { text: "Replay" }), el("p", {}, el("a", { href: "/history", "data-route": "", text: "My games" })));
  let data;
  try {
    data = await call("GET", `/api/games/${encodeURIComponent(gameId)}/replay`);
  } catch (err) {
    root.append(el("p", { class: "notice", role: "alert", text: err.message }));
    return;
  }
  const steps = Array.isArray(data) ? data : data.steps || [];
  if (!steps.length) {
    root.append(el("p", { text: "This game has no steps." }));
    return;
  }
  let at = 0;
  const board = el("section", { id: "board", "aria-label": "the table at this step" });
  const line = el("p", { id: "step-line", class: "prompt", "aria-live": "polite" });
  const counter = el("span", { id: "step-count" });
  const slider = el("input", { type: "range", min: 0, max: steps.length - 1, value: 0, "aria-label": "step" });
  const draw = () => {
    const step = steps[at];
    slider.value = at;
    counter.textContent = `step ${at + 1} of ${steps.length}`;
    line.textContent = step.line || step.text || step.action || "";
    if (step.table) renderTable(board, step.table);
    else if (step.hands) fill(board, el("ul", { class: "seats" }, ...step.hands.map((h) => el("li", { class: "seat" },
      el("span", { class: "name", text: h.name ?? "" }), cardRow(h.cards || [])))));
    else fill(board);
  };
  const move = (d) => {
    at = Math.max(0, Math.min(steps.length - 1, at + d));
    draw();
  };
  slider.addEventListener("input", () => {
    at = Number(slider.value);
    draw();
  });
  root.append(el("div", { class: "replay-controls" },
    el("button", { type: "button", id: "step-first", text: "⏮ First", onclick: () => move(-steps.length) }),
    el("button", { type: "button", id: "step-back", text: "◀ Back", onclick: () => move(-1) }),
    el("button", { type: "button", id: "step-next", text: "Next ▶", onclick: () => move(1) }),
    el("button", { type: "button", id: "step-last", text: "Last ⏭", onclick: () => move(steps.length) }),
    slider, counter), line, board);
  draw();
}
