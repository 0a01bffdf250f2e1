#!/usr/bin/env python3
"""Writes Tests/NMEATests/Logs/highrate-rtk.nmea: an RTK rover at 5 Hz, then 10 Hz, made up for tests.

Fixes a fraction of a second apart, with heights to a tenth of a millimetre that change by
amounts whose climb lies on the third decimal's rounding boundary (0.0005 m in 0.2 s is
0.0025 m/s): gpsd computes the time between fixes from whole seconds and nanoseconds, and a
difference of the times as doubles rounds some of those climbs the other way. RTK fixed and
float (GGA quality 4 and 5), with a correction age and station. highrate-rtk.tpv.jsonl beside it
is `gpsdecode < highrate-rtk.nmea` from gpsd 3.22.
usage: scripts/make-highrate-log.py > Tests/NMEATests/Logs/highrate-rtk.nmea
"""

from nmealog import sentence

def minutes(value, width):
    degrees = int(value)
    return "%0*d%011.8f" % (width, degrees, (value - degrees) * 60)


# Height steps in tenths of a millimetre, taken in turn: on and beside rounding boundaries.
STEPS = [5, -5, 15, 25, 3, -21, 5, 5, -15, 45, -5, 35, 0, 7, -25]

out = ["# Name: highrate-rtk (synthetic)\r\n", "# Made by scripts/make-highrate-log.py for GeoTrack's tests\r\n", "#\r\n"]
height = 5454123  # tenths of a millimetre: 545.4123 m
latitude, longitude = 48.1173020571, 11.5166687241
tick = 0  # hundredths of a second past 12:00:00
for index in range(90):
    rate = 5 if index < 50 else 10
    seconds, hundredths = divmod(tick, 100)
    time = "1200%02d.%02d" % (seconds, hundredths)
    quality = 4 if index % 30 < 20 else 5
    latitude += 0.00000001 * (index % 3)
    longitude += 0.00000002 * (index % 2)
    out.append(sentence("$GNRMC,%s,A,%s,N,%s,E,0.010,,010624,,,%s,V" % (time, minutes(latitude, 2), minutes(longitude, 3),
                                                                         "R" if quality == 4 else "F")))
    out.append(sentence("$GNGGA,%s,%s,N,%s,E,%d,13,0.6,%d.%04d,M,47.123,M,1.0,0123" % (time, minutes(latitude, 2), minutes(longitude, 3),
                                                                                      quality, height // 10000, height % 10000)))
    out.append(sentence("$GNGSA,A,3,02,05,12,15,18,24,,,,,,,1.0,0.6,0.8,1"))
    height += STEPS[index % len(STEPS)]
    tick += 100 // rate
out.append("")
print("".join(out), end="")
