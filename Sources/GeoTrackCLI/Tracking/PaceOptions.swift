import ArgumentParser

/// How fast a replay plays: shared by `replay` and `sky --replay`.
package struct PaceOptions: ParsableArguments {
    @Flag(help: ArgumentHelp("Keep the pace of the recording.", discussion: "A gap of more than 10 minutes, or a step back in time, plays as 1 second."))
    package var realtime = false

    @Option(parsing: .unconditional, help: ArgumentHelp("Play this many times faster than recorded (implies --realtime).", valueName: "n"))
    package var speed: Double?

    package init() {}

    package func validate() throws {
        if let speed, !(speed >= 0.001 && speed <= 1_000_000) {
            throw ValidationError("--speed must be from 0.001 to 1000000 (got \(speed)).")
        }
    }

    /// Whether the recorded pace is kept.
    package var isPaced: Bool { realtime || speed != nil }

    /// How many times faster than recorded, or nil for as fast as possible.
    package var factor: Double? { isPaced ? (speed ?? 1) : nil }
}
