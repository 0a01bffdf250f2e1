#!/usr/bin/env python3
"""Writes Tests/NMEATests/Logs/marine-mix.nmea: a boat's talkers on one wire, made up for tests.

A GPS (RMC, GGA, GSA, GSV, HDT), a magnetic compass (HDG), an echo sounder (DBT in metres, feet or fathoms; DPT, which
gpsd 3.22 ignores), wind instruments (MWV, MWD), a log (VHW), an AIS receiver (!AIVDM) and a
sentence nobody decodes (XTE). gpsd 3.22 reports a TPV for nearly every sentence once a DBT has
been seen; marine-mix.tpv.jsonl beside it is `gpsdecode < marine-mix.nmea` from gpsd 3.22.
usage: scripts/make-marine-log.py > Tests/NMEATests/Logs/marine-mix.nmea
"""

from nmealog import sentence

out = ["# Name: marine-mix (synthetic)\r\n", "# Made by scripts/make-marine-log.py for GeoTrack's tests\r\n", "#\r\n"]
for i in range(8):
    t = "1200%02d" % i
    out.append(sentence("$GPRMC,%s.00,A,5000.%04d,N,00800.0000,E,5.0,90.0,010120,,,A" % (t, i * 10)))
    out.append(sentence("$IIMWV,%05.1f,R,10.5,N,A" % (40 + i)))
    if i % 2 == 0:
        # A magnetic compass: gpsd 3.22 prints its reading as the TPV's magtrack.
        out.append(sentence("$HCHDG,%05.1f,2.0,E,1.5,W" % (85 + i)))
    out.append(sentence("$GPGGA,%s.00,5000.%04d,N,00800.0000,E,1,05,1.0,100.0,M,47.0,M,," % (t, i * 10)))
    out.append(sentence("$GPGSA,A,3,01,02,03,04,05,,,,,,,,2.0,1.0,1.7"))
    out.append(sentence("$GPGSV,2,1,05,01,40,083,46,02,17,308,41,03,07,344,39,04,22,228,45"))
    out.append(sentence("$GPGSV,2,2,05,05,60,010,44"))
    if i >= 2:
        # The sounder in metres, then feet only, then fathoms only.
        if i % 3 == 2:
            out.append(sentence("$SDDBT,%0.1f,f,%0.1f,M,1.3,F" % (7.7 + i, 2.3 + i)))
        elif i % 3 == 0:
            out.append(sentence("$SDDBT,%0.1f,f,,M,,F" % (7.7 + i)))
        else:
            out.append(sentence("$SDDBT,,f,,M,%0.1f,F" % (1.3 + i)))
    out.append(sentence("$IIVHW,,,,,5.0,N,9.3,K"))
    out.append(sentence("$SDDPT,2.3,0.5"))
    out.append(sentence("!AIVDM,1,1,,A,13aEOK?P00PD2wVMdLDRhgvL289?,0"))
    out.append(sentence("$GPHDT,90.0,T"))
    if i % 2:
        out.append(sentence("$WIMWD,270.0,T,268.0,M,12.0,N,6.2,M"))
    out.append(sentence("$GPXTE,A,A,0.67,L,N"))
print("".join(out), end="")
