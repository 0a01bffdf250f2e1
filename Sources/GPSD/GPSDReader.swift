import Executors
import FoundationEssentials
import GPSReports
import Logging
#if canImport(Glibc)
import Glibc
#endif

/// What the reader thread tells its owner as it goes.
enum GPSDReaderEvent: Sendable {
    /// The TCP connection to gpsd is up.
    case connected
    /// One gpsd message, as a report.
    case report(Report)
}

/// Whether the reader should keep going after an event.
enum GPSDReaderControl: Sendable {
    case proceed
    case stop
}

/// How one connection ended.
enum GPSDReaderOutcome: Sendable {
    /// The owner asked to stop (``GPSDReaderControl/stop``).
    case stopped
    /// The calling task was cancelled.
    case cancelled
    /// The connection failed or closed; `delivered` says whether it had delivered a report
    /// (anything beyond gpsd's VERSION greeting), so that one that only accepted is not a success.
    case failed(SourceError, delivered: Bool)
}

/// Runs one connection to gpsd on a dedicated thread, so libgps's blocking
/// calls never occupy the cooperative pool.
struct GPSDReader: Sendable {
    /// What to ask gpsd once connected.
    enum Request: Sendable {
        /// Stream reports (`?WATCH`), from one device or all.
        case watch(device: String?)
        /// Learn the device list: gpsd answers a watch with DEVICES, and only a
        /// watch makes it open its receivers, so their activation times are known.
        case devices
    }

    let host: String
    let port: Int
    let request: Request
    let logger: Logger

    /// Connects, sends the request and hands every message to `handler` on the
    /// reader thread until the connection ends, `handler` says stop, or the
    /// calling task is cancelled (which interrupts a blocked read at once).
    func run(_ handler: @escaping @Sendable (GPSDReaderEvent) -> GPSDReaderControl) async -> GPSDReaderOutcome {
        let interrupter: GPSDInterrupter
        do {
            interrupter = try GPSDInterrupter()
        } catch {
            return .failed(error, delivered: false)
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<GPSDReaderOutcome, Never>) in
                // Linux keeps 15 characters of a thread's name, enough for the port.
                DetachedThread.startOrRun(name: "gpsd:\(port)") { [self] in
                    continuation.resume(returning: readLoop(interrupter: interrupter, handler: handler))
                }
            }
        } onCancel: {
            interrupter.interrupt()
        }
    }

    private func readLoop(interrupter: GPSDInterrupter,
                          handler: (GPSDReaderEvent) -> GPSDReaderControl) -> GPSDReaderOutcome {
        if interrupter.isInterrupted { return .cancelled }
        let connection: GPSDConnection
        do {
            connection = try GPSDConnection(host: host, port: port, interrupter: interrupter, logger: logger)
        } catch {
            return interrupter.isInterrupted ? .cancelled : .failed(error, delivered: false)
        }
        defer { connection.close() }
        logger.debug("connected to gpsd", metadata: ["host": "\(host)", "port": "\(port)"])
        if case .stop = handler(.connected) { return .stopped }
        var delivered = false
        do {
            switch request {
            case .watch(let device): try connection.watch(device: device)
            case .devices: try connection.watch(device: nil)
            }
            while true {
                let report = try connection.nextReport()
                if interrupter.isInterrupted { return .cancelled }
                if case .version = report {} else { delivered = true }
                if case .stop = handler(.report(report)) { return .stopped }
            }
        } catch {
            return interrupter.isInterrupted ? .cancelled : .failed(error, delivered: delivered)
        }
    }
}
