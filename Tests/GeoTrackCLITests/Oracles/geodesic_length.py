#!/usr/bin/env python3
"""The distance `geotrack stats` documents, computed independently of its code: geodesics by
GeographicLib (Karney's), the rules written again here from the documentation.

Usage: geodesic_length.py FILE
- FILE ending in .tpv.jsonl: gpsd's own TPV objects (the corpus's answers); the positions are
  the TPVs with mode 2 or 3, a time, a latitude and a longitude, and of several in a row with
  one time the last (gpsd reports a cycle again as more of its sentences arrive; what it
  finally said of that time is the point, as in the GPX track).
- FILE ending in .gpx: the track points, with their time and the speed and course extensions.
Prints the number of points, the length of every forward step, and the distance by the rules:
the sum over moving intervals (forward, at most 300 s, the receiver's reported speeds at the
ends averaging 0.5 m/s or more, else a step at 0.5 m/s or more longer than the positions' error),
each at most the higher reported speed times the interval. A reported speed is one with a course.
Stops are not modelled: the tests give it tracks without one.
"""
import json
import re
import sys
from datetime import datetime

from geographiclib.geodesic import Geodesic

MOVING = 0.5
GAP = 300.0


def seconds(text):
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def points(path):
    """(lat, lon, time, reported speed or None, horizontal error or None) per position."""
    if path.endswith(".gpx"):
        text = open(path, encoding="utf-8").read()
        found = []
        for body in re.findall(r"<trkpt (.*?)</trkpt>", text, re.S):
            lat, lon = re.search(r'lat="([^"]+)" lon="([^"]+)"', body).groups()
            time = re.search(r"<time>([^<]+)</time>", body).group(1)
            speed = re.search(r"<gpxtpx:speed>([^<]+)</gpxtpx:speed>", body)
            course = re.search(r"<gpxtpx:course>([^<]+)</gpxtpx:course>", body)
            reported = float(speed.group(1)) if speed and course else None
            found.append((float(lat), float(lon), seconds(time), reported, None))
        return found
    found = []
    for line in open(path, encoding="utf-8"):
        if line.startswith("#") or not line.strip():
            continue
        tpv = json.loads(line)
        if tpv.get("class") == "TPV" and tpv.get("mode", 0) >= 2 and "time" in tpv and "lat" in tpv and "lon" in tpv:
            reported = tpv.get("speed") if "track" in tpv else None
            point = (tpv["lat"], tpv["lon"], seconds(tpv["time"]), reported, tpv.get("eph"))
            if found and found[-1][2] == point[2]:
                found[-1] = point
            else:
                found.append(point)
    return found


track = points(sys.argv[1])
length = 0.0
distance = 0.0
for a, b in zip(track, track[1:]):
    step = Geodesic.WGS84.Inverse(a[0], a[1], b[0], b[1])["s12"]
    dt = b[2] - a[2]
    if dt <= 0:
        continue
    length += step
    if dt > GAP:
        continue
    reported = [s for s in (a[3], b[3]) if s is not None]
    if reported:
        if sum(reported) / len(reported) >= MOVING:
            distance += min(step, max(reported) * dt)
    elif step / dt >= MOVING and step > max(a[4] or 0, b[4] or 0):
        distance += step
print(len(track), f"{length:.6f}", f"{distance:.6f}")
