// The lobby: a name to play under, a new table (every preset, its options with their defaults,
// seats, bots and levels, public or private), the open tables, and a table by its invite code.

import { call, claimLink, ensurePlayer, renamePlayer, savedName, token } from "./api.js";
import { el, fill } from "./dom.js";
import { docWords, rulesets } from "./rules.js";

const FIXED_LEVELS = ["random", "heuristic", "search"].map((level) => ({ level, label: `bot: ${level}` }));

/** Draws the lobby into root; go(path) moves the page. */
export async function showLobby(root, go) {
  const notice = el("p", { id: "notice", class: "notice", role: "alert" });
  const nameInput = el("input", { id: "name", name: "name", required: true, maxlength: 40,
    autocomplete: "nickname", value: savedName() });
  const nameForm = el("form", { id: "name-form", class: "card-panel", onsubmit: async (e) => {
    e.preventDefault();
    try {
      const wanted = nameInput.value.trim();
      if (token() && wanted && wanted !== savedName()) await renamePlayer(wanted);
      else await ensurePlayer(wanted);
      nameInput.value = savedName();
      notice.textContent = `You play as ${savedName()}.`;
      drawMe();
    } catch (err) {
      notice.textContent = err.message;
    }
  } }, el("label", { for: "name", text: "Your name " }), nameInput,
  el("button", { type: "submit", text: "Play under this name" }));
  const me = el("p", { id: "me" });
  const drawMe = () => fill(me, token() ? [`Playing as ${savedName()}. `,
    el("details", { class: "claim" }, el("summary", { text: "Play on another device" }),
      el("p", { text: "Open this link there (keep it to yourself: it is your seat's key):" }),
      el("code", { id: "claim-link", text: claimLink() }))] : "Choose a name to play.");
  drawMe();

  const createBox = el("section", { id: "create", "aria-labelledby": "create-h" },
    el("h2", { id: "create-h", text: "New table" }));
  const openBox = el("section", { id: "open", "aria-labelledby": "open-h" },
    el("h2", { id: "open-h", text: "Tables waiting for players" }));
  const codeInput = el("input", { id: "code", name: "code", "aria-label": "invite code", placeholder: "invite code" });
  fill(root, el("h1", { text: "Commerce" }), notice, me, nameForm,
    el("form", { class: "join-code", onsubmit: (e) => {
      e.preventDefault();
      const code = codeInput.value.trim().replace(/^.*\/t\//, "");
      if (code) go(`/t/${code}`);
    } }, codeInput, el("button", { type: "submit", text: "Go to table" })),
    openBox, createBox, el("p", {}, el("a", { href: "/history", "data-route": "", text: "My games" })));

  let presets = [];
  let levels = FIXED_LEVELS;
  try {
    presets = await rulesets();
    levels = await call("GET", "/api/levels");  // the server's menu, with any learned models
  } catch (err) {
    notice.textContent = err.message;
  }
  createBox.append(createForm(presets, levels, notice, nameInput, go));
  await listTables(openBox, notice, go);
}

function createForm(presets, levels, notice, nameInput, go) {
  // the ruleset by its title with a line on what it is; its options under "More options"
  const ruleset = el("input", { id: "ruleset", type: "hidden", value: presets.length ? presets[0].id : "" });
  const choices = el("div", { id: "rulesets", class: "rulesets", role: "radiogroup", "aria-label": "ruleset" },
    ...presets.map((r, i) => el("label", { class: "ruleset-choice" },
      el("input", { type: "radio", name: "ruleset-choice", value: r.id, checked: i === 0,
        onchange: () => { ruleset.value = r.id; drawOptions(); } }),
      el("span", { class: "ruleset-text" },
        el("b", { class: "ruleset-title", text: r.title }),
        el("small", { class: "ruleset-summary", text: `${players(r)}, scored in ${r.unit}. ${r.summary}` })))));
  const options = el("div", { id: "options", class: "options" });
  const more = el("details", { id: "more-options" }, el("summary", { text: "More options" }), options);
  const seats = el("input", { id: "seats", name: "seats", type: "number" });
  const seatList = el("ol", { id: "seat-kinds", class: "seat-kinds" });
  const isPublic = el("input", { id: "public", type: "checkbox", checked: true });
  const hints = el("input", { id: "hints", type: "checkbox", checked: true });
  const timeout = el("input", { id: "timeout", type: "number", min: 10, max: 3600, value: 120 });
  const timer = el("input", { id: "timer", type: "number", min: 0, max: 600, value: 0 });

  const preset = () => presets.find((r) => r.id === ruleset.value);
  const drawSeats = () => {
    const n = Number(seats.value) || 0;
    const rows = [];
    for (let k = 0; k < n; k += 1) {
      const old = seatList.querySelector(`[name="seat-${k}"]`);
      const kind = el("select", { name: `seat-${k}`, "aria-label": `seat ${k + 1}` },
        el("option", { value: "human", text: k === 0 ? "you" : "a person" }),
        // a learned model plays only the ruleset and seats it was trained for
        ...levels.filter((l) => (!l.ruleset || l.ruleset === ruleset.value) && (!l.players || l.players === n))
          .map((l) => el("option", { value: l.level, text: l.label })));
      kind.value = old ? old.value : k === 0 ? "human" : k === n - 1 ? "heuristic" : "human";
      if (!kind.value) kind.value = "human";  // a learned model that does not play these seats
      rows.push(el("li", {}, el("span", { text: `Seat ${k + 1} ` }), kind));
    }
    fill(seatList, rows);
  };
  const drawOptions = () => {
    const r = preset();
    fill(options, el("p", { class: "hint-text", text: "Each option starts at the ruleset's own setting." }));
    if (!r) return;
    seats.min = r.min_players;
    seats.max = r.max_players;
    seats.value = Math.min(r.max_players, Math.max(r.min_players, 3));
    for (const o of r.options || []) options.append(optionField(o));
    drawSeats();
  };
  seats.addEventListener("input", drawSeats);
  drawOptions();

  return el("form", { id: "create-form", onsubmit: async (e) => {
    e.preventDefault();
    const r = preset();
    if (!r) return;
    try {
      await ensurePlayer(nameInput.value.trim());
      const chosen = {};
      for (const input of options.querySelectorAll("[data-option]")) {
        const o = r.options.find((x) => x.name === input.dataset.option);
        const value = readOption(input, o);
        if (value !== o.default) chosen[o.name] = value;
      }
      const bots = {};
      seatList.querySelectorAll("select").forEach((s, k) => {
        if (s.value !== "human") bots[k] = s.value;
      });
      const reply = await call("POST", "/api/tables", {
        ruleset: r.id, options: chosen, seats: Number(seats.value), bots,
        public: isPublic.checked, hints: hints.checked,
        timeout_s: Number(timeout.value), turn_timer_s: Number(timer.value) || null,
      });
      go(`/t/${reply.invite || reply.table_id}`);
    } catch (err) {
      notice.textContent = err.message;
    }
  } },
  el("fieldset", {}, el("legend", { text: "Ruleset" }), ruleset, choices), more,
  el("label", { for: "seats", text: "Seats " }), seats, seatList,
  el("label", {}, isPublic, " Public (listed in the lobby; otherwise by invite only)"),
  el("label", {}, hints, " Hints allowed"),
  el("label", { for: "timeout", text: "A bot plays for a player away longer than (seconds) " }), timeout,
  el("label", { for: "timer", text: "Turn timer (seconds, 0 for none) " }), timer,
  el("button", { type: "submit", id: "create-button", text: "Create the table" }));
}

/** "3–12 players", "2 players". */
export function players(r) {
  return r.min_players === r.max_players ? `${r.min_players} players` : `${r.min_players}–${r.max_players} players`;
}

/** A choice of an option in words: "1_to_3" -> "1 to 3". */
function choiceWords(c) {
  if (c === true) return "yes";
  if (c === false) return "no";
  if (c === null) return "none";
  return String(c).replaceAll("_", " ");
}

function optionField(o) {
  const id = `opt-${o.name}`;
  let input;
  if (Array.isArray(o.choices) && o.choices.length) {
    input = el("select", { id }, ...o.choices.map((c) => el("option", { value: JSON.stringify(c), text: choiceWords(c) })));
    input.value = JSON.stringify(o.default);
  } else if (typeof o.default === "boolean") {
    input = el("input", { id, type: "checkbox", checked: o.default });
  } else if (typeof o.default === "number") {
    input = el("input", { id, type: "number", value: o.default, min: o.min ?? null, max: o.max ?? null,
      step: Number.isInteger(o.default) ? 1 : "any" });
  } else {
    input = el("input", { id, value: o.default === null ? "" : String(o.default) });
  }
  input.dataset.option = o.name;
  return el("div", { class: "option" }, el("label", { for: id, text: `${o.label || "Option"} ` }), input,
    o.doc && o.doc !== o.label ? el("small", { class: "option-doc", text: docWords(o.doc) }) : null);
}

function readOption(input, o) {
  if (input.type === "checkbox") return input.checked;
  if (input.tagName === "SELECT") return JSON.parse(input.value);
  if (input.type === "number") return Number(input.value);
  return input.value === "" && o.default === null ? null : input.value;
}

/** "Pool Commerce · 1 of 4 seats taken · host Bo", and what can be done there. */
export function tableLine(t) {
  const seats = Array.isArray(t.seats) ? t.seats.length : 0;
  return [t.title, `${t.seats_taken} of ${seats} seats taken`, t.host_name ? `host ${t.host_name}` : ""]
    .filter(Boolean).join(" · ");
}

async function listTables(box, notice, go) {
  let tables = [];
  try {
    tables = await call("GET", "/api/tables");
  } catch (err) {
    notice.textContent = err.message;
  }
  const waiting = tables.filter((t) => t.status === "lobby");
  const playing = tables.filter((t) => t.status === "playing");
  box.append(waiting.length ? el("ul", { id: "open-tables", class: "table-list" }, ...waiting.map((t) => el("li", {},
    el("span", { class: "table-line", text: tableLine(t) }),
    el("button", { type: "button", class: "open-table", text: "Sit down",
      onclick: () => go(`/t/${t.invite}`) }), " ",
    el("button", { type: "button", class: "watch-table", text: "Watch",
      onclick: () => go(`/t/${t.invite}?watch`) }))))
    : el("p", { text: "No table is waiting for players now: create one." }),
  el("h2", { id: "playing-h", text: "Games in progress" }),
  playing.length ? el("ul", { id: "playing-tables", class: "table-list" }, ...playing.map((t) => el("li", {},
    el("span", { class: "table-line", text: tableLine(t) }),
    el("button", { type: "button", class: "watch-table", text: "Watch",
      onclick: () => go(`/t/${t.invite}?watch`) }))))
    : el("p", { text: "No public game is being played now." }));
}
