"""A loopback HTTP server that answers one byte at a time ("slow drip", issue 14): every read the client makes gets
data within its per-read timeout, so only a total deadline can stop the request.

`serve_slow_drip(phase=...)` drips either inside the header block (after the status line) or inside the body (after
complete headers announcing a large JSON body). 127.0.0.1 only; every connection is closed when the block exits, so
an abandoned client thread ends too.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def serve_slow_drip(*, phase: str, interval: float = 1.0) -> Iterator[str]:
    """Serve on 127.0.0.1 (a free port), dripping one byte every `interval` seconds in `phase` ('headers' or
    'body') until the client goes or the block exits; yields the base URL."""
    if phase not in ("headers", "body"):
        raise ValueError(f"phase must be 'headers' or 'body', got {phase!r}")
    listener = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()
    connections: list[socket.socket] = []

    def drip(connection: socket.socket) -> None:
        with connection:
            connection.recv(65536)  # the request (head only: the clients under test send no body)
            if phase == "headers":
                connection.sendall(b"HTTP/1.1 200 OK\r\nX-Drip: ")
            else:
                connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n\r\n{")
            while not stop.is_set():
                try:
                    connection.sendall(b" ")
                except OSError:  # the client gave up
                    return
                stop.wait(interval)

    def accept() -> None:
        while not stop.is_set():
            try:
                connection, _ = listener.accept()
            except OSError:
                return
            connections.append(connection)
            threading.Thread(target=drip, args=(connection,), daemon=True).start()

    acceptor = threading.Thread(target=accept, daemon=True)
    acceptor.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        stop.set()
        listener.close()
        for connection in connections:
            try:
                connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
