import GPSReports
import Logging
import Synchronization

/// A client of gpsd: typed reports as an async stream, reconnecting by itself.
///
/// ```swift
/// let client = GPSDClient(configuration: .init(host: "localhost"))
/// for await event in client.events() {
///     switch event {
///     case .report(.fix(let fix)): print(fix.coordinate as Any)
///     case .state(let state): print(state)
///     default: break
///     }
/// }
/// ```
///
/// libgps's blocking calls run on a dedicated thread per connection, never on
/// the cooperative pool; while gpsd is quiet that thread sleeps in poll(2).
public final class GPSDClient: Sendable {
    private let configuration: GPSDConfiguration
    private let clock: any Clock<Duration>
    private let logger: Logger

    /// Creates a client; nothing connects until ``events()`` or ``devices(timeout:)``.
    /// - Parameters:
    ///   - configuration: where gpsd is, and the stale and backoff timings.
    ///   - clock: the clock for stale detection, backoff and timeouts.
    ///   - logger: where the client logs; `nil` (the default) logs nothing. It creates no
    ///     logger of its own.
    public init(configuration: GPSDConfiguration = .init(), clock: any Clock<Duration> = ContinuousClock(),
                logger: Logger? = nil) {
        self.configuration = configuration
        self.clock = clock
        self.logger = logger ?? .disabled
    }

    /// A fresh session per call: connects, watches, reconnects with capped backoff; ends when the consuming task is cancelled.
    ///
    /// States arrive as `.state(...)`: `connecting`, `connected`, then
    /// `receiverPresent` or `receiverAbsent` from gpsd's device list; `stale` once
    /// per silence longer than ``GPSDConfiguration/staleAfter``; and on a failure
    /// `disconnected(error)` then `retrying(after:)`. Every gpsd message is at most
    /// one report; nothing from an earlier message or connection is repeated.
    public func events() -> GPSDEvents {
        let channel = GPSDEventChannel()
        // The production clock gets a specialised session: opening `any Clock` leaves the reader
        // thread's per-message path generic, and resolving generic metadata at run time cost more
        // CPU per message than libgps's parsing did.
        let task = if let clock = clock as? ContinuousClock {
            startSession(clock: clock, output: channel)
        } else {
            startSession(clock: clock, output: channel)
        }
        channel.onTermination { task.cancel() }
        return GPSDEvents(channel: channel)
    }

    /// One-shot: connect, read the DEVICES list, close.
    public func devices(timeout: Duration) async throws(SourceError) -> [Device] {
        try await queryDevices(clock: clock, timeout: timeout).get()
    }

    private func startSession<C: Clock<Duration>>(clock: C, output: GPSDEventChannel) -> Task<Void, Never> {
        let session = GPSDSession(configuration: configuration, clock: clock, logger: logger, output: output)
        return Task {
            await session.run()
            output.finish()
        }
    }

    private func queryDevices<C: Clock<Duration>>(clock: C, timeout: Duration) async -> Result<[Device], SourceError> {
        let host = configuration.host, port = configuration.port
        let reader = GPSDReader(host: host, port: port, request: .devices, logger: logger)
        let connected = ConnectedFlag()
        return await withTaskGroup(of: Result<[Device], SourceError>?.self) { group in
            group.addTask {
                let found = Mutex<[Device]?>(nil)
                let outcome = await reader.run { event in
                    switch event {
                    case .connected:
                        connected.value.store(true, ordering: .releasing)
                        return .proceed
                    case .report(.devices(let devices)):
                        found.withLock { $0 = devices }
                        return .stop
                    case .report:
                        return .proceed
                    }
                }
                switch outcome {
                case .stopped:
                    return found.withLock { $0 }.map { .success($0) }
                case .failed(let error, _):
                    return .failure(error)
                case .cancelled:
                    return nil
                }
            }
            group.addTask {
                do {
                    try await clock.sleep(for: timeout)
                } catch {
                    return nil
                }
                // Both are "no gpsd there": a connect the kernel is still trying, and a peer
                // that accepted but never listed its devices as gpsd does at once.
                if connected.value.load(ordering: .acquiring) {
                    return .failure(.noDeviceList(host: host, port: port, within: timeout))
                }
                return .failure(.noAnswer(host: host, port: port, within: timeout))
            }
            // Cancelling the reader ends its wait at once, whether it is connecting or reading,
            // so leaving the group never waits on the network.
            for await result in group {
                if let result {
                    group.cancelAll()
                    return result
                }
            }
            return .failure(SourceError(.io, message: "the device query to gpsd at \(HostAndPort.text(host, port)) was cancelled"))
        }
    }
}

/// Whether a device query's connection came up, shared by its reader and its timer.
private final class ConnectedFlag: Sendable {
    let value = Atomic(false)
}
