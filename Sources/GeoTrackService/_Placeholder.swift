// Placeholder until the GeoTrackService module lands.
enum _GeoTrackServicePlaceholder {}
