"""The browser view: the game master's pages, the players' view and the JSON API (docs/web.md)."""
