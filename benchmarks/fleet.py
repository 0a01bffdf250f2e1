#!/usr/bin/env python3
"""A fleet on one machine: one mosquitto, N geotrack trackers, one `geotrack fleet --json`.

Each tracker is its own device (owntracks/bench/tN) with its own state folder (its own outbox,
as on separate machines), and runs `geotrack replay LOG --realtime --json --publish URL` over
one of the corpus logs, again and again (each replay a new process) until DURATION seconds
have passed. The corpus logs are short, so a tracker is a chain of processes; what one leaves
in its outbox the next one sends.

Counted per message (device, tst, lat, lon; duplicates in a log counted as such):
  sent       TPV lines with a position the trackers printed, the first of each second of a
             run (as --publish publishes at most one location per second of tst);
  delivered  of those, how many the fleet subscriber received;
  lost       sent - delivered (must be 0);
  repeated   received more than once (QoS 1's at-least-once).
  notes      what a replay said on stderr about publishing (a status line's "N queued, broker
             unreachable", the note at exit that messages wait in the outbox): with the broker
             up the whole time, any is false;
  left       messages in the trackers' outboxes once every chain ended, before the flush
             that sends what an outage left: with the broker up, must be 0.
Latency: from the moment a tracker printed a fix's TPV line (read here from its stdout) to
the subscriber's received_at, for messages delivered while the broker was up.
CPU and peak RSS of each part come from wait4(2)'s rusage of every process.

With --outage S, the broker is stopped S seconds after DURATION/4 and started again on the
same port: lost must still be 0.

With --once, each tracker runs one replay (all at once) instead of a chain for DURATION; with
--fast as well, each replay runs as fast as it can (no --realtime): every tracker queues its
whole log at once and must have it acknowledged before it exits (latency then means little).

Usage: fleet.py BIN --logs DIR [--trackers 200] [--duration 120] [--outage 0] [--once [--fast]]

Exits 1 when a message was lost, or, without an outage, when a replay printed a note or an
outbox still held messages.
"""
import argparse, json, os, selectors, signal, socket, statistics, subprocess, sys, tempfile, threading, time

parser = argparse.ArgumentParser()
parser.add_argument("binary")
parser.add_argument("--logs", required=True)
parser.add_argument("--trackers", type=int, default=200)
parser.add_argument("--duration", type=float, default=120)
parser.add_argument("--outage", type=float, default=0)
parser.add_argument("--once", action="store_true")
parser.add_argument("--fast", action="store_true")
args = parser.parse_args()

def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]

def wait_port(port, up=True, timeout=15):
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            if up: return True
        except OSError:
            if not up: return True
        time.sleep(0.05)
    return False

def reap(process):
    """Waits for a child and returns (cpu seconds, peak RSS in KiB)."""
    _, _, usage = os.wait4(process.pid, 0)
    process.returncode = 0
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss

work = tempfile.mkdtemp(prefix="geotrack-fleet-")
# Started as root, mosquitto drops to its own user before it writes its persistence file.
os.chmod(work, 0o777)
port = free_port()
url = f"mqtt://127.0.0.1:{port}"
config = os.path.join(work, "mosquitto.conf")
with open(config, "w") as f:
    # The subscriber's queue must hold an outage's backlog arriving at once; its session (and what
    # arrives for it before it reconnects) must survive the broker's restart.
    f.write(f"listener {port} 127.0.0.1\nallow_anonymous true\nlog_dest none\n"
            f"persistence true\npersistence_location {work}/\n"
            "max_queued_messages 0\nmax_inflight_messages 0\n")

