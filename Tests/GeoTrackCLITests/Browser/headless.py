#!/usr/bin/env python3
"""Drives Debian's chromium, headless, over the DevTools protocol on a pipe (no WebSocket, no
third-party module): opens URL, evaluates UNTIL every 200 ms until it is true (or the deadline
passes), then prints the JSON value of READ and optionally saves a screenshot.

Usage: headless.py URL --until JS --read JS [--screenshot PNG] [--deadline SECONDS] [--size WxH] [--phone WxH]
                   [--hidden-tabs N --hidden-ready JS] [--responses JSON]
Exit status: 0 when UNTIL became true, 1 when the deadline passed (READ is printed all the same),
2 when chromium could not be started or answered nothing (or nothing within 10 s past the deadline).
"""
import argparse, base64, fcntl, json, os, select, shutil, subprocess, sys, tempfile, time

parser = argparse.ArgumentParser()
parser.add_argument("url")
parser.add_argument("--until", required=True)
parser.add_argument("--read", required=True)
parser.add_argument("--screenshot")
parser.add_argument("--deadline", type=float, default=60)
parser.add_argument("--size", default="1280x860")
# A phone's viewport (390x844, say), emulated: headless chromium's window is never narrower than 500.
parser.add_argument("--phone")
# Tabs of the URL opened first in the background (hidden), as a user's forgotten ones; each once
# the one before it is ready (HIDDEN_READY is true in it).
parser.add_argument("--hidden-tabs", type=int, default=0)
parser.add_argument("--hidden-ready", default="document.readyState === 'complete'")
# Writes every HTTP answer the page's tab got, [{"url": ..., "status": ...}], to this file: the
# browser's own requests (/favicon.ico) included, which the page's script cannot see.
parser.add_argument("--responses")
args = parser.parse_args()

browser = shutil.which("chromium")
if browser is None:
    print("chromium is missing: run make deps", file=sys.stderr)
    sys.exit(2)

profile = tempfile.mkdtemp(prefix="geotrack-chromium-")
to_chrome_read, to_chrome_write = os.pipe()
from_chrome_read, from_chrome_write = os.pipe()
# Above 10, so that moving them to 3 and 4 in the child cannot overwrite one with the other.
high_read = fcntl.fcntl(to_chrome_read, fcntl.F_DUPFD, 10)
high_write = fcntl.fcntl(from_chrome_write, fcntl.F_DUPFD, 10)
os.close(to_chrome_read)
os.close(from_chrome_write)


def child_fds():
    # The DevTools pipe: chromium reads commands on descriptor 3 and answers on 4.
    os.dup2(high_read, 3)
    os.dup2(high_write, 4)


width, height = args.size.split("x")
process = subprocess.Popen(
    [browser, "--headless", "--disable-gpu", "--no-sandbox", "--remote-debugging-pipe", "--user-data-dir=" + profile,
     "--no-first-run", "--hide-scrollbars", "--window-size=%s,%s" % (width, height), "--force-device-scale-factor=1",
     "about:blank"],
    preexec_fn=child_fds, pass_fds=(3, 4),
    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
os.close(high_read)
os.close(high_write)
pending = b""
next_id = 0
responses = []
deadline = time.monotonic() + args.deadline


def call(method, params=None, session=None):
    """Sends one command and returns its result, skipping the events that come meanwhile."""
    global next_id, pending
    next_id += 1
    message = {"id": next_id, "method": method, "params": params or {}}
    if session:
        message["sessionId"] = session
    os.write(to_chrome_write, json.dumps(message).encode() + b"\0")
    while True:
        while b"\0" not in pending:
            # A page that cannot load (no connection free for it) leaves an evaluation unanswered.
            if not select.select([from_chrome_read], [], [], max(0.0, deadline + 10 - time.monotonic()))[0]:
                raise RuntimeError("chromium answered nothing by the deadline")
            chunk = os.read(from_chrome_read, 1 << 20)
            if not chunk:
                raise RuntimeError("chromium closed the DevTools pipe")
            pending += chunk
        raw, pending = pending.split(b"\0", 1)
        answer = json.loads(raw)
        if answer.get("method") == "Network.responseReceived":
            response = answer["params"]["response"]
            responses.append({"url": response.get("url"), "status": response.get("status")})
        if answer.get("id") == next_id:
            if "error" in answer:
                raise RuntimeError("%s: %s" % (method, answer["error"]))
            return answer.get("result", {})


def send(method, params, session):
    """Sends one command without waiting for its answer (call skips it when it comes)."""
    global next_id
    next_id += 1
    os.write(to_chrome_write, json.dumps({"id": next_id, "method": method, "params": params, "sessionId": session}).encode() + b"\0")


def evaluate(expression, session):
    result = call("Runtime.evaluate", {"expression": expression, "returnByValue": True}, session)
    return result.get("result", {}).get("value")


status = 1
try:
    targets = call("Target.getTargets")["targetInfos"]
    page = next(t["targetId"] for t in targets if t["type"] == "page")
    session = call("Target.attachToTarget", {"targetId": page, "flatten": True})["sessionId"]
    call("Page.enable", session=session)
    if args.responses:
        call("Network.enable", session=session)
    if args.phone:
        phone_width, phone_height = args.phone.split("x")
        call("Emulation.setDeviceMetricsOverride",
             {"width": int(phone_width), "height": int(phone_height), "deviceScaleFactor": 1, "mobile": True}, session)
    for _ in range(args.hidden_tabs):
        hidden = call("Target.createTarget", {"url": args.url, "background": True})["targetId"]
        hidden_session = call("Target.attachToTarget", {"targetId": hidden, "flatten": True})["sessionId"]
        while evaluate(args.hidden_ready, hidden_session) is not True:
            if time.monotonic() > deadline:
                raise RuntimeError("a hidden tab never became ready")
            time.sleep(0.2)
    # Not waited for: the answer comes once the page starts loading, which may be never.
    send("Page.navigate", {"url": args.url}, session)
    while time.monotonic() < deadline:
        if evaluate(args.until, session) is True:
            status = 0
            break
        time.sleep(0.2)
    print(json.dumps(evaluate(args.read, session)))
    if args.screenshot:
        shot = call("Page.captureScreenshot", {"format": "png"}, session)
        with open(args.screenshot, "wb") as file:
            file.write(base64.b64decode(shot["data"]))
    if args.responses:
        with open(args.responses, "w") as file:
            json.dump(responses, file)
    try:
        call("Browser.close")
    except RuntimeError:
        pass
except (RuntimeError, StopIteration, OSError) as error:
    print("headless.py: %s" % error, file=sys.stderr)
    status = 2
finally:
    try:
        process.wait(timeout=5)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    shutil.rmtree(profile, ignore_errors=True)
sys.exit(status)
