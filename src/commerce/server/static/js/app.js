// The page's router: "/" the lobby, "/t/<invite>" a table, "/history" one's games,
// "/replay/<game>" a replay; "#claim=<token>" brings a player from another device.

import { keepPlayer, savedName, token } from "./api.js";
import { el, fill } from "./dom.js";
import { showHistory, showReplay } from "./history.js";
import { showLobby } from "./lobby.js";
import { closeTable, openTable } from "./table.js";

const root = document.getElementById("app");

// A claim link: whose it is is asked of the server first; a different player already on this
// browser is replaced only if the person says so; the page then shows the link's name.
async function claim() {
  const m = location.hash.match(/^#claim=(.+)$/);
  if (!m) return;
  history.replaceState(null, "", location.pathname + location.search);
  const claimed = decodeURIComponent(m[1]);
  if (claimed === token()) return;
  let who = null;
  try {
    const reply = await fetch("/api/players/me", { headers: { Authorization: `Bearer ${claimed}` } });
    if (reply.ok) who = await reply.json();
  } catch {
    who = null;
  }
  if (!who) {
    alert("This link does not bring a player here: it may be mistyped or out of date.");
    return;
  }
  if (token() && !confirm(`This link plays as ${who.name}. Play as ${who.name} on this browser `
      + `instead of ${savedName() || "the player here now"}?`)) return;
  keepPlayer({ token: claimed, name: who.name });
}

function go(path) {
  history.pushState(null, "", path);
  route();
}

async function route() {
  closeTable();
  const path = location.pathname;
  const params = new URLSearchParams(location.search);
  let m;
  try {
    if ((m = path.match(/^\/t\/([^/]+)$/))) {
      await openTable(root, decodeURIComponent(m[1]), { spectate: params.has("watch") });
    } else if (path === "/history") {
      await showHistory(root);
    } else if ((m = path.match(/^\/replay\/([^/]+)$/))) {
      await showReplay(root, decodeURIComponent(m[1]));
    } else {
      await showLobby(root, go);
    }
  } catch (err) {
    fill(root, el("h1", { text: "Commerce" }), el("p", { class: "notice", role: "alert", text: err.message }),
      el("p", {}, el("a", { href: "/", "data-route": "", text: "Back to the lobby" })));
  }
}

function fourColour(on) {
  document.body.classList.toggle("four-colour", on);
  localStorage.setItem("commerce.fourColour", on ? "1" : "");
}

document.addEventListener("click", (event) => {
  const link = event.target.closest && event.target.closest("a[data-route]");
  if (link && !event.ctrlKey && !event.metaKey && !event.shiftKey) {
    event.preventDefault();
    go(link.getAttribute("href"));
  }
});
window.addEventListener("popstate", route);
window.addEventListener("hashchange", () => {
  if (location.hash.startsWith("#claim=")) claim().finally(route);
});
const toggle = document.getElementById("four-colour");
toggle.checked = Boolean(localStorage.getItem("commerce.fourColour"));
fourColour(toggle.checked);
toggle.addEventListener("change", () => fourColour(toggle.checked));
claim().finally(route);
