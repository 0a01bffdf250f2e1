"""What the scripts that write made-up NMEA logs for GeoTrack's tests share."""


def sentence(body):
    """`body` ($ and the fields) with its checksum and the line end NMEA 0183 gives it."""
    checksum = 0
    for ch in body[1:]:
        checksum ^= ord(ch)
    return "%s*%02X\r\n" % (body, checksum)
