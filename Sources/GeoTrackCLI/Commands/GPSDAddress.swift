import ArgumentParser

/// `HOST:PORT`, `HOST`, `:PORT` or `[IPv6]:PORT`, as `--gpsd` takes it.
package struct GPSDAddress: Sendable, Equatable, ExpressibleByArgument {
    /// The host, when given.
    package var host: String?
    /// The port, when given.
    package var port: Int?

    /// Parses an address; nil (a usage error) for an empty host with no port, or a bad port.
    package init?(argument: String) {
        var hostPart = Substring(argument)
        var portPart: Substring?
        if argument.hasPrefix("[") {
            guard let close = argument.firstIndex(of: "]") else { return nil }
            hostPart = argument[argument.index(after: argument.startIndex)..<close]
            let rest = argument[argument.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { return nil }
                portPart = rest.dropFirst()
            }
        } else if let colon = argument.lastIndex(of: ":"), argument.firstIndex(of: ":") == colon {
            hostPart = argument[..<colon]
            portPart = argument[argument.index(after: colon)...]
        }
        if let portPart {
            guard let port = Int(portPart), (1...65_535).contains(port) else { return nil }
            self.port = port
        }
        host = hostPart.isEmpty ? nil : String(hostPart)
        if host == nil && port == nil { return nil }
        if let host, host.contains(where: \.isWhitespace) { return nil }
    }

    package static var defaultCompletionKind: CompletionKind { .default }
}
