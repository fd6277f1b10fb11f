// Building the page's elements. Text from the server (names, chat, log lines) only ever goes
// in through textContent or text nodes, never through innerHTML.

/** An element: attrs sets attributes ("text" sets textContent, "on<event>" adds a listener,
 *  a false or null value leaves the attribute out); children are nodes or strings. */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === false || value === null || value === undefined) continue;
    if (key === "text") node.textContent = String(value);
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "value") node.value = value;
    else if (key === "checked") node.checked = Boolean(value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  add(node, children);
  return node;
}

function add(node, children) {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replaces the children of node. */
export function fill(node, ...children) {
  node.replaceChildren();
  add(node, children);
  return node;
}

/** The element with this id (it must exist). */
export function byId(id) {
  const node = document.getElementById(id);
  if (!node) throw new Error(`no element #${id}`);
  return node;
}
