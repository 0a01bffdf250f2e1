#!/usr/bin/env python3
"""The outbox with MESSAGES messages waiting: its size on disk, and how fast `geotrack outbox
flush` drains it into a real mosquitto once the broker is back.

The first messages are real: `geotrack replay LOG --publish` with no broker, so they wait. They
are then copied (same destination, same payloads, new ids) with Python's sqlite3 until MESSAGES
wait, which is quicker than replaying the log a thousand times and gives the same rows.

Usage: outbox-drain.py BIN --log LOG [--messages 100000]
"""
import argparse, os, socket, sqlite3, subprocess, sys, tempfile, time

parser = argparse.ArgumentParser()
parser.add_argument("binary")
parser.add_argument("--log", required=True)
parser.add_argument("--messages", type=int, default=100_000)
args = parser.parse_args()

with socket.socket() as s:
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
work = tempfile.mkdtemp(prefix="geotrack-outbox-")
env = {**os.environ, "XDG_STATE_HOME": work}
url = f"mqtt://127.0.0.1:{port}"
subprocess.run([args.binary, "replay", args.log, "--publish", url, "--publish-wait", "0"], env=env,
               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
path = os.path.join(work, "geotrack", "outbox.sqlite")
db = sqlite3.connect(path)
while db.execute("SELECT COUNT(*) FROM message").fetchone()[0] < args.messages:
    db.execute("INSERT INTO message (destination, topic, payload, retain, created) "
               "SELECT destination, topic, payload, retain, created FROM message")
    db.commit()
excess = db.execute("SELECT COUNT(*) FROM message").fetchone()[0] - args.messages
db.execute("DELETE FROM message WHERE id IN (SELECT id FROM message ORDER BY id DESC LIMIT ?)", (excess,))
db.commit()
db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
db.execute("VACUUM")
db.close()
size = sum(os.path.getsize(path + suffix) for suffix in ("", "-wal") if os.path.exists(path + suffix))
payload = sqlite3.connect(path).execute("SELECT AVG(LENGTH(payload)) FROM message").fetchone()[0]
print(f"outbox on disk        {size / 1e6:.1f} MB for {args.messages} messages "
      f"({size / args.messages:.0f} bytes each; payloads average {payload:.0f} bytes)")

conf = os.path.join(work, "mosquitto.conf")
with open(conf, "w") as f:
    f.write(f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\nlog_dest none\n")
broker = subprocess.Popen(["/usr/sbin/mosquitto", "-c", conf], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
for _ in range(300):
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
        break
    except OSError:
        time.sleep(0.05)
start = time.time()
flush = subprocess.run([args.binary, "outbox", "flush", "--timeout", "600"], env=env, capture_output=True, text=True)
elapsed = time.time() - start
broker.terminate()
broker.wait()
left = sqlite3.connect(path).execute("SELECT COUNT(*) FROM message").fetchone()[0]
print(f"drain                 {args.messages - left} delivered in {elapsed:.1f} s: "
      f"{(args.messages - left) / elapsed:.0f} messages/s (outbox flush exit {flush.returncode}, {left} left)")
sys.exit(0 if left == 0 and flush.returncode == 0 else 1)
