#!/usr/bin/env python3
"""Server-Sent-Events clients for benchmarks/serve-clients.sh: N clients that read
`geotrack serve`'s /events as fast as it sends, and S that send the request and never read
(a receive buffer of 1 KiB, so that the server's side fills soon). Runs for DURATION seconds,
then prints one JSON object: events and bytes per reading client (min, max), and the
connections that ended early.

Usage: sse-clients.py HOST PORT CLIENTS STALLED DURATION
"""
import json, selectors, socket, sys, time

host, port, clients, stalled, duration = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5])
request = ("GET /events HTTP/1.1\r\nHost: %s:%d\r\nAccept: text/event-stream\r\n\r\n" % (host, port)).encode()
selector = selectors.DefaultSelector()
readers = []
for index in range(clients):
    s = socket.create_connection((host, port))
    s.sendall(request)
    s.setblocking(False)
    state = {"events": 0, "bytes": 0, "closed": False, "tail": b""}
    readers.append(state)
    selector.register(s, selectors.EVENT_READ, state)
held = []
for _ in range(stalled):
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
    s.connect((host, port))
    s.sendall(request)
    held.append(s)

deadline = time.monotonic() + duration
while time.monotonic() < deadline:
    for key, _ in selector.select(timeout=0.5):
        state = key.data
        try:
            data = key.fileobj.recv(262144)
        except BlockingIOError:
            continue
        except OSError:
            data = b""
        if not data:
            state["closed"] = True
            selector.unregister(key.fileobj)
            continue
        state["bytes"] += len(data)
        text = state["tail"] + data
        state["events"] += text.count(b"\nevent: ") + (1 if text.startswith(b"event: ") else 0)
        state["tail"] = text[-8:]

# Whether a stalled client saw the end of its stream: only once it has read everything the
# kernel still held for it, so serve's /stats, not this, says whether it was disconnected.
dropped = 0
for s in held:
    s.setblocking(False)
    try:
        while True:
            chunk = s.recv(65536)
            if not chunk:
                dropped += 1
                break
    except BlockingIOError:
        pass
    except OSError:
        dropped += 1
events = [r["events"] for r in readers]
sizes = [r["bytes"] for r in readers]
print(json.dumps({"clients": clients, "events_min": min(events), "events_max": max(events),
                  "bytes_min": min(sizes), "bytes_max": max(sizes), "closed_early": sum(r["closed"] for r in readers),
                  "stalled": stalled, "stalled_saw_end": dropped}))
