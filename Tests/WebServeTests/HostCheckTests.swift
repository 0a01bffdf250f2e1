import Testing
@testable import WebServe

@Suite("Host header check")
struct HostCheckTests {
    @Test("addresses, localhost and the names given are answered, whatever the port or case; other names, and headers that name no host, are not")
    func allowsAndRefuses() {
        let check = HostCheck(allowing: ["pi", "Pi.local", "gps.example.org."])
        for header in [nil, "127.0.0.1", "127.0.0.1:8080", "192.168.1.20:80", "[::1]:8080", "[fe80::1]", "localhost",
                       "LOCALHOST:8080", "app.localhost", "pi", "PI:8080", "pi.local", "gps.example.org", "gps.example.org.:443",
                       " localhost:8080 "] {
            #expect(check.allows(header), "\(String(describing: header))")
        }
        for header in ["", "evil.example", "evil.example:8080", "localhost.evil.example", "pi.evil.example", "127.0.0.1.evil.example",
                       "[::1", "[::1]x", "[not-v6]:80", "localhost:80:80", "localhost:http", "127.0.0.1:8080@evil.example", ":8080",
                       "999.1.1.1"] {
            #expect(!check.allows(header), "\(header)")
        }
    }
}
