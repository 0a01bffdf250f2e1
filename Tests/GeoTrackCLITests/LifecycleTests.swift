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

    @Test("a run's lifecycle gives Ctrl-Z, SIGCONT and a terminating signal as its events, in order, until it ends")
    func runLifecycleEvents() async {
        // No signals watched: the test feeds them in, so nothing reaches the test process itself.
        let process = ProcessLifecycle(signals: [])
        let lifecycle = RunLifecycle(process: process, resizes: false)
        process.receive(SIGTSTP)
        process.receive(SIGCONT)
        process.receive(SIGUSR1)
        process.receive(SIGINT)
        lifecycle.end()
        var seen: [RunLifecycle.Event] = []
        for await event in lifecycle.events { seen.append(event) }
        #expect(seen == [.suspend, .resume, .terminate(signal: SIGINT)])
        #expect(process.state == .terminating(signal: SIGINT))
    }

    @Test("a run that draws on the terminal hears of a new window size (SIGWINCH) from its lifecycle")
    func runLifecycleResize() async {
        let lifecycle = RunLifecycle(process: ProcessLifecycle(signals: []), resizes: true)
        let events = lifecycle.events
        // SIGWINCH's default action is to ignore it, and the lifecycle catches it: the test
        // process is not disturbed.
        kill(getpid(), SIGWINCH)
        let first = await withTaskGroup(of: RunLifecycle.Event?.self) { group in
            group.addTask {
                for await event in events { return event }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(30))
                return nil
            }
            defer { group.cancelAll() }
            return await group.next() ?? nil
        }
        lifecycle.end()
        #expect(first == .resize)
    }
}
