// Placeholder until the GPSD module lands.
enum _GPSDPlaceholder {}
