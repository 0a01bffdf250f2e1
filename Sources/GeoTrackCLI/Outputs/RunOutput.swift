import ArgumentParser
import FoundationEssentials
import GeoTrackService
#if canImport(Glibc)
import Glibc
#endif

/// One output of a tracking run (JSON lines, a GPX track, the statistics, a picture, a progress
/// bar, publishing): a consumer of the service's updates that only draws what they say.
///
/// ``TrackerOutput`` gives every update to the display first, then to each output in the order
/// ``TrackerOutputs/make(options:settings:live:sourceName:startingMessage:input:progress:descriptor:environment:)``
/// made them, runs their ticks between updates, and finishes them at the end. A new output is a
/// new file: the type, and an ``OutputMaking`` option group that ``OutputOptions`` declares.
package protocol RunOutput: Sendable {
    /// Handles one update. A throw ends the run with that error.
    func handle(_ update: TrackingUpdate) throws(CLIError)
    /// Seconds until the output has something due without an update, or nil while nothing is.
    var nextTick: Double? { get }
    /// Does what is due (``nextTick``).
    func tick()
    /// Whether the output's reader has gone (`… | head -1`): the run then stops.
    var isClosed: Bool { get }
    /// Flushes and closes, while the terminal is still the display's.
    func finish() throws(CLIError)
    /// What is written once the display has given the terminal back (the statistics on stderr).
    func finishAfterDisplay()
}

extension RunOutput {
    package var nextTick: Double? { nil }
    package func tick() {}
    package var isClosed: Bool { false }
    package func finish() throws(CLIError) {}
    package func finishAfterDisplay() {}
}

/// Everything an output may be made from.
package struct OutputContext {
    /// The command line's output options.
    package var options: OutputOptions
    /// The settings from the configuration (units, format, GPX filters, regions).
    package var settings: Settings
    /// Whether the run is live (watch, or a paced replay): JSON is flushed per line.
    package var live: Bool
    /// How the source is named (a file name, or gpsd's address).
    package var sourceName: String
    /// The file a replay reads, which no output may write over.
    package var input: String?
    /// Whether a progress bar may be shown (an unpaced replay).
    package var showsProgress: Bool
    /// Where JSON lines and the status line go.
    package var descriptor: Int32
    /// The process environment.
    package var environment: [String: String]
}

/// An option group that makes an output when its options ask for one. ``OutputOptions`` finds
/// every group of its own that conforms, so adding an output takes its file and one line there.
package protocol OutputMaking {
    /// Whether the options ask for the output (the fast `replay --json` path is not taken then).
    func isRequested(_ context: OutputContext) -> Bool
    /// The output, or nil when the options do not ask for it.
    func makeOutput(_ context: OutputContext) throws(CLIError) -> (any RunOutput)?
}

/// An `@OptionGroup` seen through reflection (``OutputOptions/outputGroups``): its group, when
/// that group makes an output.
package protocol OutputGroupWrapper {
    /// The group as an output maker, or nil.
    var outputMaker: (any OutputMaking)? { get }
}

extension OptionGroup: OutputGroupWrapper {
    package var outputMaker: (any OutputMaking)? { wrappedValue as? any OutputMaking }
}
