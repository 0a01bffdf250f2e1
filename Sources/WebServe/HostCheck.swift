#if canImport(Glibc)
import Glibc
#endif

/// Which `Host` headers a server answers: its defence against DNS rebinding, where a web page
/// of another site has its own name resolve to this machine and then reads the answers as
/// its own (same origin to the browser, which sends that site's name as `Host`).
///
/// Answered: a request without `Host` (no browser sends one), an IP address literal (a
/// rebinding page cannot make the browser send one for its name), `localhost` and names under
/// `.localhost`, and the names given (the machine's own, a reverse proxy's). Names compare
/// without case and without a trailing dot; the port is not compared.
public struct HostCheck: Sendable {
    private let names: Set<String>

    /// A check that also answers `names`.
    public init(allowing names: some Sequence<String> = []) {
        self.names = Set(names.map(Self.normalized))
    }

    /// Whether a request with this `Host` header (nil: none) is answered.
    public func allows(_ header: String?) -> Bool {
        guard let header else { return true }
        guard let host = Self.host(of: header) else { return false }
        if host.hasPrefix("[") {
            // An IPv6 literal: only a well-formed one.
            var address = in6_addr()
            return inet_pton(AF_INET6, String(host.dropFirst().dropLast()), &address) == 1
        }
        var address = in_addr()
        if inet_pton(AF_INET, host, &address) == 1 { return true }
        let name = Self.normalized(host)
        return name == "localhost" || name.hasSuffix(".localhost") || names.contains(name)
    }

    /// The host part of a `Host` header: `[v6]` kept bracketed, the port and surrounding spaces
    /// dropped; nil for a header that names no host.
    static func host(of header: String) -> String? {
        let value = header.trimmingSpaces()
        guard !value.isEmpty else { return nil }
        if value.hasPrefix("[") {
            guard let end = value.firstIndex(of: "]") else { return nil }
            let rest = value[value.index(after: end)...]
            guard rest.isEmpty || (rest.first == ":" && rest.dropFirst().allSatisfy(\.isASCIIDigit)) else { return nil }
            return String(value[...end])
        }
        let parts = value.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 2, let first = parts.first, !first.isEmpty else { return nil }
        if parts.count == 2, !parts[1].allSatisfy(\.isASCIIDigit) { return nil }
        return String(first)
    }

    private static func normalized(_ name: String) -> String {
        var name = name.lowercased()
        while name.hasSuffix(".") { name.removeLast() }
        return name
    }
}

extension String {
    fileprivate func trimmingSpaces() -> Substring {
        var slice = self[...]
        while slice.first == " " || slice.first == "\t" { slice = slice.dropFirst() }
        while slice.last == " " || slice.last == "\t" { slice = slice.dropLast() }
        return slice
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
