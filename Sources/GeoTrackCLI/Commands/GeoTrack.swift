import ArgumentParser
import Foundation

/// The `geotrack` command: a terminal GPS tracker over gpsd, NMEA logs and GPX tracks.
package struct GeoTrack: AsyncParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "geotrack",
        abstract: "Track your position from gpsd, or replay an NMEA log or GPX track.",
        discussion: """
        With no subcommand, geotrack runs 'watch': a status line with your position, \
        redrawn in place. Exit codes: 0 ok, 64 usage, 65 bad input data, 66 no input file, \
        69 gpsd unreachable, 73 cannot create output, 74 I/O error, 75 no fix within --timeout, \
        77 location access denied, 78 bad configuration, 79 authorization needed but no terminal to ask on.
        """,
        version: GeoTrackVersion.string,
        subcommands: [Watch.self, Replay.self, Auth.self, Devices.self],
        defaultSubcommand: Watch.self
    )

    package init() {}

    /// Parses the command line and runs the command; errors end the process with their own exit code.
    package static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let error as CLIError {
            Terminal.standardError("geotrack: \(error.message)")
            Foundation.exit(error.status.rawValue)
        } catch {
            exit(withError: error)
        }
    }
}

/// The version `--version` prints.
package enum GeoTrackVersion {
    /// The release.
    package static let string = "0.1.0"
}
