#!/usr/bin/env python3
"""The length of a track along the WGS 84 ellipsoid, by GeographicLib (Karney's geodesics): an
oracle for `geotrack stats`, independent of its code.

Usage: geodesic_length.py FILE
- FILE ending in .tpv.jsonl: gpsd's own TPV objects (the corpus's answers); the positions are
  the TPVs with mode 2 or 3, a time, a latitude and a longitude.
- FILE ending in .gpx: the track points' lat and lon attributes, in order.
Prints the number of points and the length in metres.
"""
import json
import re
import sys

from geographiclib.geodesic import Geodesic


def points(path):
    if path.endswith(".gpx"):
        text = open(path, encoding="utf-8").read()
        return [(float(lat), float(lon)) for lat, lon in re.findall(r'<trkpt lat="([^"]+)" lon="([^"]+)"', text)]
    found = []
    for line in open(path, encoding="utf-8"):
        if line.startswith("#") or not line.strip():
            continue
        tpv = json.loads(line)
        if tpv.get("class") == "TPV" and tpv.get("mode", 0) >= 2 and "time" in tpv and "lat" in tpv and "lon" in tpv:
            found.append((tpv["lat"], tpv["lon"]))
    return found


track = points(sys.argv[1])
length = sum(Geodesic.WGS84.Inverse(a[0], a[1], b[0], b[1])["s12"] for a, b in zip(track, track[1:]))
print(len(track), f"{length:.6f}")
