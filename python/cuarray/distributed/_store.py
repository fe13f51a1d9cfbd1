"""The rendezvous of a process group: a small TCP key-value store, as cupyx.distributed's _store.

Rank 0 serves it from a daemon thread; every rank (rank 0 included) is a client. Messages are one
JSON object per line. ``get`` waits until the key is set; ``barrier`` waits until all ``world_size``
ranks have entered the same barrier. Pure Python sockets: no GPU is needed for the rendezvous.
"""
import json
import socket
import socketserver
import threading
import time


class _Handler(socketserver.StreamRequestHandler):
    def setup(self):
        super().setup()
        with self.server.state.changed:
            self.server.state.connections += 1

    def finish(self):
        try:
            super().finish()
        finally:
            with self.server.state.changed:
                self.server.state.connections -= 1
                self.server.state.changed.notify_all()

    def handle(self):
        state = self.server.state
        for line in self.rfile:
            request = json.loads(line)
            action = request["action"]
            with state.changed:
                if action == "set":
                    state.values[request["key"]] = request["value"]
                    state.changed.notify_all()
                    reply = {"ok": True}
                elif action == "get":
                    state.changed.wait_for(lambda: request["key"] in state.values)
                    reply = {"value": state.values[request["key"]]}
                elif action == "barrier":
                    generation = state.barrier_generation
                    state.barrier_count += 1
                    if state.barrier_count == state.world_size:
                        state.barrier_count = 0
                        state.barrier_generation += 1
                        state.changed.notify_all()
                    else:
                        state.changed.wait_for(lambda: state.barrier_generation != generation)
                    reply = {"ok": True}
                else:
                    reply = {"error": f"unknown store action {action!r}"}
            self.wfile.write((json.dumps(reply) + "\n").encode())
            self.wfile.flush()


class _State:
    def __init__(self, world_size):
        self.world_size = world_size
        self.values = {}
        self.changed = threading.Condition()
        self.barrier_count = 0
        self.barrier_generation = 0
        self.connections = 0


class _Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


class TCPStoreServer:
    """The store, served by rank 0 on (host, port) until stop()."""

    def __init__(self, host, port, world_size):
        self._server = _Server((host, port), _Handler)
        self._server.state = _State(world_size)
        self.port = self._server.server_address[1]
        self._thread = threading.Thread(target=self._server.serve_forever, name="cuarray-tcp-store", daemon=True)
        self._thread.start()

    def stop(self, timeout=10.0):
        """Stops serving once every client has disconnected (or after ``timeout`` s): a rank that
        leaves a barrier first must not take the store away before the others have read its reply."""
        state = self._server.state
        with state.changed:
            state.changed.wait_for(lambda: state.connections == 0, timeout=timeout)
        self._server.shutdown()
        self._server.server_close()


class TCPStoreClient:
    """One rank's connection; retries the connection for ``timeout`` seconds while rank 0 starts."""

    def __init__(self, host, port, timeout=60.0):
        deadline = time.monotonic() + timeout
        while True:
            try:
                self._socket = socket.create_connection((host, port), timeout=timeout)
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise TimeoutError(f"no process group store at {host}:{port} after {timeout} s")
                time.sleep(0.05)
        self._socket.settimeout(None)
        self._file = self._socket.makefile("rwb")

    def _request(self, **request):
        self._file.write((json.dumps(request) + "\n").encode())
        self._file.flush()
        line = self._file.readline()
        if not line:
            raise ConnectionError("the process group store closed the connection")
        reply = json.loads(line)
        if "error" in reply:
            raise RuntimeError(reply["error"])
        return reply

    def set(self, key, value):
        self._request(action="set", key=key, value=value)

    def get(self, key):
        return self._request(action="get", key=key)["value"]

    def barrier(self):
        self._request(action="barrier")

    def close(self):
        self._file.close()
        self._socket.close()
