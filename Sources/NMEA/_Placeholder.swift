// Placeholder until the NMEA module lands.
enum _NMEAPlaceholder {}
