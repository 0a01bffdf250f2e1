import FoundationEssentials
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// Builds a ``TrackerOutput`` from the command line's output options and the settings.
package enum TrackerOutputs {
    /// The built-in outputs, in the order they see each update: the GPX point is written before
    /// the JSON lines it held back are released, and the progress bar moves last.
    static let builtInTypes: [any BuiltInOutput.Type] = [
        GPXOutput.self, StatisticsOutput.self, PictureOutput.self, PublishOutput.self, JSONLinesOutput.self, ProgressOutput.self,
    ]

    static func builtIn(_ context: OutputContext) throws(CLIError) -> [any RunOutput] {
        var outputs: [any RunOutput] = []
        for type in builtInTypes {
            if let output = try made(type.make(context), abandoning: outputs) { outputs.append(output) }
        }
        return outputs
    }

    /// `make`'s output; when making it fails, the outputs made before it are abandoned first:
    /// a run refused at start (publishing where another run publishes, a missing library)
    /// leaves nothing of its GPX track behind.
    static func made(_ make: @autoclosure () throws(CLIError) -> (any RunOutput)?,
                     abandoning earlier: [any RunOutput]) throws(CLIError) -> (any RunOutput)? {
        do {
            return try make()
        } catch {
            for output in earlier { output.abandon() }
            throw error
        }
    }

    /// Whether JSON lines are asked for and no other output is, built in or an option group's:
    /// what the fast `replay --json` path needs, asked of each output itself.
    package static func requestsOnlyJSONLines(_ context: OutputContext) -> Bool {
        guard JSONLinesOutput.isRequested(context) else { return false }
        let others = builtInTypes.filter { ObjectIdentifier($0) != ObjectIdentifier(JSONLinesOutput.self) }
        return !others.contains { $0.isRequested(context) }
            && !context.options.outputGroups.contains { $0.isRequested(context) }
    }

    /// The outputs for a run; `live` flushes JSON per line (watch, or a paced replay).
    /// - Parameters:
    ///   - sourceName: how the status line names the source.
    ///   - input: the file a replay reads, which the GPX track may never overwrite.
    ///   - progress: whether to show a progress bar (an unpaced replay): with `--gpx` at a
    ///     terminal it counts the input's fixes first, but only for a regular file, which can be
    ///     read twice (a pipe cannot: counting would consume it).
    ///   - descriptor: where JSON lines and the status line go.
    package static func make(options: OutputOptions, settings: Settings, live: Bool, sourceName: String,
                             startingMessage: String? = nil,
                             input path: String? = nil, progress showsProgress: Bool = false,
                             descriptor: Int32 = STDOUT_FILENO,
                             environment: [String: String] = ProcessInfo.processInfo.environment) throws(CLIError) -> TrackerOutput {
        let isTerminal = Terminal.canRedraw(isTerminal: Terminal.isTerminal(descriptor), environment: environment)
        // With JSON on stdout, a live run tells of its state changes on stderr: a pipeline
        // reading the JSON is not disturbed, and whoever runs it still learns that gpsd is down.
        // --quiet: a service's journal wants the changes of state, not a line per fix.
        let mode: StatusDisplay.Mode = options.quiet ? .changes
            : options.json ? (live ? .changes : .silent) : (isTerminal ? .terminal : .lines)
        let displayDescriptor = mode == .changes ? STDERR_FILENO : descriptor
        // The receiver --device asks for; a replay reads no receiver.
        let device = path == nil ? settings.device : nil
        let render = RenderOptions(format: settings.format, units: settings.units,
                                   color: Terminal.colorAllowed(isTerminal: Terminal.isTerminal(displayDescriptor),
                                                                environment: environment),
                                   sourceName: sourceName, startingMessage: startingMessage, device: device)
        let context = OutputContext(options: options, settings: settings, live: live, sourceName: sourceName, input: path,
                                    showsProgress: showsProgress, descriptor: descriptor, environment: environment)
        var outputs = try builtIn(context)
        for group in options.outputGroups {
            if let output = try made(group.makeOutput(context), abandoning: outputs) { outputs.append(output) }
        }
        return TrackerOutput(display: StatusDisplay(mode: mode, options: render, descriptor: displayDescriptor,
                                                    width: { Terminal.columns(descriptor) },
                                                    terminalMode: isTerminal ? TerminalMode() : nil),
                             outputs: outputs, stopAfter: options.stopAfter, device: device)
    }
}
