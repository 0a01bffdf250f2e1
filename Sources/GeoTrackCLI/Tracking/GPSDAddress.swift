import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif

/// `HOST:PORT`, `HOST`, `:PORT` or `[IPv6]:PORT`, as `--gpsd` takes it.
package struct GPSDAddress: Sendable, Equatable, ExpressibleByArgument {
    /// The host, when given.
    package var host: String?
    /// The port, when given.
    package var port: Int?

    /// Why an address was refused, in words that say how to write it instead.
    package struct Invalid: Error, Sendable, Equatable, CustomStringConvertible {
        /// What is wrong with the address.
        package var description: String
    }

    /// Parses an address; nil for one ``parse(_:)`` refuses.
    package init?(argument: String) {
        guard let address = try? Self.parse(argument) else { return nil }
        self = address
    }

    private init(host: String?, port: Int?) {
        self.host = host
        self.port = port
    }

    /// Parses an address, or says what is wrong with it: an empty one, a port that is not a
    /// number from 1 to 65535, an unclosed `[`, a host with spaces.
    ///
    /// ArgumentParser puts the reason after its "The value '…' is invalid for '--gpsd'".
    package static func parse(_ argument: String) throws(Invalid) -> GPSDAddress {
        // gpsd names another gpsd as gpsd://HOST:PORT[/DEVICE] (its -D sources); its clients,
        // and geotrack, take the address bare.
        if argument.lowercased().hasPrefix("gpsd://") {
            let rest = argument.dropFirst("gpsd://".count)
            let address = rest.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
            let host = address.first.map(String.init) ?? ""
            let device = address.count > 1 && !address[1].isEmpty ? " --device /\(address[1])" : ""
            throw Invalid(description: "write the address without 'gpsd://': --gpsd \(host.isEmpty ? "localhost" : host)\(device)")
        }
        // gpsd's own clients (cgps, gpspipe, gpsmon) take SERVER:PORT:DEVICE; a host name or an
        // IPv6 address has no '/', so this is that form: say where the device goes instead of
        // trying a host named "127.0.0.1:2947:/dev/ttyUSB0".
        if !argument.hasPrefix("["), let slash = argument.firstIndex(of: "/"),
           let colon = argument[..<slash].lastIndex(of: ":") {
            let device = argument[argument.index(after: colon)...]
            var address = argument[..<colon]
            while address.hasSuffix(":") { address = address.dropLast() }
            throw Invalid(description: "give the device with --device, not in the address: --gpsd \(address.isEmpty ? "localhost" : address) --device \(device)")
        }
        var hostPart = Substring(argument)
        var portPart: Substring?
        if argument.hasPrefix("[") {
            guard let close = argument.firstIndex(of: "]") else {
                throw Invalid(description: "an IPv6 address needs its closing ']', as in [::1]:2947")
            }
            hostPart = argument[argument.index(after: argument.startIndex)..<close]
            let rest = argument[argument.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else {
                    throw Invalid(description: "only ':PORT' may follow ']', as in [::1]:2947")
                }
                portPart = rest.dropFirst()
            }
        } else if let colon = argument.lastIndex(of: ":"), argument.firstIndex(of: ":") == colon {
            // One colon separates host and port; more than one, unbracketed, is an IPv6 host.
            hostPart = argument[..<colon]
            portPart = argument[argument.index(after: colon)...]
        }
        if hostPart.isEmpty, portPart?.isEmpty ?? true {
            throw Invalid(description: "the address is empty; give HOST, HOST:PORT, :PORT or [IPv6]:PORT")
        }
        var port: Int?
        if let portPart {
            guard !portPart.isEmpty else {
                throw Invalid(description: "the port after ':' is missing; give HOST:PORT, or HOST alone for port 2947")
            }
            guard let number = Int(portPart) else {
                throw Invalid(description: "the port must be a number from 1 to 65535 (got '\(portPart)')")
            }
            guard (1...65_535).contains(number) else {
                throw Invalid(description: "the port must be from 1 to 65535 (got \(number))")
            }
            port = number
        }
        let host = hostPart.isEmpty ? nil : String(hostPart)
        if let host, host.contains(where: \.isWhitespace) {
            throw Invalid(description: "the host cannot contain spaces")
        }
        // Colons make an unbracketed IPv6 host; one that is no IPv6 address was most often
        // written with its port after it (::1:2948), which only brackets tell apart.
        if let host, portPart == nil, host.contains(":"), !Self.isIPv6(host) {
            if let colon = host.lastIndex(of: ":"), let port = Int(host[host.index(after: colon)...]),
               (1...65_535).contains(port), Self.isIPv6(String(host[..<colon])) {
                throw Invalid(description: "an IPv6 address with a port is written in brackets: [\(host[..<colon])]:\(port)")
            }
            throw Invalid(description: "'\(host)' is no IPv6 address; write an IPv6 host in brackets, as in [::1]:2947")
        }
        return GPSDAddress(host: host, port: port)
    }

    /// Whether `text` is an IPv6 address as the resolver takes it (inet_pton), with or without
    /// a zone (`fe80::1%eth0`).
    static func isIPv6(_ text: String) -> Bool {
        var address = in6_addr()
        let bare = text.split(separator: "%", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? text
        return inet_pton(AF_INET6, bare, &address) == 1
    }

    package static var defaultCompletionKind: CompletionKind { .default }
}
