import ArgumentParser

extension CoordinateFormat: ExpressibleByArgument {}
extension Units: ExpressibleByArgument {}

/// How positions and measures are written: shared by `watch`, `replay` and `stats`.
package struct DisplayOptions: ParsableArguments {
    // ASCII only: the man page generator drops every other character (51°30' became 5130').
    @Option(help: ArgumentHelp("Coordinate notation: dd (decimal degrees), dms (degrees, minutes and seconds) or ddm (degrees and decimal minutes).",
                               valueName: "dd|dms|ddm"))
    package var format: CoordinateFormat?

    @Option(help: ArgumentHelp("Units: metric (km/h, m), imperial (mph, ft) or nautical (kn, m).",
                               valueName: "metric|imperial|nautical"))
    package var units: Units?

    package init() {}

    /// What these flags set, for the top layer of the configuration.
    package var settingsOverrides: SettingsOverrides {
        var overrides = SettingsOverrides()
        overrides.format = format
        overrides.units = units
        return overrides
    }
}
