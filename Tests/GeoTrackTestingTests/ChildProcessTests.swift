import Foundation
import GeoTrackTesting
import Testing

/// What a child of the harness inherits from the test process.
@Suite("Child processes")
struct ChildProcessTests {
    /// The descriptors `pid` holds open, by what they point to (`pipe:[…]`, `socket:[…]`, a path).
    static func targets(of pid: pid_t) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").compactMap {
            try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)")
        }
    }

    @Test("a child holds none of the test process's descriptors, close-on-exec or not, but the standard input it was given",
          arguments: [false, true])
    func inheritsNothing(asServer: Bool) throws {
        // A pipe without O_CLOEXEC, as swift-nio's accepted sockets are: another test's
        // descriptor that a long-lived child would keep open (its reader never sees the end).
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        let leaked = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(ends[1])")
        var given: [Int32] = [0, 0]
        try #require(pipe(&given) == 0)
        defer { close(given[0]); close(given[1]) }
        let standardInput = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(given[0])")
        // posix_spawn returns once the child has run exec: its descriptors are final.
        let child = asServer
            ? try ChildProcess(path: "/bin/sleep", arguments: ["600"], standardInput: given[0])
            : try ChildProcess("/bin/sleep", ["600"])
        defer { child.signalGroup(SIGKILL) }
        let held = try Self.targets(of: child.pid)
        #expect(!held.contains(leaked), "the child inherited \(leaked): \(held)")
        #expect(held.count == 3, "the child holds more than its standard three: \(held)")
        if asServer { #expect(held.contains(standardInput)) }
    }
}
