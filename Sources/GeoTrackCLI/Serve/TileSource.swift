/// Where the page's map tiles come from (`--tiles URL`): a Leaflet URL template, the origin the
/// page's Content-Security-Policy allows images from, and the attribution shown on the map.
package struct TileSource: Sendable, Equatable {
    /// The URL template, with `{z}`, `{x}` and `{y}` (and optionally `{s}`, `{r}`).
    package let template: String
    /// `scheme://host[:port]`, with `*` for a `{s}` subdomain.
    package let origin: String
    /// What the map credits.
    package let attribution: String

    /// OpenStreetMap's standard tiles, with the attribution their policy asks for.
    package static let openStreetMap = TileSource(
        template: "https://tile.openstreetmap.org/{z}/{x}/{y}.png", origin: "https://tile.openstreetmap.org",
        attribution: "© OpenStreetMap contributors")

    private init(template: String, origin: String, attribution: String) {
        self.template = template
        self.origin = origin
        self.attribution = attribution
    }

    /// The tiles `--tiles` names: nil for `none`; throws a one-line usage message for a value
    /// that is not an http(s) template with `{z}`, `{x}` and `{y}`.
    package static func parse(_ text: String) throws(TileSourceError) -> TileSource? {
        if text == "none" { return nil }
        let scheme: String
        if text.hasPrefix("https://") { scheme = "https://" } else if text.hasPrefix("http://") { scheme = "http://" } else {
            throw TileSourceError(text: text, reason: "it must start with http:// or https://")
        }
        // Nothing that could end the page's policy header or a quoted attribute.
        let forbidden: Set<Character> = [" ", "\t", "\"", "'", ";", ",", "<", ">", "\\", "`"]
        guard !text.contains(where: { forbidden.contains($0) || $0.isNewline || $0.asciiValue.map { $0 < 0x20 || $0 == 0x7F } == true }) else {
            throw TileSourceError(text: text, reason: "it has a space, quote, comma, semicolon or control character")
        }
        // The origin goes into the policy header, whose value must be ASCII; a browser asks for
        // an internationalised host by its xn-- name, which the policy must name too.
        guard text.allSatisfy(\.isASCII) else {
            throw TileSourceError(text: text, reason: "it is not ASCII: write the host's xn-- form and percent-encode the path")
        }
        for placeholder in ["{z}", "{x}", "{y}"] where !text.contains(placeholder) {
            throw TileSourceError(text: text, reason: "it has no \(placeholder)")
        }
        let rest = text.dropFirst(scheme.count)
        let authority = String(rest.prefix { $0 != "/" })
        guard !authority.isEmpty, rest.count > authority.count else {
            throw TileSourceError(text: text, reason: "it has no host and path")
        }
        var host = authority
        if host.hasPrefix("{s}.") { host = "*." + host.dropFirst(4) }
        guard !host.contains("{"), !host.contains("}"), !host.contains("@") else {
            throw TileSourceError(text: text, reason: "only {s}. may stand before the host's name")
        }
        let origin = scheme + host
        return TileSource(template: text, origin: origin, attribution: "tiles from " + authority.replacing("{s}.", with: ""))
    }
}

/// A `--tiles` value refused.
package struct TileSourceError: Error, Sendable {
    /// The value given.
    package let text: String
    /// Why it was refused.
    package let reason: String

    /// The one-line message.
    package var message: String {
        "--tiles takes none or a tile URL such as https://tile.openstreetmap.org/{z}/{x}/{y}.png; \(reason)"
    }
}
