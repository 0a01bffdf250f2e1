import Foundation
import GeoTrackReactive
import Testing
@testable import GeoTrackCLI

@Suite("Process lifecycle")
@MainActor
struct LifecycleTests {
    final class Recorder: ProcessLifecycleDelegate {
        var calls: [String] = []
        func processDidEnterBackground(_ lifecycle: ProcessLifecycle) { calls.append("background") }
        func processWillEnterForeground(_ lifecycle: ProcessLifecycle) { calls.append("foreground") }
        func processWillTerminate(_ lifecycle: ProcessLifecycle, signal: Int32) { calls.append("terminate \(signal)") }
    }

    @Test("signals map to states: TSTP background, CONT foreground, TERM/INT/HUP terminating; others nothing")
    func mapping() {
        #expect(LifecycleState(signal: SIGTSTP) == .background)
        #expect(LifecycleState(signal: SIGCONT) == .foreground)
        for number in [SIGTERM, SIGINT, SIGHUP] {
            #expect(LifecycleState(signal: number) == .terminating(signal: number))
        }
        #expect(LifecycleState(signal: SIGUSR1) == nil)
    }

    @Test("the delegate gets each callback, and rx.state streams the same through the proxy")
    func delegateAndStream() async {
        // No signals watched: the test feeds them in, so nothing reaches the test process itself.
        let lifecycle = ProcessLifecycle(signals: [])
        let recorder = Recorder()
        lifecycle.delegate = recorder
        let states = lifecycle.rx.state
        let collected = Task { @MainActor in
            var seen: [LifecycleState] = []
            for await state in states {
                seen.append(state)
                if case .terminating = state { break }
            }
            return seen
        }
        lifecycle.receive(SIGTSTP)
        lifecycle.receive(SIGCONT)
        lifecycle.receive(SIGUSR1)
        lifecycle.receive(SIGTERM)
        #expect(await collected.value == [.active, .background, .foreground, .terminating(signal: SIGTERM)])
        #expect(recorder.calls == ["background", "foreground", "terminate \(SIGTERM)"])
        #expect(lifecycle.state == .terminating(signal: SIGTERM))
        lifecycle.cancel()
    }
}
