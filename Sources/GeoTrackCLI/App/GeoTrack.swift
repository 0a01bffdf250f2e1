import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif

/// The `geotrack` command: a terminal GPS tracker over gpsd, NMEA logs and GPX tracks.
package struct GeoTrack: AsyncParsableCommand {
    // Every command names itself. Without a name, ArgumentParser derives one with
    // String(describing:), whose casts scan every protocol conformance in the binary at each
    // start: a fifth of `geotrack --version`'s time.
    package static let configuration = CommandConfiguration(
        commandName: "geotrack",
        abstract: "Track your position from gpsd, or replay an NMEA log or GPX track.",
        // No blank line, and no line but the first that starts in column 0: the man page is
        // made from this text (generate-manual), where a blank line is an mdoc warning and a line
        // that does not start with a space is joined to the one before it.
        discussion: """
        With no subcommand, geotrack runs 'watch': a status line with your position, \
        redrawn in place.
          Examples:
            geotrack                              follow gpsd on localhost:2947
            geotrack watch --gpx trip.gpx         record a track while watching
            geotrack watch --json > fixes.jsonl   gpsd's TPV objects, one per line
            geotrack replay drive.nmea --realtime --speed 10
            geotrack replay drive.nmea --json > fixes.jsonl
            geotrack sky                          satellites and the fix, full screen
            geotrack auth grant --approximate     allow approximate locations only
            geotrack devices --json               the receivers gpsd knows
          Environment:
            GEOTRACK_CONFIG    the configuration file
                               (default $XDG_CONFIG_HOME/geotrack/config.yaml)
            GEOTRACK_<KEY>     a configuration key, dots as underscores
                               (\(ConfigKeys.all.prefix(2).map(ConfigKeys.environmentName).joined(separator: ", ")), ...)
            GEOTRACK_DEBUG     log debug messages on stderr
            GEOTRACK_PUBLISH_PASSWORD
                               the broker's or HTTP server's password (--publish,
                               fleet, serve --fleet, outbox flush)
            XDG_CONFIG_HOME    where the configuration lives (default ~/.config)
            XDG_STATE_HOME     the authorization decision, the outbox and monitors
                               (default ~/.local/state)
            HOME               the base of both defaults
            NO_COLOR           set: no colour
            TERM               dumb: no colour, plain lines, no redrawing
          Exit status:
        \(exitStatusLines)
        """,
        version: GeoTrackVersion.string,
        // No `defaultSubcommand`: with one, the parser reflects on every option of `watch` at
        // each start, whatever the command, to learn whether it takes all remaining arguments
        // (0.4 ms of `geotrack --version`'s 3 ms). `routed(_:)` sends a command line without a
        // subcommand to `watch` instead.
        subcommands: [Watch.self, Replay.self, Sky.self, Stats.self, Auth.self, Devices.self, Fleet.self, OutboxCommand.self,
                      Serve.self]
    )

    /// The exit statuses, one line each, as the root's discussion lists them: from
    /// ``ExitStatus`` itself, so that `--help` and the man page cannot leave one out.
    static var exitStatusLines: String {
        ExitStatus.allCases.map { status in
            let code = String(status.rawValue)
            return "    " + code + String(repeating: " ", count: max(1, 4 - code.count)) + status.summary
        }.joined(separator: "\n")
    }

    package init() {}

    /// Parses the command line and runs the command; errors end the process with their own exit code.
    ///
    /// On the main actor: the command line is parsed on the main thread, and a synchronous command
    /// (`--version`, `--help`, `auth`) runs there too, without starting a worker thread.
    @MainActor
    package static func main() async {
        // A reader that goes away (`… | head -1`) is seen as a failed write, so that a run can
        // end cleanly, closing its GPX file, instead of being killed by SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        // A file-size limit (`ulimit -f`) reached while recording is a failed write (EFBIG), as a
        // full disk is: the run ends with its one-line error and status 74, and the JSON it held
        // for the track is not released, instead of the process being killed by SIGXFSZ mid-point.
        signal(SIGXFSZ, SIG_IGN)
        do {
            if let unknown = unknownCommand(Array(CommandLine.arguments.dropFirst())) { fail(unknown) }
            if let dashed = dashedFileName(Array(CommandLine.arguments.dropFirst())) { fail(dashed) }
            var command = try parseCommandLine(Array(CommandLine.arguments.dropFirst()))
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            // Output that did not reach stdout is a failure, not a success with nothing to show.
            try StandardOutput.finish()
        } catch let error as CLIError {
            fail(error)
        } catch {
            let code = exitCode(for: error)
            // --help, --version, `help X` and completion scripts end the parse with a success.
            guard code != .success else { finishCleanly(error) }
            Terminal.standardError(Terminal.safe(usageLine(for: error, arguments: CommandLine.arguments)))
            Glibc.exit(code.rawValue)
        }
    }

    /// Ends the process with `error`'s status and its one line on stderr.
    private static func fail(_ error: CLIError) -> Never {
        Terminal.standardError("geotrack: \(Terminal.safe(error.message))")
        Glibc.exit(error.status.rawValue)
    }

    /// Prints what ArgumentParser has for a clean exit (help, the version, a completion script)
    /// and exits 0, or 74 when stdout did not take it.
    ///
    /// ArgumentParser's own `exit(withError:)` prints the same text (`fullMessage(for:)`, and a
    /// newline) but through stdio, and exits without a look at whether it was written.
    private static func finishCleanly(_ error: any Error) -> Never {
        let text = fullMessage(for: error)
        if !text.isEmpty { StandardOutput.line(text) }
        do throws(CLIError) {
            try StandardOutput.finish()
        } catch {
            fail(error)
        }
        Glibc.exit(ExitStatus.success.rawValue)
    }

    /// Parses a command line (without the program's name) into the command it names.
    package static func parseCommandLine(_ arguments: [String]) throws -> any ParsableCommand {
        try parseAsRoot(routed(arguments))
    }

    /// The command line with `watch` in front when it names no subcommand: nothing at all, or
    /// options that are not the root's own (`--help`, `--version`, completion scripts).
    ///
    /// `watch` takes no positional arguments, so a first word that is not an option is a
    /// subcommand or a mistake, and either is left for the parser to judge.
    package static func routed(_ arguments: [String]) -> [String] {
        guard let first = arguments.first else { return [Watch._commandName] }
        guard first.hasPrefix("-") else { return arguments }
        let name = first.split(separator: "=", maxSplits: 1).first.map(String.init) ?? first
        return rootOptions.contains(name) ? arguments : [Watch._commandName] + arguments
    }

    /// A command line whose words name no command where one is due: the parser would take
    /// `geotrack foo` for `watch` with an unexpected argument, `geotrack outbox foo` for an
    /// unexpected argument, and print the root's help for `geotrack help foo` with success.
    /// Words are read up to the first option, or a command that has no subcommands (whose
    /// arguments they are). Nil when each names one.
    package static func unknownCommand(_ arguments: [String]) -> CLIError? {
        let words = arguments.first == "help" ? arguments.dropFirst() : arguments[...]
        var level = configuration.subcommands
        var path: [String] = []
        for word in words {
            if word.hasPrefix("-") || level.isEmpty { break }
            guard let command = level.first(where: { $0.configuration.commandName == word }) else {
                let names = level.compactMap { $0.configuration.commandName }.joined(separator: ", ")
                let within = path.isEmpty ? "" : path.joined(separator: " ") + " "
                let help = (["geotrack"] + path + ["--help"]).joined(separator: " ")
                return CLIError(.usage, "no command '\(within)\(word)'; the \(within)commands are \(names) (see '\(help)')")
            }
            path.append(word)
            level = command.configuration.subcommands
        }
        return nil
    }

    /// A word before any `--` that names an existing file but starts with a dash (`-walk.nmea`):
    /// the parser would read it as a group of short options (`-w -a -l -k…`, with `-h` showing
    /// the help and exiting 0, which a script takes for success), so it is refused, saying how
    /// to name the file. Nil when there is none.
    package static func dashedFileName(_ arguments: [String]) -> CLIError? {
        for word in arguments {
            if word == "--" { break }
            guard word.count > 2, word.hasPrefix("-"), !word.hasPrefix("--") else { continue }
            var info = stat()
            guard lstat(word, &info) == 0 else { continue }
            return CLIError(.usage, "'\(word)' would be read as options; to name that file, write ./\(word) or put -- before it")
        }
        return nil
    }

    /// The options swift-argument-parser handles at the root itself.
    static let rootOptions: Set<String> = [
        "-h", "--help", "-help", "--help-hidden", "-help-hidden", "--version",
        "--generate-completion-script", "--experimental-dump-help", "---completion",
    ]

    /// A parse error as one line, like every other error: the parser's own message (without its
    /// usage block) and where to look for help.
    package static func usageLine(for error: any Error, arguments: [String]) -> String {
        let text = message(for: error)
        var first = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? text
        if first.hasSuffix(".") { first.removeLast() }
        // Lower case as every other error line starts ("unknown option", not "Unknown option"),
        // but an initialism stays as it is ("GPX file …").
        if let initial = first.first, initial.isUppercase, first.dropFirst().first?.isLowercase == true {
            first = initial.lowercased() + first.dropFirst()
        }
        // The help of the deepest command named (`geotrack outbox clear --help`, not outbox's).
        var level = configuration.subcommands
        var path: [String] = []
        for word in routed(Array(arguments.dropFirst())) {
            if word.hasPrefix("-") { break }
            guard let command = level.first(where: { $0._commandName == word }) else { continue }
            path.append(word)
            level = command.configuration.subcommands
        }
        let help = (["geotrack"] + path + ["--help"]).joined(separator: " ")
        return "geotrack: \(first); see '\(help)'"
    }
}
