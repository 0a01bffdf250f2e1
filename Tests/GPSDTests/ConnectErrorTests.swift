@testable import GPSD
import GPSReports
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// What a failed connect to gpsd becomes: the kernel's reason, typed, so that the command can
/// tell "cannot be reached" from a failure midway.
struct ConnectErrorTests {
    @Test("no route to the host or its network is 'unreachable', with the system's reason, never a read or write failure",
          arguments: [EHOSTUNREACH, ENETUNREACH, EHOSTDOWN, ENETDOWN])
    func noRoute(code: Int32) {
        let error = GPSDConnection.connectError(code: code, host: "2001:db8::1", port: 2947)
        #expect(error.code == .unreachable)
        #expect(error.reason == String(cString: strerror(code)))
        #expect(error.message == "cannot connect to gpsd at [2001:db8::1]:2947: \(String(cString: strerror(code)))")
    }

    @Test("refused and timed out keep their own codes; anything else is an I/O failure")
    func otherCodes() {
        #expect(GPSDConnection.connectError(code: ECONNREFUSED, host: "localhost", port: 2947).code == .connectionRefused)
        #expect(GPSDConnection.connectError(code: ETIMEDOUT, host: "localhost", port: 2947).code == .timedOut)
        #expect(GPSDConnection.connectError(code: EMFILE, host: "localhost", port: 2947).code == .io)
    }
}
