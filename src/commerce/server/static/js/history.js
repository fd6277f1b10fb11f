// A player's tables and games, and the step-by-step replay of a finished game, every hand shown.

import { call, token } from "./api.js";
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
  const finished = me.games.filter((g) => g.complete);
  const unfinished = me.games.filter((g) => !g.complete);
  const when = (g) => (g.played ? new Date(g.played).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" }) : "");
  root.append(...[
    el("h2", { text: "My tables" }),
    me.tables.length ? el("ul", { id: "my-tables" }, ...me.tables.map((t) => el("li", {},
      el("a", { href: `/t/${t.invite}`, "data-route": "", text: `${t.title} · ${tableStatus(t.status)} · ${t.seats_taken} of ${t.seats.length} seats taken` }))))
      : el("p", { text: "No tables yet." }),
    el("h2", { text: "Finished games" }),
    finished.length ? el("ul", { id: "my-games" }, ...finished.map((g) => el("li", {},
      el("a", { href: `/replay/${g.game_id}`, "data-route": "", text: `${g.title} · ${when(g)} · ${g.result}` }), " ",
      el("a", { href: `/api/games/${g.game_id}/record`, download: `commerce-${g.game_id}.json`,
        class: "record", text: "record (JSON)" }))))
      : el("p", { text: "No finished games yet." }),
    unfinished.length ? el("h2", { text: "Games not finished" }) : null,
    unfinished.length ? el("ul", { id: "my-unfinished" }, ...unfinished.map((g) => el("li", {},
      el("a", { href: `/t/${g.table_id}`, "data-route": "", text: `${g.title} · ${when(g)} · not finished: back to the table` }))))
      : null].filter(Boolean));
}

function tableStatus(status) {
  return { lobby: "waiting for players", playing: "being played", over: "game over" }[status] || status;
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
  const steps = data.steps;
  root.querySelector("h1").textContent = `Replay: ${data.game.title}`;
  if (!steps.length) {
    root.append(el("p", { text: "This game has no steps." }));
    return;
  }
  let at = 0;
  const board = el("section", { id: "board", "aria-label": "the table at this step" });
  const line = el("p", { id: "step-line", class: "prompt", "aria-live": "polite" });
  const said = el("ol", { id: "step-log", class: "log" });
  const counter = el("span", { id: "step-count" });
  const slider = el("input", { type: "range", min: 0, max: steps.length - 1, value: 0, "aria-label": "step" });
  const draw = () => {
    const step = steps[at];
    slider.value = at;
    counter.textContent = `step ${at + 1} of ${steps.length}`;
    line.textContent = `Move: ${step.action}`;
    fill(said, ...step.log.map((t) => el("li", { text: t })));
    if (step.table) renderTable(board, step.table);
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
    el("button", { type: "button", id: "step-first", text: "« First", onclick: () => move(-steps.length) }),
    el("button", { type: "button", id: "step-back", text: "◀ Back", onclick: () => move(-1) }),
    el("button", { type: "button", id: "step-next", text: "Next ▶", onclick: () => move(1) }),
    el("button", { type: "button", id: "step-last", text: "Last »", onclick: () => move(steps.length) }),
    slider, counter), said, line, board);
  draw();
}
