"""The multiplayer server: the lobby's REST API, the tables' websockets and the page
(``commerce serve``; ``docs/server.md``). Needs the ``server`` extra."""
