"""The ground floor of the live site: WebSocket plumbing that knows no game (CONVENTIONS 16).

Nothing here imports from another app; apps build their sockets on it.

- `loop`: the web server's event loop, remembered from the ASGI entry point, and what starts with it.
- `bus`: one publish per change, delivered to the listeners of a topic in every web process (Redis
  pub/sub on the real stack, the process itself on the embedded default).
- `threads`: the sockets' database work, on a small pool of threads with kept connections.
- `guard`: what every frame must be (size, rate, JSON, declared fields and types).
- `endpoint`: a WebSocket connection as a plain ASGI application: handshake, ordered frames, prompt stop.
- `limits`: how many sockets one user and one address may hold at once.
- `daphne`: close codes of RFC 6455 through daphne.
"""
