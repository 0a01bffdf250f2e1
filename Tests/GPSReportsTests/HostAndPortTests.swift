import GPSReports
import Testing

/// gpsd's address as messages show it.
@Suite struct HostAndPortTests {
    @Test("an IPv6 address is bracketed, so its colons do not read as the port's; names and IPv4 are not")
    func bracketsIPv6() {
        #expect(HostAndPort.text("::1", 2947) == "[::1]:2947")
        #expect(HostAndPort.text("fe80::1%eth0", 2947) == "[fe80::1%eth0]:2947")
        #expect(HostAndPort.text("localhost", 2947) == "localhost:2947")
        #expect(HostAndPort.text("127.0.0.1", 29470) == "127.0.0.1:29470")
        #expect(SourceError.connectionRefused(host: "::1", port: 9).message == "cannot connect to gpsd at [::1]:9: connection refused")
        #expect(SourceError.connectionRefused(host: "::1", port: 9).address == "[::1]:9")
    }
}
