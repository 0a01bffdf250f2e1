#!/usr/bin/env python3
"""Writes Tests/GeoTrackCLITests/Logs/loop.nmea: a synthetic bicycle ride for the track picture.

About 16 minutes around a 4 km loop near 46.2 N 6.15 E, one fix every 2 s: it starts slowly,
speeds up on the long straights (up to 11 m/s), slows in the bends and on the climb to the
far end (40 m up), stops 6 minutes at a cafe (with a metre of noise), and comes back down to
near its start. One RMC and one GGA per fix. Generated, not recorded.
"""
import math
import sys

LAT0, LON0 = 46.2, 6.15
M_PER_DEG_LAT = 111_132.0
M_PER_DEG_LON = 111_320 * math.cos(math.radians(LAT0))


def sentence(body):
    checksum = 0
    for ch in body:
        checksum ^= ord(ch)
    return f"${body}*{checksum:02X}"


def ddm(value, positive, negative, width):
    hemisphere = positive if value >= 0 else negative
    value = abs(value)
    degrees = int(value)
    minutes = (value - degrees) * 60
    return f"{degrees:0{width}d}{minutes:07.4f}", hemisphere


def point(s):
    """The loop at arc parameter s in [0, 1): a wobbly ellipse, 1.6 km by 0.9 km."""
    a = 2 * math.pi * s
    x = 800 * math.sin(a) + 60 * math.sin(3 * a)
    y = -450 * math.cos(a) + 450 + 40 * math.sin(5 * a)
    return x, y


lines = ["# Synthetic bicycle ride for GeoTrack's track picture (scripts/make-loop-log.py): a 4 km",
         "# loop with a climb and a 6-minute stop. Generated, not recorded."]
s, t, stop_left, stopped_once = 0.0, 0, 0, False
x, y = point(0)
while s < 0.97:
    # Speed along the loop: slow start, fast straights, slower bends and climb.
    a = 2 * math.pi * s
    speed = min(11.0, 2 + t * 0.05) * (0.65 + 0.35 * abs(math.cos(2 * a))) * (0.7 if 0.3 < s < 0.5 else 1.0)
    if not stopped_once and s > 0.55:
        stopped_once, stop_left = True, 180
    if stop_left > 0:
        stop_left -= 1
        speed = 0.0
        nx, ny = x + (0.5 if t % 4 else -0.5), y
    else:
        # Advance s until the point is `speed * 2` metres on.
        step = 0.0
        while step < speed * 2 and s < 0.97:
            s += 0.00005
            nx, ny = point(s)
            step = math.hypot(nx - x, ny - y)
    course = (math.degrees(math.atan2(nx - x, ny - y)) + 360) % 360
    x, y = nx, ny
    altitude = 380 + 40 * math.sin(math.pi * min(max(s, 0), 1)) ** 2
    lat, ns = ddm(LAT0 + y / M_PER_DEG_LAT, "N", "S", 2)
    lon, ew = ddm(LON0 + x / M_PER_DEG_LON, "E", "W", 3)
    seconds = 2 * t
    hms = f"{9 + seconds // 3600:02d}{seconds // 60 % 60:02d}{seconds % 60:02d}.00"
    lines.append(sentence(f"GPRMC,{hms},A,{lat},{ns},{lon},{ew},{speed / 0.514444:.2f},{course:.1f},120925,,,A"))
    lines.append(sentence(f"GPGGA,{hms},{lat},{ns},{lon},{ew},1,09,0.8,{altitude:.1f},M,47.9,M,,"))
    t += 1
sys.stdout.write("\r\n".join(lines) + "\r\n")
