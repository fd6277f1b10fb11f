// The REST side of the server/page contract, and the player's token in the browser's storage.

const TOKEN = "commerce.token";
const NAME = "commerce.name";

/** The player's token, or null before the player has a name. */
export function token() {
  return localStorage.getItem(TOKEN);
}

/** The name the player plays under, or "". */
export function savedName() {
  return localStorage.getItem(NAME) || "";
}

/** Keeps the player (from POST /api/players or a claim link) in this browser. */
export function keepPlayer(player) {
  if (player.token) localStorage.setItem(TOKEN, player.token);
  if (player.name) localStorage.setItem(NAME, player.name);
}

/** Forgets the player in this browser (the server keeps their games). */
export function forgetPlayer() {
  localStorage.removeItem(TOKEN);
  localStorage.removeItem(NAME);
}

/** A link that brings this player (their tables and history) to another device. */
export function claimLink() {
  return `${location.origin}/#claim=${encodeURIComponent(token() || "")}`;
}

/** An error the server refused a call with: its one clear sentence. */
export class ApiError extends Error {}

/** Calls the API; resolves to the JSON reply, or rejects with an ApiError. */
export async function call(method, path, body) {
  const headers = { Accept: "application/json" };
  const t = token();
  if (t) headers.Authorization = `Bearer ${t}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let reply;
  try {
    reply = await fetch(path, {
      method, headers, body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError("The server cannot be reached; check the connection and try again.");
  }
  let data = null;
  try {
    data = await reply.json();
  } catch {
    data = null;
  }
  if (!reply.ok) {
    const message = data && typeof data.error === "string" ? data.error
      : data && typeof data.detail === "string" ? data.detail
      : `The server answered ${reply.status}.`;
    throw new ApiError(message);
  }
  return data;
}

/** The player this browser holds, creating one under name if there is none yet. */
export async function ensurePlayer(name) {
  if (token()) {
    try {
      const me = await call("GET", "/api/players/me");
      keepPlayer({ name: me.name });
      return me;
    } catch (err) {
      if (!name) throw err;
    }
  }
  const player = await call("POST", "/api/players", { name });
  keepPlayer(player);
  return player;
}

/** Gives the player of this browser a new name; resolves to it as the server wrote it. */
export async function renamePlayer(name) {
  const player = await call("PATCH", "/api/players/me", { name });
  keepPlayer({ name: player.name });
  return player.name;
}
