#if canImport(Glibc)
import Glibc
#endif

/// Where `geotrack serve` listens (`--listen HOST:PORT`, `[IPv6]:PORT`).
package struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
    /// The host or address, without brackets.
    package let host: String
    /// The port; 0 takes any free one (the address served is printed).
    package let port: Int

    /// The default: loopback, port 8080.
    package static let standard = ListenAddress(host: "127.0.0.1", port: 8080)

    /// An address as given: a host (or an address without brackets) and a port.
    package init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Parses `HOST:PORT` or `[ADDRESS]:PORT`, saying in one line what is wrong.
    package static func parse(_ text: String) throws(ListenAddressError) -> ListenAddress {
        let host: Substring
        let portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                throw ListenAddressError(text: text)
            }
            host = text[text.index(after: text.startIndex)..<close]
            portText = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":"), !text[..<colon].contains(":") else { throw ListenAddressError(text: text) }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        guard !host.isEmpty, host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || ".-:_%".contains($0)) }),
              portText.count <= 5, portText.allSatisfy(\.isASCII), let port = Int(portText), (0...65_535).contains(port) else {
            throw ListenAddressError(text: text)
        }
        return ListenAddress(host: String(host), port: port)
    }

    /// Whether only this machine can connect: localhost, 127.0.0.0/8 or ::1.
    package var isLoopback: Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    /// Whether this is the address of every interface (`0.0.0.0`, `::` or another spelling of
    /// either), which a server binds to but a browser cannot open.
    package var isWildcard: Bool {
        var v4 = in_addr(), v6 = in6_addr()
        if inet_pton(AF_INET, host, &v4) == 1 { return v4.s_addr == 0 }
        if inet_pton(AF_INET6, host, &v6) == 1 {
            return withUnsafeBytes(of: &v6) { $0.allSatisfy { $0 == 0 } }
        }
        return false
    }

    /// The URL a browser opens, for `port`: for every interface, this machine's loopback of the
    /// same family (`127.0.0.1`, `[::1]`), which the wildcard includes.
    package func url(port: Int) -> String {
        let shown = isWildcard ? (host.contains(":") ? "::1" : "127.0.0.1") : host
        return "http://" + (shown.contains(":") ? "[\(shown)]" : shown) + ":\(port)/"
    }

    /// `HOST:PORT`, an IPv6 address in brackets.
    package var description: String {
        (host.contains(":") ? "[\(host)]" : host) + ":\(port)"
    }
}

/// A `--listen` value refused.
package struct ListenAddressError: Error, Sendable {
    /// The value given.
    package let text: String

    /// The one-line message.
    package var message: String {
        "--listen takes HOST:PORT or [ADDRESS]:PORT with a port from 0 to 65535, such as 127.0.0.1:8080"
    }
}
