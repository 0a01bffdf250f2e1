// One import for a program that tracks from gpsd or a replay: the manager and its delegate,
// the report types, the gpsd client, the NMEA/GPX replay, and the service with its Drivers.
@_exported import GPSD
@_exported import GPSReports
@_exported import GeoTrackService
@_exported import LocationKit
@_exported import NMEA
@_exported import GeoTrackReactive
