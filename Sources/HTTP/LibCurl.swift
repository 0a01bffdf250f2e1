import CCurl

/// libcurl, opened the first time an HTTP client is made rather than at every start of the
/// program: only HTTP destinations need it (with OpenSSL behind it).
///
/// The table of functions lives for the rest of the process, as the library does.
struct LibCurl: @unchecked Sendable {
    // Written once by `load`, before any other thread can see it; read-only afterwards.
    let api: UnsafePointer<geotrack_curl>

    /// The library, or why it cannot be used; loaded once per process, on first use.
    static let shared: Result<LibCurl, HTTPError> = load(soname: GEOTRACK_CURL_SONAME)

    /// Opens `soname` and resolves every function GeoTrack calls.
    static func load(soname: String) -> Result<LibCurl, HTTPError> {
        let table = UnsafeMutablePointer<geotrack_curl>.allocate(capacity: 1)
        table.initialize(to: geotrack_curl())
        if let problem = geotrack_curl_load(table, soname) {
            table.deallocate()
            return .failure(HTTPError(.libraryMissing,
                "cannot load \(soname) (\(String(cString: problem))): install libcurl (Debian: apt install libcurl4)"))
        }
        return .success(LibCurl(api: UnsafePointer(table)))
    }

    /// libcurl's text for one of its codes.
    func describe(_ code: Int32) -> String {
        guard let text = api.pointee.easy_strerror?(CURLcode(UInt32(bitPattern: code))) else { return "error \(code)" }
        return String(cString: text)
    }
}
