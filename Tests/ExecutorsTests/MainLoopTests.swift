// Only with the custom executors (GeoTrackExecutors.swift says when).
#if compiler(>=6.3) && compiler(<6.4) && !GEOTRACK_DEFAULT_EXECUTORS
@testable import Executors
import Foundation
import Synchronization
import Testing

@Suite("Main loop")
struct MainLoopTests {
    /// Starts a loop on a thread of its own (the loop belongs to the thread that creates it).
    private static func startLoop() async -> MainLoop {
        await withCheckedContinuation { continuation in
            let thread = Thread {
                let loop = MainLoop()
                continuation.resume(returning: loop)
                try? loop.run()
            }
            thread.start()
        }
    }

    @Test("posted closures run in order on the loop's thread; stop ends the loop")
    func postsRunInOrder() async {
        let loop = await Self.startLoop()
        let seen = Recorded<Int>()
        let onLoop = Recorded<Bool>()
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            for index in 0..<100 {
                loop.post {
                    seen.append(index)
                    onLoop.append(loop.isIsolatingCurrentContext() == true)
                }
            }
            loop.post { done.resume() }
        }
        #expect(seen.all == Array(0..<100))
        #expect(onLoop.all.allSatisfy { $0 })
        // Off the loop's thread, it is not isolated.
        #expect(loop.isIsolatingCurrentContext() == false)
        loop.stop()
    }
}
#endif
