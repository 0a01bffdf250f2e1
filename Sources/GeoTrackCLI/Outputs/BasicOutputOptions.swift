import ArgumentParser

/// What `watch` and `replay` print and record, and when they stop: ``OutputOptions``'s "Output" group.
package struct BasicOutputOptions: ParsableArguments {
    @Flag(help: ArgumentHelp("Print gpsd's TPV JSON, one object per line, for every fix the receiver sends (as gpspipe -w does), with events as \"class\":\"EVENT\" objects, instead of the status line."))
    package var json = false

    @Flag(help: ArgumentHelp("Draw no status line: only changes of state (a first fix, gpsd lost or back, no receiver, a broker refusing), one line each on stderr, as a service's journal wants."))
    package var quiet = false

    @Flag(help: "With --json: also print gpsd's SKY objects (satellites and dilutions) and GST objects (the receiver's own error statistics).")
    package var sky = false

    @Flag(help: "Report visits: arrivals after a stay (location.visit_radius, location.visit_dwell) and departures.")
    package var visits = false

    @Flag(help: "At the end, print the track's statistics on stderr (with --json: one JSON object); see 'geotrack stats --help'.")
    package var stats = false

    @Option(name: .customLong("gpx"), help: ArgumentHelp("Record the track into a GPX 1.1 file (%Y%m%d-%H%M%S in its name: the start's date and time).", valueName: "file"),
            completion: .file(extensions: ["gpx"]))
    package var gpxPath: String?

    @Option(name: .customLong("svg"), help: ArgumentHelp(
        "At the end, draw the track into an SVG file: coloured by speed, with stops, regions, a scale and the statistics.",
        valueName: "file"),
            completion: .file(extensions: ["svg"]))
    package var svgPath: String?

    @Flag(help: "Replace an existing --gpx or --svg file (never through a symbolic link, never the file being replayed).")
    package var overwrite = false

    @Flag(help: "Continue an existing --gpx track that geotrack recorded, in a new segment, instead of refusing it (a service restarted the same day, with a date in the name).")
    package var append = false

    @Option(parsing: .unconditional, help: ArgumentHelp("Stop after this many fixes.", valueName: "n"))
    package var count: Int?

    @Flag(help: "Stop after the first fix (same as --count 1).")
    package var once = false

    @Option(parsing: .unconditional, help: ArgumentHelp("With --once or --count: give up after this many seconds without a fix (exit 75).",
                               valueName: "seconds"))
    package var timeout: Double?

    @OptionGroup package var display: DisplayOptions

    @Option(name: .customLong("gpx-min-move"), parsing: .unconditional, help: ArgumentHelp(
        "GPX: skip points closer than this to the last one (like gpxlogger -m).", valueName: "metres"))
    package var gpxMinimumMove: Double?

    @Option(name: .customLong("gpx-min-interval"), parsing: .unconditional, help: ArgumentHelp(
        "GPX: skip points sooner than this after the last one.", valueName: "seconds"))
    package var gpxMinimumInterval: Double?

    @Option(name: .customLong("gpx-segment-after"), parsing: .unconditional, help: ArgumentHelp(
        "GPX: start a new segment when the fix was lost this long (like gpxlogger -i), and for twice the receiver's own interval.", valueName: "seconds"))
    package var gpxSegmentAfter: Double?

    package init() {}

    package func validate() throws {
        if sky, !json {
            throw ValidationError("--sky adds SKY objects to --json; give --json too.")
        }
        if let count, count < 1 {
            throw ValidationError("--count must be at least 1 (got \(count)).")
        }
        if once, count != nil {
            throw ValidationError("--once and --count cannot be used together; --once is --count 1.")
        }
        if let timeout {
            try OutputOptions.checkTimeout(timeout)
            guard once || count != nil else { throw ValidationError("--timeout needs --once or --count.") }
        }
        for (name, value) in [("--gpx-min-move", gpxMinimumMove), ("--gpx-min-interval", gpxMinimumInterval)] {
            if let value, !(value >= 0 && value.isFinite) {
                throw ValidationError("\(name) must be 0 or more (got \(value)).")
            }
        }
        for (name, value) in [("--gpx", gpxPath), ("--svg", svgPath)] {
            if let problem = OutputFile.nameProblem(name, value) { throw ValidationError(problem) }
            if let value, let problem = FileNamePattern.problem(value) { throw ValidationError("\(name): \(problem).") }
        }
        // Each output writes its own file: one written over the other would lose the track.
        if let gpxPath = gpxPath.map({ FileNamePattern.expand($0) }), let svgPath = svgPath.map({ FileNamePattern.expand($0) }),
           OutputFile.same(gpxPath, svgPath) {
            throw ValidationError("--gpx and --svg name the same file, \(Terminal.safe(svgPath)); give each its own.")
        }
        if overwrite, gpxPath == nil, svgPath == nil {
            throw ValidationError("--overwrite replaces an existing --gpx or --svg file; give one of them too.")
        }
        if append, gpxPath == nil {
            throw ValidationError("--append continues an existing --gpx track; give --gpx too.")
        }
        if append, overwrite {
            throw ValidationError("--append continues the --gpx file and --overwrite replaces it; choose one.")
        }
        if let gpxSegmentAfter, !(gpxSegmentAfter > 0 && gpxSegmentAfter.isFinite) {
            throw ValidationError("--gpx-segment-after must be more than 0 seconds (got \(gpxSegmentAfter)).")
        }
    }
}
