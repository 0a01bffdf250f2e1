import Executors
import Foundation
import Testing

@Suite("Signal and readability watches", .serialized)
struct WatchTests {
    @Test("a watched signal reaches the handler; once cancelled, it is ignored")
    func signalWatch() async {
        let received = AsyncStream<Int32>.makeStream()
        let watch = SignalWatch([SIGUSR2]) { received.continuation.yield($0) }
        kill(getpid(), SIGUSR2)
        var iterator = received.stream.makeAsyncIterator()
        #expect(await iterator.next() == SIGUSR2)
        watch.cancel()
        var action = sigaction()
        sigaction(SIGUSR2, nil, &action)
        #expect(unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self))
        // Ignored now: this must not kill the test process.
        kill(getpid(), SIGUSR2)
    }

    @Test("readable data reaches the handler, which drains it; cancel stops the calls")
    func readabilityWatch() async throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        _ = fcntl(ends[0], F_SETFL, O_NONBLOCK)
        let (reads, continuation) = AsyncStream<String>.makeStream()
        let readEnd = ends[0]
        let watch = ReadabilityWatch(fd: readEnd, name: "test.watch") {
            var bytes = [UInt8](repeating: 0, count: 16)
            let count = bytes.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            if count > 0 { continuation.yield(String(decoding: bytes.prefix(count), as: UTF8.self)) }
        }
        var iterator = reads.makeAsyncIterator()
        _ = write(ends[1], "one", 3)
        #expect(await iterator.next() == "one")
        _ = write(ends[1], "two", 3)
        #expect(await iterator.next() == "two")
        watch.cancel()
        close(ends[1])
    }
}
