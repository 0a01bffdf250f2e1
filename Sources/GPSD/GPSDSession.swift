import GPSReports
import Logging
import Synchronization

/// One run of ``GPSDClient/events()``: connects, reads, watches for silence,
/// and reconnects with capped exponential backoff until its task is cancelled (or, without
/// ``GPSDConfiguration/reconnects``, ends after the first failure).
///
/// Decisions come from ``GPSDStateMachine``. Each decision and the yields it
/// produces happen under one lock, so the stream's order is the machine's
/// order even though the reader thread and the watchdog task both feed it;
/// yielding to the channel only enqueues (or resumes the consumer), it never calls back into us.
final class GPSDSession<C: Clock>: Sendable where C.Duration == Duration {
    private let configuration: GPSDConfiguration
    private let clock: C
    private let logger: Logger
    private let output: GPSDEventChannel
    private let machine: Mutex<GPSDStateMachine<C.Instant>>
    /// Rings the current attempt's watchdog; replaced on every attempt.
    private let doorbell = Mutex<AsyncStream<Void>.Continuation?>(nil)

    init(configuration: GPSDConfiguration, clock: C, logger: Logger,
         output: GPSDEventChannel) {
        self.configuration = configuration
        self.clock = clock
        self.logger = logger
        self.output = output
        machine = Mutex(GPSDStateMachine(device: configuration.device, staleAfter: configuration.staleAfter,
                                          skyViews: configuration.skyViews))
    }

    /// Runs until the calling task is cancelled.
    func run() async {
        var nextDelay = min(configuration.initialBackoff, configuration.maximumBackoff)
        while !Task.isCancelled {
            perform { $0.connecting() }
            switch await attempt() {
            case .cancelled, .stopped:
                return
            case .failed(let error, let delivered):
                perform { $0.disconnected(error) }
                logger.info("gpsd connection ended", metadata: ["reason": "\(error)"])
                // A libgps that cannot be loaded stays so until its package is installed.
                guard configuration.reconnects, error.code != .libraryMissing else {
                    perform { $0.finished() }
                    return
                }
                // Only a connection that delivered resets the backoff: a gpsd (or anything else on
                // the port) that accepts and at once closes must not be hammered every second.
                if delivered { nextDelay = min(configuration.initialBackoff, configuration.maximumBackoff) }
                let cap = error.code == .connectionRefused
                    ? min(configuration.maximumBackoffWhenRefused, configuration.maximumBackoff) : configuration.maximumBackoff
                let delay = min(nextDelay, cap)
                nextDelay = min(delay * 2, configuration.maximumBackoff)
                perform { $0.retrying(after: delay) }
                do {
                    try await clock.sleep(for: delay)
                } catch {
                    return
                }
            }
        }
    }

    /// One connection, with its stale watchdog beside it.
    private func attempt() async -> GPSDReaderOutcome {
        let (bell, ring) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        doorbell.withLock { $0 = ring }
        defer {
            ring.finish()
            doorbell.withLock { $0 = nil }
        }
        let reader = GPSDReader(host: configuration.host, port: configuration.port,
                                request: .watch(device: configuration.device), logger: logger)
        return await withTaskGroup(of: GPSDReaderOutcome?.self) { group in
            group.addTask {
                await reader.run { [self] event in
                    switch event {
                    case .connected:
                        let now = clock.now
                        perform { $0.connected(now: now) }
                    case .report(let report):
                        let now = clock.now
                        perform { $0.received(report, now: now) }
                        // Outside the machine's lock, on the reader's own thread: while the
                        // consumer is far behind, gpsd is not read (nothing is dropped here).
                        output.awaitRoom()
                    }
                    return .proceed
                }
            }
            group.addTask { [self] in
                await watchForSilence(bell: bell)
                return nil
            }
            group.addTask { [self] in
                // A connect that never completes, or a peer that accepts and says nothing, must
                // not hold the session: the kernel alone would wait minutes.
                do {
                    try await clock.sleep(for: configuration.connectTimeout)
                } catch {
                    return nil
                }
                guard machine.withLock({ $0.isAwaitingFirstMessage }) else { return nil }
                return .failed(.noAnswer(host: configuration.host, port: configuration.port,
                                         within: configuration.connectTimeout), delivered: false)
            }
            for await outcome in group {
                if let outcome {
                    group.cancelAll()
                    return outcome
                }
            }
            return .cancelled
        }
    }

    /// Emits `.stale` once per silence of `staleAfter`, measured on the injected clock.
    /// Sleeps on the clock while timing, and on the doorbell while there is nothing to time.
    private func watchForSilence(bell: AsyncStream<Void>) async {
        var rings = bell.makeAsyncIterator()
        while !Task.isCancelled {
            guard let (deadline, generation) = machine.withLock({ $0.staleDeadline() }) else {
                if await rings.next() == nil { return }
                continue
            }
            do {
                try await clock.sleep(until: deadline, tolerance: nil)
            } catch {
                return
            }
            perform { $0.staleTimerFired(generation: generation) }
        }
    }

    private func perform(_ decide: (inout GPSDStateMachine<C.Instant>) -> GPSDStateMachine<C.Instant>.Action) {
        let rearm = machine.withLock { machine -> Bool in
            let action = decide(&machine)
            for event in action.events { output.yield(event) }
            return action.rearmWatchdog
        }
        if rearm {
            doorbell.withLock { _ = $0?.yield() }
        }
    }
}
