import CMosquitto

/// libmosquitto, opened the first time a client is made rather than at every start of the
/// program: only publishing and watching a fleet need it (with OpenSSL behind it).
///
/// The table of functions lives for the rest of the process, as the library does.
struct LibMosquitto: @unchecked Sendable {
    // Written once by `load`, before any other thread can see it; read-only afterwards.
    let api: UnsafePointer<geotrack_mosquitto>

    /// The library, or why it cannot be used; loaded once per process, on first use.
    static let shared: Result<LibMosquitto, MQTTError> = load(soname: GEOTRACK_MOSQUITTO_SONAME)

    /// Opens `soname` and resolves every function GeoTrack calls.
    static func load(soname: String) -> Result<LibMosquitto, MQTTError> {
        let table = UnsafeMutablePointer<geotrack_mosquitto>.allocate(capacity: 1)
        table.initialize(to: geotrack_mosquitto())
        if let problem = geotrack_mosquitto_load(table, soname) {
            table.deallocate()
            return .failure(MQTTError(.libraryMissing,
                "cannot load \(soname) (\(String(cString: problem))): install libmosquitto (Debian: apt install libmosquitto1)"))
        }
        return .success(LibMosquitto(api: UnsafePointer(table)))
    }

    /// libmosquitto's text for a return code.
    func describe(_ result: Int32) -> String {
        geotrack_mqtt_strerror(api, result).map { String(cString: $0) } ?? "error \(result)"
    }
}
