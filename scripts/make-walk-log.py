#!/usr/bin/env python3
"""Writes Tests/GeoTrackCLITests/Logs/walk.nmea: a synthetic ride for the event tests.

East along latitude 51.5 N at 16 m/s from x = -800 m, into a 30 m region centred at
x = 10 m, a 16 s stay at x = 0 (a visit with a dwell of 8 s), then on east out of the
region and away. One RMC, GGA and GSA per second (HDOP 0.5, so gpsd's eph is 9.5 m).

Moving, consecutive fixes are 16 m apart, more than the visit radius of 15 m: every fix
starts a new cluster, so the stay begins at its own first fix however late a client
joined, and a live client and a replay find the same visit.
"""
import math, sys

LAT0, LON0 = 51.5, -0.12
M_PER_DEG_LON = 111_320 * math.cos(math.radians(LAT0))

def x_at(t):
    if t < 50: return 16 * (t - 50)
    if t <= 65: return 0.4 if t % 2 else -0.4
    return 16 * (t - 65)

def ddm(value, positive, negative, width):
    hemisphere = positive if value >= 0 else negative
    value = abs(value)
    degrees = int(value)
    minutes = (value - degrees) * 60
    return f"{degrees:0{width}d}{minutes:07.4f}", hemisphere

def sentence(body):
    checksum = 0
    for ch in body:
        checksum ^= ord(ch)
    return f"${body}*{checksum:02X}"

lines = ["# Synthetic ride for GeoTrack's event tests (scripts/make-walk-log.py): 16 m/s east,",
         "# a 16 s stay inside a 30 m region, then away. Generated, not recorded."]
for t in range(111):
    x = x_at(t)
    speed = 0.0 if 50 <= t <= 65 else 16.0
    lat, ns = ddm(LAT0, "N", "S", 2)
    lon, ew = ddm(LON0 + x / M_PER_DEG_LON, "E", "W", 3)
    hh, mm, ss = 12, (t // 60), t % 60
    hms = f"{hh:02d}{mm:02d}{ss:02d}.00"
    knots = speed / 0.514444
    lines.append(sentence(f"GPRMC,{hms},A,{lat},{ns},{lon},{ew},{knots:.2f},90.0,180624,,,A"))
    lines.append(sentence(f"GPGGA,{hms},{lat},{ns},{lon},{ew},1,08,0.5,20.0,M,47.0,M,,"))
    lines.append(sentence("GPGSA,A,3,01,02,03,04,05,06,07,08,,,,,1.0,0.5,0.9"))
sys.stdout.write("\r\n".join(lines) + "\r\n")
