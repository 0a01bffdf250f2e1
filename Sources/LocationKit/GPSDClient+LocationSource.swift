import GPSD

/// gpsd is the production location source: each ``GPSDClient/events()`` call is a fresh
/// session that reconnects by itself and ends when the consuming task is cancelled.
extension GPSDClient: LocationSource {}
