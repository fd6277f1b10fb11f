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

/** Shows the rules of the ruleset named by id (or title), with the table's options. */
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
    lines.push(el("p", { text: `${entry.family ?? ""} family, ${entry.min_players}-${entry.max_players} players, scored in ${entry.unit ?? "stakes"}.` }));
    for (const key of ["rules", "summary"]) {
      const text = entry[key];
      if (Array.isArray(text)) lines.push(...text.map((t) => el("p", { text: t })));
      else if (typeof text === "string") lines.push(el("p", { text }));
    }
    if (Array.isArray(entry.ranking) && entry.ranking.length) {
      lines.push(el("h3", { text: "Hands, best first" }), el("ol", { class: "ranking" },
        ...entry.ranking.map((r) => el("li", { text: r }))));
    }
    if ((entry.options || []).length) {
      lines.push(el("h3", { text: "Options" }), el("dl", { class: "options" },
        ...entry.options.flatMap((o) => [
          el("dt", { text: `${o.name}: ${String((options || {})[o.name] ?? o.default)}` }),
          el("dd", { text: o.doc || "" })])));
    }
  }
  fill(dialog, el("h2", { id: "rules-title", text: entry ? entry.title : "Rules" }), ...lines,
    el("form", { method: "dialog" }, el("button", { type: "submit", text: "Close" })));
  if (!dialog.open) dialog.showModal();
}
