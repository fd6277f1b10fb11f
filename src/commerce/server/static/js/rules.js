// The ruleset's rules and ranking of hands, one click away (from GET /api/rulesets).

import { call } from "./api.js";
import { el, fill } from "./dom.js";

let cache = null;

/** Every preset, fetched once per page. */
export async function rulesets() {
  if (!cache) cache = call("GET", "/api/rulesets");
  try {
    return await cache;
  } catch (err) {
    cache = null;
    throw err;
  }
}

/** Markdown in words for players (paragraphs, "- " lists, **bold**) as elements, text only. */
export function prose(text) {
  const out = [];
  for (const block of (text || "").split(/\n\s*\n/)) {
    const lines = block.split("\n").filter((l) => l.trim());
    if (!lines.length) continue;
    if (lines.every((l) => /^\s*[-*] /.test(l))) {
      out.push(el("ul", {}, ...lines.map((l) => el("li", {}, ...inline(l.replace(/^\s*[-*] /, ""))))));
    } else if (lines[0].trim().startsWith("|")) {
      out.push(el("ul", {}, ...lines.filter((l) => !/^\s*\|[-| ]*\|\s*$/.test(l)).map((l) => el("li", {},
        ...inline(l.trim().replace(/^\||\|$/g, "").split("|").map((c) => c.trim()).filter(Boolean).join(": "))))));
    } else {
      out.push(el("p", {}, ...inline(lines.join(" "))));
    }
  }
  return out;
}

function inline(text) {
  return text.split(/(\*\*[^*]+\*\*)/).filter(Boolean).map((part) => (
    part.startsWith("**") && part.endsWith("**") ? el("strong", { text: part.slice(2, -2) }) : part));
}

/** An option's documentation in words: the code's ids ('lowest_to_best') as words. */
export function docWords(text) {
  return (text || "").replace(/'?\b([a-z0-9]+(?:_[a-z0-9]+)+)\b'?/g, (m, id) => `"${id.replaceAll("_", " ")}"`);
}

function optionValue(value) {
  if (value === true) return "yes";
  if (value === false) return "no";
  if (value === null || value === undefined) return "none";
  return String(value).replaceAll("_", " ");
}

/** Shows the rules of the ruleset named by id (or title), with the table's options: the same
 *  help as the terminal's "?" (how a deal goes, what beats what, what each move means), then
 *  the options in words. It opens at the top. */
export async function rulesDialog(id, options = {}) {
  let dialog = document.getElementById("rules-dialog");
  if (!dialog) {
    dialog = el("dialog", { id: "rules-dialog", "aria-labelledby": "rules-title" });
    document.body.append(dialog);
  }
  let entry = null;
  try {
    entry = (await rulesets()).find((r) => r.id === id || r.title === id) || null;
  } catch (err) {
    entry = null;
  }
  const lines = [];
  if (!entry) {
    lines.push(el("p", { text: "The rules of this table could not be fetched." }));
  } else {
    const players = entry.min_players === entry.max_players ? `${entry.min_players}` : `${entry.min_players}–${entry.max_players}`;
    lines.push(el("p", { class: "rules-summary", text: `${players} players; results in ${entry.unit}.` }));
    if (entry.facts.length) {
      lines.push(el("dl", { class: "facts" }, ...entry.facts.flatMap((f) => [el("dt", { text: f.name }), el("dd", { text: f.text })])));
    }
    if (entry.ranking.length) {
      lines.push(el("h3", { text: "What beats what, best first" }), el("ol", { class: "ranking" },
        ...entry.ranking.map((r) => el("li", { text: r }))));
    }
    if (entry.moves.length) {
      lines.push(el("h3", { text: "The moves" }), el("dl", { class: "moves" },
        ...entry.moves.flatMap((m) => [el("dt", { text: m.move }), el("dd", { text: m.meaning })])));
    }
    if (entry.legend.length) {
      lines.push(el("h3", { text: "The cards" }), ...entry.legend.map((t) => el("p", { class: "legend", text: t })));
    }
    if (entry.rules) lines.push(el("h3", { text: "How a deal goes" }), ...prose(entry.rules));
    if (entry.options.length) {
      lines.push(el("h3", { text: "The options at this table" }), el("dl", { class: "options" },
        ...entry.options.flatMap((o) => [
          el("dt", { text: `${o.label}: ${optionValue((options || {})[o.name] ?? o.default)}` }),
          el("dd", { text: docWords(o.doc) })])));
    }
  }
  const close = el("button", { type: "submit", id: "rules-close", text: "Close" });
  fill(dialog, el("form", { method: "dialog", class: "dialog-head" },
    el("h2", { id: "rules-title", text: entry ? entry.title : "Rules" }), close),
  el("div", { class: "dialog-body" }, ...lines));
  if (!dialog.open) dialog.showModal();
  dialog.scrollTop = 0;
  dialog.querySelector(".dialog-body").scrollTop = 0;
  close.focus({ preventScroll: true });
}
