#!/usr/bin/env python3
"""Publishes COUNT OwnTracks locations, each of its own device (owntracks/burst/dNNNN), to the
MQTT broker on 127.0.0.1:PORT in one burst: MQTT 3.1.1 by hand, QoS 0 (mosquitto_pub would
take a process each).

Usage: mqtt-burst.py PORT COUNT
"""
import json, socket, struct, sys


def length(n):
    out = b""
    while True:
        byte, n = n % 128, n // 128
        out += bytes([byte | (128 if n else 0)])
        if not n:
            return out


def text(value):
    value = value.encode()
    return struct.pack(">H", len(value)) + value


broker = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
header = text("MQTT") + bytes([4, 2]) + struct.pack(">H", 60) + text("burst")
broker.sendall(bytes([0x10]) + length(len(header)) + header)
assert broker.recv(4)[:1] == b"\x20", "the broker did not accept the connection"
for i in range(int(sys.argv[2])):
    location = {"_type": "location", "lat": 46 + i * 1e-5, "lon": 6, "tst": 1700000000}
    body = text("owntracks/burst/d%04d" % i) + json.dumps(location).encode()
    broker.sendall(bytes([0x30]) + length(len(body)) + body)
broker.sendall(bytes([0xE0, 0]))
broker.close()
