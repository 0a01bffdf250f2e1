import ArgumentParser
import FoundationEssentials
import Logging
#if canImport(Glibc)
import Glibc
#endif

extension GeoTrack {
    /// `geotrack devices`: the receivers gpsd knows.
    package struct Devices: AsyncParsableCommand {
        package static let configuration = CommandConfiguration(
            commandName: "devices",
            abstract: "List the GPS receivers attached to gpsd.",
            discussion: "With --json, one gpsd DEVICE object per receiver and line, as gpspipe -w shows them; none when no receiver is attached."
        )

        @OptionGroup package var gpsd: GPSDOptions

        @Option(parsing: .unconditional, help: ArgumentHelp("Give up after this many seconds.", valueName: "seconds"))
        package var timeout: Double = 5

        @OptionGroup package var configFile: ConfigFileOptions

        @Flag(help: "Print one gpsd DEVICE JSON object per receiver instead of a table.")
        package var json = false

        package init() {}

        package func validate() throws {
            try OutputOptions.checkTimeout(timeout)
        }

        package func run() async throws {
            let settings = try await Settings.load(overrides: gpsd.settingsOverrides(device: nil), explicitFile: configFile.config)
            let devices = try await LocationSources.devices(settings: settings, timeout: .milliseconds(Int(timeout * 1000)),
                                                            logger: Logger.geotrack())
            if json {
                for device in devices { StandardOutput.line(device.deviceJSON()) }
                return
            }
            if devices.isEmpty {
                StandardOutput.line("no receivers attached to gpsd at \(settings.gpsdHost):\(settings.gpsdPort)")
                return
            }
            for line in DeviceTable.lines(devices) {
                StandardOutput.line(line)
            }
        }
    }
}
