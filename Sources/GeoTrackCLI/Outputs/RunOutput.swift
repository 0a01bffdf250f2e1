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
    /// The run ends without this output seeing what comes next: an output before it failed on
    /// an update this one never saw, or an output after it could not be made, so the run never
    /// began. Drop whatever it holds back, so that ``finish()`` does not release it, and what
    /// it made that holds nothing yet (a GPX track before its first point).
    func abandon()
    /// Flushes and closes, while the terminal is still the display's.
    func finish() throws(CLIError)
    /// What is written once the display has given the terminal back (the statistics on stderr).
    func finishAfterDisplay()
}

extension RunOutput {
    package var nextTick: Double? { nil }
    package func tick() {}
    package var isClosed: Bool { false }
    package func abandon() {}
    package func finish() throws(CLIError) {}
    package func finishAfterDisplay() {}
}
