// The table from one's own seat (or a spectator's): drawn from the server's `view` messages,
// which carry only what that seat may know. Intents go back as {"type":"act", action, version}.

import { call, ensurePlayer, token } from "./api.js";
import { cardRow } from "./cards.js";
import { byId, el, fill } from "./dom.js";
import { rulesDialog } from "./rules.js";
import { renderTable } from "./view.js";

/** One open table: its socket, the last view and what the player has selected. */
class TableSession {
  constructor(root, info, opts) {
    this.root = root;
    this.info = info;
    this.tableId = info.table_id;
    this.spectate = Boolean(opts.spectate);
    this.me = opts.me || null;
    this.view = null;
    this.selected = null;
    this.log = [];
    this.retries = 0;
    this.closed = false;
    this.sent = false;
    this.build();
    this.connect();
    this.keys = (event) => this.onKey(event);
    document.addEventListener("keydown", this.keys);
  }

  build() {
    const invite = this.info.invite ? `${location.origin}/t/${this.info.invite}` : "";
    this.notice = el("p", { id: "notice", class: "notice", role: "alert" });
    this.status = el("p", { id: "conn", class: "conn", "aria-live": "polite" });
    this.clock = el("p", { id: "timer", class: "timer", hidden: true });
    this.lobby = el("section", { id: "lobby-room", class: "room", hidden: true });
    this.board = el("section", { id: "board", "aria-label": "the table" });
    this.offers = el("div", { id: "offers", class: "offers", role: "alert" });
    this.actions = el("div", { id: "actions", class: "actions", "aria-label": "your actions" });
    this.hints = el("ul", { id: "hints", class: "hints", "aria-label": "hints" });
    this.end = el("section", { id: "end", class: "end", hidden: true });
    this.logList = el("ol", { id: "log", class: "log", role: "log", "aria-live": "polite",
      "aria-label": "what happened" });
    this.chatList = el("ul", { id: "chat", class: "chat", "aria-live": "polite", "aria-label": "chat" });
    const chatInput = el("input", { id: "chat-text", name: "chat", maxlength: 200,
      autocomplete: "off", "aria-label": "say something to the table", placeholder: "Say something" });
    const chatForm = el("form", { class: "chat-form", onsubmit: (e) => {
      e.preventDefault();
      const text = chatInput.value.trim();
      if (text) this.send({ type: "chat", text });
      chatInput.value = "";
    } }, chatInput, el("button", { type: "submit", text: "Send" }));
    const tools = el("div", { class: "tools" },
      el("button", { type: "button", id: "rules-button", text: "Rules (r)",
        onclick: () => this.showRules() }),
      el("button", { type: "button", id: "hint-button", text: "Hint (h)", hidden: true,
        onclick: () => this.askHint() }),
      invite ? el("button", { type: "button", id: "invite-button", text: "Copy invite link",
        onclick: () => copy(invite, this.notice) }) : null,
      el("a", { href: "/history", "data-route": "", text: "My games" }));
    fill(this.root,
      el("header", { class: "table-head" }, el("h1", { id: "title", text: this.info.title || "Table" }),
        el("p", { id: "progress", class: "progress" }), tools),
      this.status, this.clock, this.notice, this.lobby, this.board,
      el("div", { class: "dock" }, this.hints, this.offers, this.actions),
      this.end,
      el("div", { class: "side" },
        el("section", { "aria-labelledby": "log-h" }, el("h2", { id: "log-h", text: "Log" }), this.logList),
        el("section", { "aria-labelledby": "chat-h" }, el("h2", { id: "chat-h", text: "Chat" }),
          this.chatList, chatForm)),
      el("p", { class: "keys", text: "Keys: 1-9 pick a card of your hand, Esc drops it, a goes to the "
        + "actions, h asks a hint, r shows the rules, c goes to the chat." }));
  }