broker_usage = [0.0, 0]
def start_broker():
    process = subprocess.Popen(["/usr/sbin/mosquitto", "-c", config], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if not wait_port(port): sys.exit("mosquitto did not start")
    return process

broker = start_broker()
# Logs whose every fix with a position has a time (a message is matched to its fix by time),
# lasting at most a minute at their recorded pace without a gap over 10 s (nmea-rtk lasts 641 s;
# mtk-3301's clock jumps, and a paced replay waits for the jump).
def timed(log):
    from datetime import datetime
    out = subprocess.run([args.binary, "replay", log, "--json"], capture_output=True, text=True,
                         env={**os.environ, "XDG_STATE_HOME": os.path.join(work, "probe")}).stdout
    reports = [json.loads(line) for line in out.splitlines()]
    fixes = [r for r in reports if "lat" in r]
    if not fixes or not all("time" in fix for fix in fixes): return False
    times = [datetime.fromisoformat(r["time"].replace("Z", "+00:00")).timestamp() for r in reports if "time" in r]
    gaps = [b - a for a, b in zip(times, times[1:])]
    return times[-1] - times[0] <= 60 and all(0 <= gap <= 10 for gap in gaps)
logs = [log for log in sorted(os.path.join(args.logs, name) for name in os.listdir(args.logs) if name.endswith(".nmea"))
        if timed(log)]

# The subscriber first, so it sees everything.
fleet = subprocess.Popen([args.binary, "fleet", url, "--json", "--client-id", "bench-fleet"], stdout=subprocess.PIPE, text=True,
                         env={**os.environ, "XDG_STATE_HOME": os.path.join(work, "fleet")})
received = {}          # key -> [received_at...]
received_lock = threading.Lock()
def read_fleet():
    for line in fleet.stdout:
        try:
            o = json.loads(line)
        except ValueError:
            continue
        device = o["topic"].rsplit("/", 1)[-1]
        key = (device, o["tst"], round(o["lat"], 7), round(o["lon"], 7))
        with received_lock:
            received.setdefault(key, []).append(o["received_at"])
reader = threading.Thread(target=read_fleet, daemon=True)
reader.start()
time.sleep(1.0)

sent = {}              # key -> [printed at...]
sent_lock = threading.Lock()
tracker_cpu = []
tracker_rss = []
notes = []             # (device, line) of every line a replay printed on stderr
processes_started = [0]
start = time.time()
deadline = start + args.duration

def tracker(index):
    device = f"t{index}"
    log = logs[index % len(logs)]
    env = {**os.environ, "XDG_STATE_HOME": os.path.join(work, device), "XDG_CONFIG_HOME": os.path.join(work, "config")}
    errors = os.path.join(work, f"{device}.stderr")
    runs = 0
    while (runs < 1) if args.once else (time.time() < deadline):
        runs += 1
        with open(errors, "w") as stderr:
            pace = [] if args.fast else ["--realtime"]
            process = subprocess.Popen([args.binary, "replay", log, *pace, "--json", "--publish", url,
                                        "--publish-user", "bench", "--publish-device", device, "--publish-wait", "5"],
                                       stdout=subprocess.PIPE, stderr=stderr, text=True, env=env)
        with sent_lock: processes_started[0] += 1
        published = None
        for line in process.stdout:
            now = time.time()
            if '"lat"' not in line: continue
            o = json.loads(line)
            tst = int(time_seconds(o["time"]))
            if tst == published: continue
            published = tst
            key = (device, tst, round(o["lat"], 7), round(o["lon"], 7))
            with sent_lock: sent.setdefault(key, []).append(now)
        cpu, rss = reap(process)
        with open(errors) as stderr:
            said = [line.rstrip("\n") for line in stderr
                    if "queued" in line or "outbox" in line or "broker" in line or "connect" in line]
        with sent_lock:
            tracker_cpu.append(cpu)
            tracker_rss.append(rss)
            notes.extend((device, line) for line in said)

def time_seconds(iso):
    from datetime import datetime
    return datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp()

outage_window = None
def outage():
    global broker, outage_window
    time.sleep(args.duration / 4)
    down = time.time()
    broker.send_signal(signal.SIGTERM)
    cpu, rss = reap(broker)
    broker_usage[0] += cpu; broker_usage[1] = max(broker_usage[1], rss)
    wait_port(port, up=False)
    time.sleep(args.outage)
    broker = start_broker()
    outage_window = (down, time.time())

threads = [threading.Thread(target=tracker, args=(i,)) for i in range(args.trackers)]
for t in threads: t.start()
breaker = threading.Thread(target=outage) if args.outage > 0 else None
if breaker: breaker.start()
for t in threads: t.join()
if breaker: breaker.join()

# What every chain left in its outbox, before anything flushes it.
def waiting(index):
    out = subprocess.run([args.binary, "outbox", "--json"], capture_output=True, text=True,
                         env={**os.environ, "XDG_STATE_HOME": os.path.join(work, f"t{index}")}).stdout
    return sum(json.loads(line)["messages"] for line in out.splitlines() if line.strip())
left_per_tracker = [waiting(i) for i in range(args.trackers)]
left = sum(left_per_tracker)

# What a tracker's last run left in its outbox (the broker was down, or acks were late).
leftover_start = time.time()
flushes = [subprocess.Popen([args.binary, "outbox", "flush", "--timeout", "60"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL,
                            env={**os.environ, "XDG_STATE_HOME": os.path.join(work, f"t{i}")}) for i in range(args.trackers)]
for process in flushes: process.wait()

# Until the subscriber has been quiet for 3 s.
total = lambda: sum(len(v) for v in sent.values())
last, quiet_since = -1, time.time()
while time.time() - quiet_since < 3:
    with received_lock: count = sum(len(v) for v in received.values())
    if count != last: last, quiet_since = count, time.time()
    time.sleep(0.2)

fleet.send_signal(signal.SIGTERM)
fleet_cpu, fleet_rss = reap(fleet)
broker.send_signal(signal.SIGTERM)
cpu, rss = reap(broker)
broker_usage[0] += cpu; broker_usage[1] = max(broker_usage[1], rss)

sent_count = total()
delivered = repeated = 0
latencies = []
for key, times in sent.items():
    got = received.get(key, [])
    delivered += min(len(times), len(got))
    repeated += max(0, len(got) - len(times))
    for printed, arrived in zip(sorted(times), sorted(got)):
        # With an outage, only what was printed before it: later fixes wait for the reconnection.
        if outage_window and printed >= outage_window[0] - 1: continue
        latencies.append((arrived - printed) * 1000)
lost = sent_count - delivered

def pct(values, p):
    if not values: return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]

mib = lambda kib: kib / 1024
print(f"logs                  {len(logs)} corpus logs (every fix timed, at most 60 s long), round robin")
if args.once:
    print(f"trackers              {args.trackers} devices, one replay each, all at once ({processes_started[0]} replay processes, "
          f"separate outboxes), {'as fast as they can' if args.fast else 'at real-time pace'}")
else:
    print(f"trackers              {args.trackers} devices, one process chain each ({processes_started[0]} replay processes, "
          f"separate outboxes), {args.duration:.0f} s at real-time pace")
if outage_window:
    print(f"broker outage         {outage_window[1] - outage_window[0]:.0f} s, from t+{outage_window[0] - start:.0f} s")
print(f"messages sent         {sent_count}")
print(f"delivered             {delivered}")
print(f"lost                  {lost}")
print(f"repeated (QoS 1)      {repeated}")
print(f"notes at exit         {len(notes)} lines from {len(set(d for d, _ in notes))} trackers"
      + (f", e.g. {notes[0][0]}: {notes[0][1]}" if notes else ""))
print(f"left in outboxes      {left} messages in {sum(1 for n in left_per_tracker if n)} of {args.trackers} outboxes "
      "(before the final flush)")
print(f"latency fix→fleet     p50 {pct(latencies, 50):.1f} ms, p99 {pct(latencies, 99):.1f} ms "
      f"({len(latencies)} messages{', before the outage' if outage_window else ''})")
if outage_window:
    with received_lock:
        after = sorted(t for times in received.values() for t in times if t >= outage_window[1])
    backlog_cleared = max((t for t in after), default=outage_window[1]) - outage_window[1]
    print(f"after the outage      the last message arrived {backlog_cleared:.1f} s after the broker was back")
print(f"geotrack replay       CPU {sum(tracker_cpu):.1f} s in all ({sum(tracker_cpu) / max(1, len(tracker_cpu)) * 1000:.0f} ms per process), "
      f"peak RSS median {mib(statistics.median(tracker_rss)):.1f} MiB, max {mib(max(tracker_rss)):.1f} MiB")
print(f"mosquitto             CPU {broker_usage[0]:.1f} s, peak RSS {mib(broker_usage[1]):.1f} MiB")
print(f"geotrack fleet --json CPU {fleet_cpu:.1f} s, peak RSS {mib(fleet_rss):.1f} MiB")
sys.exit(1 if lost or (not outage_window and (notes or left)) else 0)
