import GPSD
import GPSReports
import Logging
import NMEA

/// Where location events come from: the adapters to the GPSD and NMEA layers.
package enum LocationSources {
    /// The gpsd client for the settings' host, port and device.
    package static func gpsdClient(settings: Settings, logger: Logger) -> GPSDClient {
        GPSDClient(configuration: gpsdConfiguration(settings: settings), logger: logger)
    }

    /// Where gpsd is, from the settings.
    package static func gpsdConfiguration(settings: Settings) -> GPSDConfiguration {
        GPSDConfiguration(host: settings.gpsdHost, port: settings.gpsdPort, device: settings.device)
    }

    /// A fix as gpsd's TPV JSON line.
    package static let tpvJSON: @Sendable (Fix) -> String = { $0.tpvJSON() }

    /// A paced replay's events (`speed` times the recorded pace).
    package static func replay(path: String, speed: Double) -> ReplayEvents {
        Replay(path: path, pacing: .realTime(speed: speed)).events()
    }

    /// The receivers attached to gpsd.
    package static func devices(settings: Settings, timeout: Duration, logger: Logger) async throws(CLIError) -> [Device] {
        do {
            return try await gpsdClient(settings: settings, logger: logger).devices(timeout: timeout)
        } catch {
            throw CLIError(error)
        }
    }
}