  connect() {
    if (this.closed) return;
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${scheme}//${location.host}/ws/tables/${this.tableId}`);
    this.ws = ws;
    ws.onopen = () => {
      this.retries = 0;
      this.status.textContent = "";
      const hello = { type: "hello" };
      if (this.spectate) hello.spectate = true;
      else hello.token = token();
      ws.send(JSON.stringify(hello));
      this.ping = setInterval(() => this.send({ type: "ping" }), 20000);
    };
    ws.onmessage = (event) => {
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch {
        return;
      }
      this.onMessage(msg);
    };
    ws.onclose = () => {
      clearInterval(this.ping);
      if (this.closed) return;
      const wait = Math.min(10000, 500 * 2 ** this.retries);
      this.retries += 1;
      this.status.textContent = "Connection lost; reconnecting…";
      setTimeout(() => this.connect(), wait);
    };
  }

  /** Stops reconnecting and forgets the keys (the page moves elsewhere). */
  close() {
    this.closed = true;
    clearInterval(this.ticking);
    document.removeEventListener("keydown", this.keys);
    clearInterval(this.ping);
    if (this.ws) this.ws.close();
  }

  send(msg) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
      this.notice.textContent = "Not connected; wait a moment and try again.";
      return false;
    }
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  onMessage(msg) {
    switch (msg.type) {
      case "view": this.onView(msg); break;
      case "lobby": this.onLobby(msg); break;
      case "notice": this.notice.textContent = msg.message; break;
      case "error":
        this.sent = false;
        this.notice.textContent = msg.message;
        if (this.hints.textContent === "Thinking…") fill(this.hints);
        if (!this.view && !this.lobbySeen && !this.spectate) this.offerSeat();
        this.drawActions();
        break;
      case "chat":
        this.chatList.append(el("li", {}, el("b", { text: `${msg.from}: ` }), msg.text));
        this.chatList.scrollTop = this.chatList.scrollHeight;
        break;
      case "hint": this.onHint(msg); break;
      default: break;
    }
  }

  onView(view) {
    const fresh = !this.view || view.version !== this.view.version;
    this.view = view;
    this.sent = false;
    if (fresh) {
      this.notice.textContent = "";
      fill(this.hints);
    }
    const table = view.table;
    if (table) byId("title").textContent = table.title;
    byId("progress").textContent = [table && table.progress, statusWords(view.status)].filter(Boolean).join(" · ");
    const hand = table ? table.hand_cards : [];
    if (this.selected !== null && !hand.includes(this.selected)) this.selected = null;
    this.lobby.hidden = view.status !== "lobby" || this.lobby.childElementCount === 0;
    if (table) {
      renderTable(this.board, table, { onCard: (card) => this.pick(card), selected: this.selected,
        over: view.status === "over" });
    } else {
      fill(this.board);
    }
    this.board.dataset.version = String(view.version);
    this.drawActions();
    this.drawLog(view.log);
    this.drawEnd(view);
    this.showTimer(view.timer, view.seat);
    const mine = view.actions.length > 0;
    this.root.classList.toggle("my-turn", mine);
    if (mine && !this.wasMine) this.showHand();
    this.wasMine = mine;
    const hint = this.root.querySelector("#hint-button");
    if (hint) hint.hidden = this.spectate || !mine;  // hints are for the player to act
    document.title = `${mine ? "● Your turn · " : ""}${table ? table.title : "Commerce"}`;
  }

  /** On one's turn the moves dock at the bottom of the window: where the dock would cover
   * one's hand (a phone), the page scrolls just enough to show the hand above it. */
  showHand() {
    const hand = this.board.querySelector(".hand");
    const dock = this.root.querySelector(".dock");
    if (!hand || !dock) return;
    const covered = hand.getBoundingClientRect().bottom - (window.innerHeight - dock.getBoundingClientRect().height);
    if (covered > 0) window.scrollBy(0, covered + 8);
  }

  showTimer(timer, seat) {
    // A turn timer: the seconds left to the seat to act, then the table's bot plays the turn.
    clearInterval(this.ticking);
    this.clock.hidden = !timer;
    if (!timer) return;
    const who = timer.seat === seat ? "Your turn" : `${timer.name}'s turn`;
    const tick = () => {
      const left = Math.max(0, Math.ceil(timer.ends_at - Date.now() / 1000));
      this.clock.textContent = `${who}: ${left} s left, then the table's bot plays it`;
      this.clock.classList.toggle("short", left <= 10);
    };
    tick();
    this.ticking = setInterval(tick, 1000);
  }

  pick(card) {
    this.selected = this.selected === card ? null : card;
    if (this.view) this.onView(this.view);
    const chosen = this.board.querySelector(`[data-card="${this.selected ?? card}"]`);
    if (chosen) chosen.focus();
  }

  drawActions() {
    const acts = (this.view && this.view.actions) || [];
    let offers = acts.filter((a) => a.out_of_turn);
    let normal = acts.filter((a) => !a.out_of_turn);
    let heading = null;
    if (this.selected !== null) {
      // a picked card narrows both the turn's actions and an offer's answers (a barter's
      // reply gives one of the hand's cards) to those that name it
      const names = (a) => (a.cards || []).includes(this.selected);
      const face = this.faceOf(this.selected);
      const named = normal.filter(names);
      const offered = offers.filter(names);
      if (offered.length) offers = offered;
      if (normal.length) {
        heading = named.length ? `With ${face}:` : `No action names ${face}; all your actions:`;
        if (named.length) normal = named;
      } else if (offers.length && !offered.length) {
        heading = `No answer names ${face}; all your answers are above.`;
      }
    }
    fill(this.offers, offers.length ? [el("h2", { text: "Offer, now" }), ...offers.map((a) => this.button(a))] : []);
    const groups = new Map();
    for (const a of normal) {
      const key = a.group || "";
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key).push(a);
    }
    const parts = [];
    if (heading) parts.push(el("p", { class: "with", text: heading }));
    for (const [group, list] of groups) {
      parts.push(el("div", { class: "group", role: "group", "aria-label": group || "actions" },
        group ? el("span", { class: "group-name", text: group }) : null, ...list.map((a) => this.button(a))));
    }
    fill(this.actions, parts);
  }

  faceOf(card) {
    const table = (this.view && this.view.table) || {};
    const i = (table.hand_cards || []).indexOf(card);
    const face = (table.hand || [])[i];
    return face ? face.symbols : "that card";
  }

  button(action) {
    // Within its group a button may show the group's short word (the heading says the rest);
    // its spoken name is always the whole label.
    const label = action.label || action.notation;
    return el("button", { type: "button", class: action.out_of_turn ? "act offer" : "act",
      "data-notation": action.notation, disabled: this.sent, "aria-label": label,
      onclick: () => this.act(action) }, action.group && action.short ? action.short : label);
  }

  act(action) {
    if (this.sent || !this.view) return;
    if (this.send({ type: "act", action: action.notation, version: this.view.version })) {
      this.sent = true;
      this.selected = null;
      for (const b of this.root.querySelectorAll("button.act")) b.disabled = true;
    }
  }

  drawLog(lines) {
    // Only new lines are appended, so that a screen reader reads each line once.
    let overlap = Math.min(this.log.length, lines.length);
    while (overlap > 0 && !same(this.log.slice(-overlap), lines.slice(0, overlap))) overlap -= 1;
    if (overlap === 0 && this.log.length) fill(this.logList);
    for (const line of lines.slice(overlap)) this.logList.append(el("li", { text: line }));
    while (this.logList.childElementCount > 200) this.logList.firstElementChild.remove();
    this.log = lines.slice();
    this.logList.scrollTop = this.logList.scrollHeight;
  }

  drawEnd(view) {
    // drawn again only when it changes, so that a button is never replaced under a click
    const info = this.tableInfo || this.info;
    const key = JSON.stringify([view.version, view.status, view.showdown, view.standings, info.host, info.host_name]);
    if (key === this.endKey) return;
    this.endKey = key;
    const parts = [];
    const names = ((view.table && view.table.seats) || []).map((x) => x.name);
    if (view.showdown && view.status !== "over") parts.push(showdownEl(view.showdown, names));
    if (view.standings && view.standings.length) {
      parts.push(el("h2", { text: "The game is over" }));
      if (view.reason) parts.push(el("p", { class: "reason", text: `${capital(view.reason)}.` }));
      parts.push(el("p", { class: "unit-note", text: `Each result is what the player won or lost over the game, in ${view.unit}.` }));
      parts.push(el("ol", { class: "standings" }, ...view.standings.map((row) => el("li", {},
        el("b", { text: row.name }), ` ${row.result}`,
        view.deals.some((d) => d.winners.length) ? el("small", { text: ` (${count(row.deals_won, `${view.deal_word} won`)})` }) : null))));
      if (view.deals && view.deals.length) parts.push(dealsEl(view));
    }
    if (view.status === "over" && !this.spectate) {
      if (this.me && info.host === this.me.player_id) {
        parts.push(el("button", { type: "button", id: "again", text: "Play again",
          onclick: () => call("POST", `/api/tables/${this.tableId}/again`).catch((err) => {
            this.notice.textContent = err.message;
          }) }));
      } else {
        parts.push(el("p", { id: "again-wait", text: `${info.host_name || "The host"} (the host) decides whether to play again.` }));
      }
    }
    fill(this.end, parts);
    this.end.hidden = parts.length === 0;
  }

  /** Refused before any table came (no seat here yet): sit down, or watch. */
  offerSeat() {
    this.lobby.hidden = false;
    fill(this.lobby, el("button", { type: "button", id: "sit", text: "Sit at this table",
      onclick: async () => {
        await this.rest("POST", `/api/tables/${this.tableId}/join`, {});
        if (this.ws) this.ws.close();
      } }), " ", el("a", { href: `${location.pathname}?watch`, text: "Watch instead" }));
  }

  onLobby(msg) {
    const info = msg.table;
    this.tableInfo = info;
    this.lobbySeen = true;
    this.lobby.hidden = false;
    const me = this.me ? this.me.player_id : null;
    const host = Boolean(me && info.host === me);
    const mine = info.seats.some((s) => s.player_id === me);
    const open = info.seats.filter((s) => s.kind === "open").map((s) => s.seat + 1);
    const rows = info.seats.map((s) => {
      const you = Boolean(me && s.player_id === me);
      // a person playing now keeps their seat: only an away one may go to a bot or be removed
      const taken = s.kind === "human" && info.status === "playing" && !s.away;
      const who = s.kind === "bot" ? `${s.name || "bot"} (a bot)` : s.kind === "open" ? "open seat" : s.name;
      const controls = [];
      if (!mine && !this.spectate && s.kind === "open") {
        controls.push(el("button", { type: "button", class: "join", text: "Sit here",
          onclick: () => this.rest("POST", `/api/tables/${this.tableId}/join`, { seat: s.seat }) }));
      }
      if (host && !you && !taken) {
        if (s.kind === "bot") {
          controls.push(el("button", { type: "button", text: "Make it a person's seat",
            onclick: () => this.rest("POST", `/api/tables/${this.tableId}/seats/${s.seat}`, { kind: "human" }) }));
        } else if (s.kind === "open" || s.away) {
          controls.push(el("button", { type: "button", text: "Give it to a bot",
            onclick: () => this.rest("POST", `/api/tables/${this.tableId}/seats/${s.seat}`, { kind: "bot", level: "heuristic" }) }));
        }
        if (s.kind === "human") {
          controls.push(el("button", { type: "button", text: "Remove",
            onclick: () => this.rest("DELETE", `/api/tables/${this.tableId}/seats/${s.seat}`) }));
        }
      }
      return el("li", {}, el("span", { text: `Seat ${s.seat + 1}: ${who}${you ? " (you)" : ""}${s.away ? ", away" : ""}` }), ...controls);
    });
    fill(this.lobby,
      el("h2", { text: info.status === "lobby" ? "Waiting for players" : "Seats" }),
      el("p", {}, "Invite link: ", el("a", { href: `/t/${info.invite}`, id: "invite-link",
        text: `${location.origin}/t/${info.invite}` })),
      el("ul", { class: "seats-list" }, ...rows),
      info.status === "lobby" && open.length
        ? el("p", { id: "open-seats", text: host
          ? `${seatWords(open)} open: send the invite link to a friend, or give ${open.length > 1 ? "them" : "it"} to a bot, and then start.`
          : `${seatWords(open)} open: the game starts once every seat is taken.` })
        : null,
      host && info.status === "lobby"
        ? el("button", { type: "button", id: "start", text: "Start the game", disabled: open.length > 0,
          onclick: () => this.rest("POST", `/api/tables/${this.tableId}/start`) })
        : info.status === "lobby" ? el("p", { text: `${info.host_name || "The host"} (the host) starts the game.` }) : null);
    if (info.status !== "lobby") this.lobby.hidden = true;
    if (this.view) this.drawEnd(this.view);
  }

  async rest(method, path, body) {
    try {
      await call(method, path, body);
      this.notice.textContent = "";
    } catch (err) {
      this.notice.textContent = err.message;
    }
  }

  askHint() {
    if (this.spectate) return;
    fill(this.hints, el("li", { text: "Thinking…" }));
    this.send({ type: "hint" });
  }

  onHint(msg) {
    // the recommended move first, worded as on its button, with its gain and chance to win;
    // or, from a learned model (msg.model), with how often its policy plays it
    const unit = (this.view && this.view.unit) || "";
    const deal = msg.deal_word || "deal";
    const share = (x) => (x > 0 && x < 0.005 ? "under 1%" : `${Math.round(x * 100)}%`);
    const row = msg.model
      ? (r) => `${r.label}: plays this ${share(r.chance || 0)} of the time`
      : (r) => `${r.label}: ${signed(r.gain)} ${unit}, ${Math.round(r.win * 100)}% chance to win the ${deal}`;
    const [best, ...rest] = msg.rows;
    if (!best) {
      fill(this.hints, el("li", { text: "No hint here." }));
      return;
    }
    const note = msg.model
      ? `The learned player ${msg.model}'s choice comes first; each figure is how often its policy plays the move (at the table it always plays its choice). These are not the search bot's estimates.`
      : `Gain: the ${msg.gain_words || "expected gain"}, as the search bot estimates it from what you may know.`;
    fill(this.hints,
      el("li", { class: "best" }, el("b", { text: msg.model ? "Its choice: " : "Recommended: " }), row(best)),
      ...rest.map((r) => el("li", { text: row(r) })),
      el("li", { class: "hint-note", text: note }));
  }

  showRules() {
    rulesDialog(this.info.ruleset || (this.view && this.view.table && this.view.table.title), this.info.options);
  }

  onKey(event) {
    const target = event.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT")) return;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const hand = (this.view && this.view.table && this.view.table.hand_cards) || [];
    if (/^[1-9]$/.test(event.key) && Number(event.key) <= hand.length) {
      this.pick(hand[Number(event.key) - 1]);
    } else if (event.key === "Escape") {
      this.selected = null;
      if (this.view) this.onView(this.view);
    } else if (event.key === "a") {
      const first = this.root.querySelector("#offers button, #actions button");
      if (first) first.focus();
    } else if (event.key === "h") {
      this.askHint();
    } else if (event.key === "r") {
      this.showRules();
    } else if (event.key === "c") {
      event.preventDefault();
      byId("chat-text").focus();
    } else {
      return;
    }
  }
}

