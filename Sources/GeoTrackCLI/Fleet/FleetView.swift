import FoundationEssentials
import MQTT
import OwnTracks
import Publishing
#if canImport(Glibc)
import Glibc
#endif

/// The fleet view's run: the broker's messages into a ``FleetRoster``, drawn in place on a
/// terminal (at most four times a second, and again when an age or a stale mark changes), or
/// printed as lines or JSON. Ends on SIGINT, SIGTERM or SIGHUP, when the broker refuses the login,
/// or when the lines cannot be written.
package struct FleetView: Sendable {
    /// How the view is written.
    package enum Mode: Sendable, Equatable {
        /// Redrawn in place (a terminal).
        case terminal
        /// One line per location received (a pipe or file).
        case lines
        /// One JSON object per location received.
        case json
    }

    let mode: Mode
    let broker: String
    let staleAfter: Double
    let options: RenderOptions

    private enum Input: Sendable {
        case mqtt(MQTTEvent)
        case tick
        case resized
        case stop
    }

    /// Connects, subscribes, and shows what arrives until a terminating signal.
    package func run(client: MQTTClient) async throws(CLIError) {
        // A window resized is drawn again at its new width (SIGWINCH).
        let lifecycle = await RunLifecycle(suspends: false, resizes: mode == .terminal)
        let (inputs, input) = AsyncStream.makeStream(of: Input.self)
        let forwarding = Task {
            for await event in client.events { input.yield(.mqtt(event)) }
            input.yield(.stop)
        }
        let watcher = Task {
            for await event in lifecycle.events {
                switch event {
                case .terminate: input.yield(.stop)
                case .resize: input.yield(.resized)
                case .suspend, .resume: continue
                }
            }
        }
        let display = mode == .terminal ? FleetDisplay(descriptor: STDOUT_FILENO) : nil
        client.start()

        var feed = FleetFeed()
        var dirty = true
        var lastDraw = ContinuousClock.now.advanced(by: .seconds(-10))
        var failure: CLIError?
        // Only a terminal shows ages that grow; lines and JSON are written as messages come.
        // One timer, armed for what is due next: a draw held back, or the next age to change.
        // Nothing wakes the view while no message comes and no age would read differently.
        var timer: Task<Void, Never>?
        var armed: ContinuousClock.Instant?
        let arm = { (due: ContinuousClock.Instant) -> Task<Void, Never> in
            Task {
                try? await Task.sleep(until: due, clock: .continuous)
                if !Task.isCancelled { input.yield(.tick) }
            }
        }
        let draw = { (feed: FleetFeed) in
            display?.draw(FleetScreen.lines(feed.roster, broker: broker, connected: feed.connected, problem: feed.problem, now: Date(),
                                            staleAfter: staleAfter, options: options, width: Terminal.columns(STDOUT_FILENO),
                                            height: Terminal.rows(STDOUT_FILENO)))
        }
        draw(feed)
        loop: for await next in inputs {
            switch next {
            case .mqtt(let event):
                switch feed.receive(event, broker: broker) {
                case .none:
                    continue
                case .subscribe:
                    for filter in OwnTracksTopic.everyDevice { _ = try? client.subscribe(filter) }
                    dirty = true
                case .refused(let error):
                    failure = error
                    break loop
                case .changed:
                    dirty = true
                case .failed(let reason):
                    dirty = true
                    // Without a terminal the header is not drawn: say it once on stderr.
                    if display == nil { Terminal.standardError("geotrack: cannot connect to \(Terminal.safe(broker)): \(reason); retrying") }
                case .location(let location, let topic, let payload, let changed):
                    if changed { dirty = true }
                    // Every location received is printed, even one that changes nothing shown.
                    write(json: FleetJSON.line(location, payload: payload, topic: topic, receivedAt: Date()), topic: topic, roster: feed.roster)
                    // Lines that stdout does not take are lost: stop, and the command exits 74 saying why.
                    if display == nil, StandardOutput.failure != nil { break loop }
                case .lastWill(let topic, let payload, let changed):
                    if changed { dirty = true }
                    // A device gone offline is news to a script and a log as to the screen.
                    write(json: FleetJSON.lastWillLine(payload: payload, topic: topic, receivedAt: Date()), topic: topic, roster: feed.roster)
                    if display == nil, StandardOutput.failure != nil { break loop }
                }
            case .tick:
                // A held-back draw, or ages that now read differently.
                armed = nil
                dirty = true
            case .resized:
                dirty = true
            case .stop:
                break loop
            }
            guard display != nil else { continue }
            // At most four draws a second.
            let now = ContinuousClock.now
            if dirty, now - lastDraw >= .milliseconds(250) {
                draw(feed)
                dirty = false
                lastDraw = now
            }
            let due: ContinuousClock.Instant?
            if dirty {
                due = lastDraw.advanced(by: .milliseconds(250))
            } else if let seconds = FleetScreen.secondsUntilChange(feed.roster, now: Date(), staleAfter: staleAfter) {
                // A millisecond past the change, so that the redraw reads the new text. Capped at
                // a day: a far-off change (a huge --stale, a tst from the past) is checked again
                // then, and no number from a device or the command line makes the duration trap.
                due = now.advanced(by: .seconds(min(max(seconds, 0), 86_400) + 0.001))
            } else {
                due = nil
            }
            if due != armed {
                timer?.cancel()
                armed = due
                timer = due.map(arm)
            }
        }
        if dirty { draw(feed) }
        display?.finish()
        timer?.cancel()
        watcher.cancel()
        await client.close()
        forwarding.cancel()
        await lifecycle.end()
        if let failure { throw failure }
    }

    /// Writes what came on `topic` when there is no terminal to redraw: with `--json` the
    /// message's line (made only then), else the device's line as it now reads.
    private func write(json: @autoclosure () -> String, topic: String, roster: FleetRoster) {
        switch mode {
        case .terminal:
            return
        case .json:
            Terminal.write(json() + "\n", to: STDOUT_FILENO)
        case .lines:
            guard let parsed = OwnTracksTopic(topic: topic), let device = roster.devices[parsed.name] else { return }
            Terminal.write(FleetScreen.line(device, now: Date(), staleAfter: staleAfter, options: options) + "\n", to: STDOUT_FILENO)
        }
    }
}
