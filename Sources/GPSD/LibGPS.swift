import CGPS
import GPSReports

/// libgps's JSON parser, `gps_unpack()`, opened when the first connection to gpsd is made rather
/// than at every start of the program: only the commands that talk to gpsd need it.
///
/// Unchecked: what it holds is the address of a function in a library that stays loaded, set
/// once and only ever called.
struct LibGPS: @unchecked Sendable {
    /// The parser GeoTrack calls for every line (through `geotrack_unpack`, which knows its
    /// signature).
    let unpack: geotrack_json_unpack

    /// The library, or why it cannot be used; loaded once per process, on first use.
    static let shared: Result<LibGPS, SourceError> = load(soname: String(cString: geotrack_libgps_soname()))

    /// Opens `soname`, the libgps of the gps.h geotrack was built with, and finds the parser;
    /// no other libgps stands in for it.
    static func load(soname: String) -> Result<LibGPS, SourceError> {
        var unpack: geotrack_json_unpack?
        if let problem = geotrack_libgps_load(soname, &unpack) {
            // Debian's and Ubuntu's package for libgps.so.28 is libgps28.
            let package = soname.hasPrefix("libgps.so.") ? "libgps" + soname.dropFirst("libgps.so.".count) : "libgps-dev"
            return .failure(SourceError(.libraryMissing, message:
                "cannot load \(soname) (\(String(cString: problem))): install gpsd's client library (Debian: apt install \(package))"))
        }
        guard let unpack else {
            return .failure(SourceError(.libraryMissing, message: "cannot load \(soname): it has no gps_unpack"))
        }
        return .success(LibGPS(unpack: unpack))
    }
}