function same(a, b) {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** "Seat 2 is", "Seats 2 and 3 are", "Seats 2, 3 and 4 are". */
function seatWords(numbers) {
  if (numbers.length === 1) return `Seat ${numbers[0]} is`;
  return `Seats ${numbers.slice(0, -1).join(", ")} and ${numbers[numbers.length - 1]} are`;
}

function statusWords(status) {
  return { lobby: "waiting to start", showdown: "showdown", over: "game over" }[status] || "";
}

function capital(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : "";
}

function signed(x) {
  const v = Math.round(x * 100) / 100;
  return `${v > 0 ? "+" : ""}${v.toFixed(2)}`;
}

/** "1 deal won", "2 deals won": one word per unit. */
function count(n, words) {
  const [first, ...rest] = words.split(" ");
  return `${n} ${n === 1 ? first : `${first}s`}${rest.length ? ` ${rest.join(" ")}` : ""}`;
}

/** The scoreboard: every deal's results, and the totals. */
function dealsEl(view) {
  const names = view.standings.slice().sort((a, b) => a.seat - b.seat).map((r) => r.name);
  const word = capital(view.deal_word);
  const winners = view.deals.some((d) => d.winners.length);
  return el("details", { class: "scoreboard", open: view.deals.length <= 12 },
    el("summary", { text: `${word} by ${view.deal_word} (${view.unit})` }),
    el("div", { class: "scroll" }, el("table", { id: "deals" },
      el("thead", {}, el("tr", {}, el("th", { text: word }), ...names.map((n) => el("th", { text: n })),
        winners ? el("th", { text: "won by" }) : null)),
      el("tbody", {}, ...view.deals.map((d) => el("tr", {},
        el("td", { text: d.number }), ...d.results.map((r) => el("td", { text: r })),
        winners ? el("td", { text: d.winners.join(", ") }) : null))))));
}

/** The showdown: what the log says of it, and who won. */
function showdownEl(showdown, names) {
  const won = showdown.winners.map((w) => names[w]).filter(Boolean);
  return el("div", { class: "showdown", "aria-label": "showdown" },
    el("h2", { text: "Showdown" }),
    ...showdown.lines.map((line) => el("p", { text: line })),
    won.length ? el("p", { class: "why", text: `${won.join(" and ")} won${showdown.categories.length ? ` with ${showdown.winners.map((w) => showdown.categories[w]).filter(Boolean).join(", ")}` : ""}.` }) : null);
}

async function copy(text, notice) {
  try {
    await navigator.clipboard.writeText(text);
    notice.textContent = "Invite link copied.";
  } catch {
    notice.textContent = `Invite link: ${text}`;
  }
}

let current = null;

/** Opens the table named by ref (its id or invite) in root; spectate watches without a seat. */
export async function openTable(root, ref, opts = {}) {
  closeTable();
  const info = await call("GET", `/api/tables/${encodeURIComponent(ref)}`);
  if (!opts.spectate && !token()) {
    // Someone who followed an invite link: a name first (or watch without a seat).
    await askName(root, info);
  }
  // who this browser is, so that the waiting room knows the host and the seat already taken
  const me = opts.me || (token() ? await call("GET", "/api/players/me").catch(() => null) : null);
  current = new TableSession(root, info, { ...opts, me });
  return current;
}

function askName(root, info) {
  return new Promise((resolve) => {
    const notice = el("p", { id: "notice", class: "notice", role: "alert" });
    const input = el("input", { id: "name", name: "name", required: true, maxlength: 40,
      autocomplete: "nickname" });
    fill(root, el("h1", { text: info.title || "Commerce" }), notice,
      el("form", { id: "name-form", onsubmit: async (e) => {
        e.preventDefault();
        try {
          await ensurePlayer(input.value.trim());
          resolve();
        } catch (err) {
          notice.textContent = err.message;
        }
      } }, el("label", { for: "name", text: "Your name to sit down " }), input,
      el("button", { type: "submit", text: "Sit down" })),
      el("p", {}, el("a", { href: `${location.pathname}?watch`, text: "Watch without a seat" })));
    input.focus();
  });
}

/** Closes the open table, if any. */
export function closeTable() {
  if (current) current.close();
  current = null;
}

