import ArgumentParser

/// Output flags shared by `watch` and `replay`: what is printed and recorded, then publishing,
/// then the configuration file.
///
/// ArgumentParser's help shows the titled groups first, in the order declared, and the untitled
/// options last: so what is printed comes under "Output", the publishing options under
/// "Publishing" after it, and `--config` with `--help` at the end. The man page lists them in
/// the same order.
package struct OutputOptions: ParsableArguments {
    @OptionGroup(title: "Output") package var basic: BasicOutputOptions

    @OptionGroup(title: "Publishing") package var publish: PublishOptions

    @OptionGroup package var configFile: ConfigFileOptions

    package init() {}

    /// `--json`.
    package var json: Bool { basic.json }
    /// `--sky`.
    package var sky: Bool { basic.sky }
    /// `--quiet`.
    package var quiet: Bool { basic.quiet }
    /// `--visits`.
    package var visits: Bool { basic.visits }
    /// `--stats`.
    package var stats: Bool { basic.stats }
    /// `--gpx FILE`, its `%Y`… the run's start (``FileNamePattern``).
    package var gpxPath: String? { basic.gpxPath.map { FileNamePattern.expand($0) } }
    /// `--svg FILE`, its `%Y`… the run's start (``FileNamePattern``).
    package var svgPath: String? { basic.svgPath.map { FileNamePattern.expand($0) } }
    /// `--overwrite`.
    package var overwrite: Bool { basic.overwrite }
    /// `--append`.
    package var append: Bool { basic.append }
    /// `--count N`.
    package var count: Int? { basic.count }
    /// `--once`.
    package var once: Bool { basic.once }
    /// `--timeout SECONDS`.
    package var timeout: Double? { basic.timeout }
    /// `--format` and `--units`.
    package var display: DisplayOptions { basic.display }
    /// `--gpx-min-move METRES`.
    package var gpxMinimumMove: Double? { basic.gpxMinimumMove }
    /// `--gpx-min-interval SECONDS`.
    package var gpxMinimumInterval: Double? { basic.gpxMinimumInterval }
    /// `--gpx-segment-after SECONDS`.
    package var gpxSegmentAfter: Double? { basic.gpxSegmentAfter }

    /// The option groups of this struct that make an output of their own (``OutputMaking``),
    /// in the order declared: a new output's group is found here without being listed.
    package var outputGroups: [any OutputMaking] {
        Mirror(reflecting: self).children.compactMap { ($0.value as? any OutputGroupWrapper)?.outputMaker }
    }

    /// The longest `--timeout` taken: a year. Beyond it a duration overflows, and no run needs it.
    package static let maximumTimeout: Double = 366 * 86_400

    /// Checks a `--timeout` value: more than 0 seconds, at most ``maximumTimeout``.
    package static func checkTimeout(_ timeout: Double) throws {
        guard timeout > 0, timeout <= maximumTimeout else {
            throw ValidationError("--timeout must be more than 0 and at most \(Int(maximumTimeout)) seconds (got \(timeout)).")
        }
    }

    /// How many fixes to stop after, if any.
    package var stopAfter: Int? { once ? 1 : count }

    /// What these flags set, for the top layer of the configuration.
    package var settingsOverrides: SettingsOverrides {
        var overrides = display.settingsOverrides
        if visits { overrides.visits = true }
        overrides.gpxMinimumMove = gpxMinimumMove
        overrides.gpxMinimumInterval = gpxMinimumInterval
        overrides.gpxSegmentAfter = gpxSegmentAfter
        return overrides
    }
}
