import GPSReports
import Logging

/// Where location events come from: the adapters to the GPSD and NMEA layers.
package enum LocationSources {
    /// gpsd's events for the settings' host, port and device.
    package static func gpsd(settings: Settings, logger: Logger) throws(CLIError) -> AsyncStream<SourceEvent> {
        throw CLIError(.unavailable, "this build has no gpsd client yet (the GPSD layer is not merged)")
    }

    /// A fix as gpsd's TPV JSON line.
    package static let tpvJSON: @Sendable (Fix) -> String = { fix in
        "{\"class\":\"TPV\",\"mode\":\(fix.mode.rawValue)}"
    }
}

extension LocationSources {
    /// A paced replay's events.
    package static func replay(path: String, speed: Double) throws(CLIError) -> AsyncStream<SourceEvent> {
        throw CLIError(.failure, "this build has no NMEA replay yet (the NMEA layer is not merged)")
    }

    /// The receivers attached to gpsd.
    package static func devices(settings: Settings, timeout: Duration, logger: Logger) async throws(CLIError) -> [Device] {
        throw CLIError(.unavailable, "this build has no gpsd client yet (the GPSD layer is not merged)")
    }
}
