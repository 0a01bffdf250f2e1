import Foundation
import GPSReports
import Testing
@testable import GeoTrackCLI

/// A `--gpsd` address that is refused says why, and how to write it.
@Suite("--gpsd reasons")
struct GPSDAddressTests {
    @Test("each malformed address gets its own reason", arguments: [
        ("127.0.0.1:99999", "the port must be from 1 to 65535 (got 99999)"),
        ("host:0", "the port must be from 1 to 65535 (got 0)"),
        ("host:-1", "the port must be from 1 to 65535 (got -1)"),
        ("host:x", "the port must be a number from 1 to 65535 (got 'x')"),
        ("host:", "the port after ':' is missing; give HOST:PORT, or HOST alone for port 2947"),
        ("", "the address is empty; give HOST, HOST:PORT, :PORT or [IPv6]:PORT"),
        (":", "the address is empty; give HOST, HOST:PORT, :PORT or [IPv6]:PORT"),
        ("[]", "the address is empty; give HOST, HOST:PORT, :PORT or [IPv6]:PORT"),
        ("[::1", "an IPv6 address needs its closing ']', as in [::1]:2947"),
        ("[::1]2947", "only ':PORT' may follow ']', as in [::1]:2947"),
        ("[::1]:http", "the port must be a number from 1 to 65535 (got 'http')"),
        ("a b:2947", "the host cannot contain spaces"),
        // An IPv6 host with its port and no brackets: the colons cannot tell them apart.
        ("::1:43909", "an IPv6 address with a port is written in brackets: [::1]:43909"),
        ("fe80::1:2:3:4:5:70000", "'fe80::1:2:3:4:5:70000' is no IPv6 address; write an IPv6 host in brackets, as in [::1]:2947"),
        // cgps's and gpspipe's SERVER:PORT:DEVICE.
        ("127.0.0.1:2947:/dev/ttyUSB0", "give the device with --device, not in the address: --gpsd 127.0.0.1:2947 --device /dev/ttyUSB0"),
        ("localhost::/dev/pts/1", "give the device with --device, not in the address: --gpsd localhost --device /dev/pts/1"),
        // gpsd's own URL for another gpsd.
        ("gpsd://127.0.0.1:47516", "write the address without 'gpsd://': --gpsd 127.0.0.1:47516"),
        ("GPSD://[::1]:2947/", "write the address without 'gpsd://': --gpsd [::1]:2947"),
        ("gpsd://boat.local:2947/dev/ttyUSB0", "write the address without 'gpsd://': --gpsd boat.local:2947 --device /dev/ttyUSB0"),
        ("gpsd://", "write the address without 'gpsd://': --gpsd localhost"),
    ])
    func reasons(text: String, reason: String) {
        #expect(throws: GPSDAddress.Invalid(description: reason)) { try GPSDAddress.parse(text) }
        #expect(GPSDAddress(argument: text) == nil)
    }

    @Test("the limits and the short forms are taken", arguments: [
        ("h:1", "h", 1), ("h:65535", "h", 65_535), (":2948", nil, 2_948), ("::1", "::1", nil), ("[::1]:2947", "::1", 2_947),
        ("fe80::1", "fe80::1", nil), ("::ffff:127.0.0.1", "::ffff:127.0.0.1", nil), ("fe80::1%eth0", "fe80::1%eth0", nil),
    ] as [(String, String?, Int?)])
    func accepted(text: String, host: String?, port: Int?) throws {
        let address = try GPSDAddress.parse(text)
        #expect(address.host == host && address.port == port)
    }

    @Test("geotrack exits 64 with one line naming the value and the reason", arguments: [
        (["watch", "--gpsd", "127.0.0.1:99999"], "the port must be from 1 to 65535 (got 99999)", "watch"),
        (["--gpsd", "127.0.0.1:x"], "the port must be a number from 1 to 65535 (got 'x')", "watch"),
        (["devices", "--gpsd", ":"], "the address is empty; give HOST, HOST:PORT, :PORT or [IPv6]:PORT", "devices"),
        (["devices", "--gpsd", "::1:43909"], "an IPv6 address with a port is written in brackets: [::1]:43909", "devices"),
        (["sky", "--gpsd", "gpsd:"], "the port after ':' is missing; give HOST:PORT, or HOST alone for port 2947", "sky"),
        (["watch", "--gpsd", "127.0.0.1:2947:/dev/ttyUSB0"],
         "give the device with --device, not in the address: --gpsd 127.0.0.1:2947 --device /dev/ttyUSB0", "watch"),
        (["devices", "--gpsd", "gpsd://127.0.0.1:47516"], "write the address without 'gpsd://': --gpsd 127.0.0.1:47516", "devices"),
    ])
    func commandLine(arguments: [String], reason: String, command: String) async throws {
        let run = try await TestSupport.geotrack(arguments, home: try TestSupport.temporaryDirectory())
        #expect(run.status == 64, "\(run.stderr)")
        let value = arguments[arguments.firstIndex(of: "--gpsd").map { $0 + 1 } ?? 0]
        // The help of the command that has --gpsd: watch's too when it is the default command.
        #expect(run.stderr == "geotrack: the value '\(value)' is invalid for '--gpsd <host:port>': \(reason); see 'geotrack \(command) --help'\n")
    }

    @Test("gpsd cannot be reached when no route leads to its host: 69, and what to check")
    func noRouteIsUnavailable() {
        let error = CLIError(SourceError.unreachable(host: "2001:db8::1", port: 2947, reason: "No route to host"))
        #expect(error.status == .unavailable)
        #expect(error.status.rawValue == 69)
        #expect(error.message == "cannot connect to gpsd at [2001:db8::1]:2947: No route to host. "
                + "Check the host, and that this machine's network reaches it.")
    }
}
