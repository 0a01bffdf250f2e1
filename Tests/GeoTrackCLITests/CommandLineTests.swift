import ArgumentParser
import Foundation
@testable import GeoTrackCLI
import Testing

@Suite("geotrack at the command line")
struct CommandLineTests {
    @Test("--help everywhere, --version, completions")
    func help() async throws {
        let home = try TestSupport.temporaryDirectory()
        for command in [[], ["watch"], ["replay"], ["auth"], ["auth", "grant"], ["devices"]] {
            let run = try await TestSupport.geotrack(command + ["--help"], home: home)
            #expect(run.status == 0, "\(command)")
            #expect(run.stdout.contains("USAGE: geotrack"), "\(command)")
        }
        let version = try await TestSupport.geotrack(["--version"], home: home)
        #expect(version.status == 0)
        #expect(version.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ".").count == 3)
        for shell in ["bash", "zsh", "fish"] {
            let completion = try await TestSupport.geotrack(["--generate-completion-script", shell], home: home)
            #expect(completion.status == 0)
            #expect(completion.stdout.contains("replay"))
        }
    }

    @Test("bash completes --gpx, --svg and --config with the files of their kind, and folders")
    func fileCompletions() async throws {
        let home = try TestSupport.temporaryDirectory()
        for name in ["a.gpx", "b.txt", "c.yaml", "d.svg"] {
            #expect(FileManager.default.createFile(atPath: home.appendingPathComponent(name).path, contents: Data()))
        }
        try FileManager.default.createDirectory(at: home.appendingPathComponent("trips"), withIntermediateDirectories: false)
        let run = try await TestSupport.run("/bin/bash", ["-c", """
            cd "$1" && source <("$2" --generate-completion-script bash) || exit 1
            for option in --gpx --svg --config; do
                COMP_WORDS=(geotrack watch "$option" ""); COMP_CWORD=3
                COMP_LINE="geotrack watch $option "; COMP_POINT=${#COMP_LINE}; COMPREPLY=()
                _geotrack geotrack "" "$option"
                echo "$option: $(printf '%s\\n' "${COMPREPLY[@]}" | sort | tr '\\n' ' ')"
            done
            """, "bash", home.path, TestSupport.binary])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "--gpx: a.gpx trips \n--svg: d.svg trips \n--config: c.yaml trips \n", "\(run.stdout)")
    }

    @Test("contrib/geotrack.service runs a command line geotrack takes (watch --quiet), and keeps from restarting only on statuses geotrack has that no restart mends")
    func serviceUnit() throws {
        let unit = try String(contentsOf: TestSupport.packageRoot.appendingPathComponent("contrib/geotrack.service"), encoding: .utf8)
        let joined = unit.replacingOccurrences(of: "\\\n", with: " ").split(separator: "\n").map(String.init)
        let execStart = try #require(joined.first { $0.hasPrefix("ExecStart=") })
        let words = execStart.dropFirst("ExecStart=".count).split(separator: " ").map { $0 == "%H" ? "van" : String($0) }
        #expect(words.first == "/usr/local/bin/geotrack")
        let watch = try #require(try GeoTrack.parseCommandLine(Array(words.dropFirst())) as? GeoTrack.Watch)
        #expect(watch.output.quiet, "the journal would get a line per fix")
        let prevented = try #require(joined.first { $0.hasPrefix("RestartPreventExitStatus=") })
            .dropFirst("RestartPreventExitStatus=".count).split(separator: " ").compactMap { Int32($0) }
        let statuses = Set(GeoTrackCLI.ExitStatus.allCases.map(\.rawValue))
        #expect(!prevented.isEmpty && prevented.allSatisfy(statuses.contains), "\(prevented)")
        // gpsd or a broker down, a full disk, a timeout, a queue another run sends: a later start may well succeed.
        for transient: GeoTrackCLI.ExitStatus in [.success, .unavailable, .ioError, .temporaryFailure] {
            #expect(!prevented.contains(transient.rawValue), "\(transient)")
        }
    }

    @Test("--help shows examples, every environment variable geotrack reads, and fits 80 columns")
    func helpExamplesAndEnvironment() async throws {
        let run = try await TestSupport.geotrack(["--help"], home: try TestSupport.temporaryDirectory(), environment: ["COLUMNS": "80"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("  Examples:\n    geotrack "))
        for name in ConfigKeys.otherEnvironment + ["GEOTRACK_<KEY>", ConfigKeys.environmentName(ConfigKeys.all[0]),
                                                   "XDG_CONFIG_HOME", "XDG_STATE_HOME", "HOME", "NO_COLOR", "TERM"] {
            #expect(run.stdout.contains(name), "\(name) is not in --help")
        }
        // Every example is a command geotrack accepts. The block ends where the next heading
        // starts (no blank line: the man page is made from this text, see ManualTests).
        let examples = run.stdout.components(separatedBy: "Examples:\n").last?.components(separatedBy: "\n  Environment:").first ?? ""
        for line in examples.split(separator: "\n") {
            let words = line.split(separator: " ").map(String.init).prefix { $0 != "|" && $0 != ">" && !$0.hasPrefix("#") }
            let command = Array(words.prefix { $0 == "geotrack" || $0.hasPrefix("-") || $0.contains(".") || ["watch", "replay", "auth", "grant", "devices", "10"].contains($0) })
            #expect(command.first == "geotrack", "\(line)")
            _ = try GeoTrack.parseCommandLine(Array(command.dropFirst()))
        }
        #expect(run.stdout.split(separator: "\n").allSatisfy { $0.count <= 80 })
    }

    @Test("a command line without a subcommand is watch's; the root's own options stay the root's")
    func routing() async throws {
        #expect(try GeoTrack.parseCommandLine([]) is GeoTrack.Watch)
        let watch = try #require(try GeoTrack.parseCommandLine(["--gpsd", "example.org:2948", "--no-retry"]) as? GeoTrack.Watch)
        #expect(watch.noRetry)
        #expect(try GeoTrack.parseCommandLine(["--device=/dev/ttyUSB0"]) is GeoTrack.Watch)
        #expect(try GeoTrack.parseCommandLine(["auth"]) is GeoTrack.Auth.Status)
        #expect(try GeoTrack.parseCommandLine(["replay", "x.nmea"]) is GeoTrack.Replay)
        for root in [["--version"], ["--help"], ["-h"], ["-help"], ["--help-hidden"], ["--experimental-dump-help"],
                     ["--generate-completion-script", "bash"], ["--generate-completion-script=zsh"], ["help"], ["help", "replay"]] {
            #expect(GeoTrack.routed(root) == root, "\(root)")
        }
        #expect(GeoTrack.routed(["--gpsd", "h:1", "--version"]) == ["watch", "--gpsd", "h:1", "--version"])
        #expect(GeoTrack.routed(["frobnicate"]) == ["frobnicate"])
        // From the binary: `--version` at the root and after watch's options, watch's options alone.
        let home = try TestSupport.temporaryDirectory()
        let version = try await TestSupport.geotrack(["--version"], home: home)
        #expect(try await TestSupport.geotrack(["--gpsd", "127.0.0.1:1", "--version"], home: home).stdout == version.stdout)
        let help = try await TestSupport.geotrack(["--gpsd", "127.0.0.1:1", "--help"], home: home)
        #expect(help.stdout.contains("USAGE: geotrack watch"))
    }

    @Test("a word that names no command, directly or after help, is 64 with the commands it could be; commands and help for them are left to the parser",
          arguments: [
              (["frobnicate"], "no command 'frobnicate'; the commands are watch, replay, sky, stats, auth, devices, fleet, outbox, serve (see 'geotrack --help')"),
              (["help", "frobnicate"], "no command 'frobnicate'; the commands are watch, replay, sky, stats, auth, devices, fleet, outbox, serve (see 'geotrack --help')"),
              (["outbox", "send"], "no command 'outbox send'; the outbox commands are list, flush, clear, retry (see 'geotrack outbox --help')"),
              (["help", "auth", "allow"], "no command 'auth allow'; the auth commands are status, grant, deny, reset (see 'geotrack auth --help')"),
          ])
    func unknownCommands(arguments: [String], message: String) async throws {
        #expect(GeoTrack.unknownCommand(arguments)?.message == message)
        let run = try await TestSupport.geotrack(arguments, home: try TestSupport.temporaryDirectory())
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr == "geotrack: \(message)\n")
        #expect(run.stdout.isEmpty, "the root's help printed as if asked for: \(run.stdout.prefix(80))")
        for known in [[], ["help"], ["help", "outbox", "flush"], ["outbox"], ["replay", "frobnicate.nmea"], ["--gpsd", "h:1"],
                      ["auth", "grant", "extra"], ["watch", "--", "frobnicate"]] {
            #expect(GeoTrack.unknownCommand(known) == nil, "\(known)")
        }
    }

    @Test("a file whose name starts with a dash is 64 saying to write ./NAME or --, not the help with status 0 (-dash.nmea read as -d -a -s -h…); ./NAME and -- work")
    func dashedFileName() async throws {
        let home = try TestSupport.temporaryDirectory()
        let walk = TestSupport.packageRoot.appendingPathComponent("Tests/GeoTrackCLITests/Logs/walk.nmea").path
        try FileManager.default.copyItem(atPath: walk, toPath: home.appendingPathComponent("-dash.nmea").path)
        /// geotrack with `arguments`, run in `home`, where `-dash.nmea` is.
        func inHome(_ arguments: [String]) async throws -> TestSupport.Run {
            try await TestSupport.run("/bin/sh", ["-c", #"cd "$1" && shift && exec "$@""#, "sh", home.path, TestSupport.binary] + arguments,
                                      environment: ["HOME": home.path, "XDG_STATE_HOME": home.appendingPathComponent("state").path])
        }
        for arguments in [["stats", "-dash.nmea"], ["replay", "-dash.nmea", "--json"], ["replay", "--json", "-dash.nmea"]] {
            let run = try await inHome(arguments)
            #expect(run.status == 64, "\(arguments): \(run.stderr)")
            #expect(run.stderr == "geotrack: '-dash.nmea' would be read as options; to name that file, write ./-dash.nmea or put -- before it\n",
                    "\(arguments): \(run.stderr)")
            #expect(run.stdout.isEmpty, "\(arguments): \(run.stdout.prefix(80))")
        }
        for arguments in [["stats", "./-dash.nmea"], ["stats", "--", "-dash.nmea"], ["replay", "--json", "--", "-dash.nmea"]] {
            let run = try await inHome(arguments)
            #expect(run.status == 0, "\(arguments): \(run.stderr)")
            #expect(!run.stdout.isEmpty, "\(arguments)")
        }
        // Options themselves, and a dashed word that names no file, are left to the parser.
        #expect(GeoTrack.dashedFileName(["--json", "-q", "-", "-nosuch.nmea"]) == nil)
    }

    @Test("a usage error is one line in lower case, pointing at the help of the very command it is about, however deep",
          arguments: [
              (["outbox", "clear"], "geotrack: name one destination, or give --all; see 'geotrack outbox clear --help'\n"),
              (["auth", "status", "extra"], "geotrack: unexpected argument 'extra'; see 'geotrack auth status --help'\n"),
              (["replay"], "geotrack: missing expected argument '<file>'; see 'geotrack replay --help'\n"),
              (["--bogus"], "geotrack: unknown option '--bogus'; see 'geotrack watch --help'\n"),
              (["stats", "--json"], "geotrack: missing expected argument '<file> ...'; see 'geotrack stats --help'\n"),
          ])
    func usageLinePointsAtTheCommand(arguments: [String], stderr: String) async throws {
        let run = try await TestSupport.geotrack(arguments, home: try TestSupport.temporaryDirectory())
        #expect(run.status == 64)
        #expect(run.stderr == stderr)
        #expect(run.stdout.isEmpty)
    }

    @Test("usage errors exit 64", arguments: [
        ["watch", "--count", "0"], ["watch", "--gpsd", "host:99999"], ["replay"], ["watch", "--timeout", "3"],
        ["watch", "--once", "--count", "2"], ["replay", "x.nmea", "--speed", "0"], ["watch", "--format", "utm"], ["frobnicate"],
    ])
    func usage(arguments: [String]) async throws {
        let run = try await TestSupport.geotrack(arguments, home: try TestSupport.temporaryDirectory())
        #expect(run.status == 64, "\(arguments): \(run.stderr)")
        // One line, like every other error, saying where help is.
        let lines = run.stderr.split(whereSeparator: \.isNewline)
        #expect(lines.count == 1, "\(arguments): \(run.stderr)")
        #expect(run.stderr.hasPrefix("geotrack: "))
        #expect(run.stderr.contains("--help'"))
    }

    /// A negative number looks like an option to the parser: without taking the value as it
    /// comes, "--timeout -1" was "Missing value for '--timeout'", which the user had given.
    @Test("a negative number for a numeric option is judged as a number: its range, not a missing value", arguments: [
        (["watch", "--publish-interval", "-1"], "--publish-interval must be 1 to"),
        (["watch", "--publish-wait", "-1"], "--publish-wait must be 0 to"),
        (["watch", "--timeout", "-1"], "--timeout must be more than 0"),
        (["watch", "--count", "-1"], "--count must be at least 1"),
        (["watch", "--gpx-min-move", "-3"], "--gpx-min-move must be 0 or more"),
        (["watch", "--gpx-min-interval", "-3"], "--gpx-min-interval must be 0 or more"),
        (["watch", "--gpx-segment-after", "-3"], "--gpx-segment-after must be more than 0"),
        (["replay", "x.nmea", "--speed", "-2"], "--speed must be from 0.001"),
        (["outbox", "flush", "--timeout", "-1"], "--timeout must be more than 0"),
        (["devices", "--timeout", "-1"], "--timeout must be more than 0"),
        (["fleet", "mqtt://127.0.0.1", "--stale", "-1"], "--stale must be"),
    ])
    func negativeNumbers(arguments: [String], message: String) async throws {
        let run = try await TestSupport.geotrack(arguments, home: try TestSupport.temporaryDirectory())
        #expect(run.status == 64, "\(arguments): \(run.stderr)")
        #expect(run.stderr.hasPrefix("geotrack: \(message)"), "\(arguments): \(run.stderr)")
    }

    @Test("a bad configuration value exits 78 with one line naming key, value and what is allowed")
    func badConfig() async throws {
        let home = try TestSupport.temporaryDirectory()
        let file = home.appendingPathComponent("bad.yaml")
        try "display:\n  units: furlongs\n".write(to: file, atomically: true, encoding: .utf8)
        let run = try await TestSupport.geotrack(["watch", "--config", file.path], home: home)
        #expect(run.status == 78)
        #expect(run.stderr == "geotrack: config: display.units = 'furlongs' in \(file.path) is not allowed; use metric, imperial, nautical\n")
        let environment = try await TestSupport.geotrack(["replay", "x.nmea"], home: home, environment: ["GEOTRACK_GPSD_PORT": "http"])
        #expect(environment.status == 78)
        #expect(environment.stderr.contains("gpsd.port = 'http' in GEOTRACK_GPSD_PORT"))
    }

    @Test("a gpsd host that does not resolve is not blamed on --gpsd when the environment or the file set it: exit 69")
    func unknownHostAdvice() async throws {
        let home = try TestSupport.temporaryDirectory()
        try await TestSupport.grantAccess(home: home)
        // The README's tour sets the host in the environment; the advice said "given with --gpsd".
        for arguments in [["watch", "--once", "--no-retry"], ["devices", "--timeout", "5"]] {
            let run = try await TestSupport.geotrack(arguments, home: home, environment: ["GEOTRACK_GPSD_HOST": "no-such-gpsd.invalid"])
            #expect(run.status == 69, "\(arguments): \(run.stderr)")
            #expect(run.stderr.hasPrefix("geotrack: cannot connect to gpsd at no-such-gpsd.invalid:2947: "), "\(arguments): \(run.stderr)")
            #expect(run.stderr.hasSuffix(". Check the host name (--gpsd, gpsd.host in the configuration file, or GEOTRACK_GPSD_HOST).\n"),
                    "\(arguments): \(run.stderr)")
        }
    }

    @Test("a visit dwell too long for a duration exits 78 naming the bound; a year is still taken",
          arguments: ["1e16", "1e18", "31622401"])
    func visitDwellBound(dwell: String) async throws {
        let home = try TestSupport.temporaryDirectory()
        let walk = TestSupport.packageRoot.appendingPathComponent("Tests/GeoTrackCLITests/Logs/walk.nmea").path
        // 10^16 seconds and more stopped geotrack on a trap (status 132) with nothing said.
        let run = try await TestSupport.geotrack(["replay", walk, "--visits"], home: home,
                                                 environment: ["GEOTRACK_LOCATION_VISIT_DWELL": dwell])
        #expect(run.status == 78, "\(run.stderr)")
        #expect(run.stderr == "geotrack: config: location.visit_dwell = '\(dwell)' in GEOTRACK_LOCATION_VISIT_DWELL is not allowed; "
            + "use a number of more than 0 and at most 31622400\n")
        let year = try await TestSupport.geotrack(["replay", walk, "--visits"], home: home,
                                                  environment: ["GEOTRACK_LOCATION_VISIT_DWELL": "31622400"])
        #expect(year.status == 0, "\(year.stderr)")
        #expect(year.stdout.hasSuffix("end of \(walk)\n"))
    }

    @Test("auth grant, status, deny, reset round trip, stored under XDG_STATE_HOME")
    func auth() async throws {
        let home = try TestSupport.temporaryDirectory()
        #expect(try await TestSupport.geotrack(["auth", "status"], home: home).stdout == "notDetermined\n")
        #expect(try await TestSupport.geotrack(["auth", "grant"], home: home).status == 0)
        #expect(try await TestSupport.geotrack(["auth"], home: home).stdout == "authorizedAlways\n")
        #expect(FileManager.default.fileExists(atPath: home.appendingPathComponent("state/geotrack/authorization").path))
        #expect(try await TestSupport.geotrack(["auth", "deny"], home: home).status == 0)
        #expect(try await TestSupport.geotrack(["auth", "status"], home: home).stdout == "denied\n")
        let denied = try await TestSupport.geotrack(["watch"], home: home)
        #expect(denied.status == 77)
        #expect(denied.stderr == "geotrack: location access denied: run 'geotrack auth grant' to allow it\n")
        #expect(try await TestSupport.geotrack(["auth", "reset"], home: home).status == 0)
        #expect(try await TestSupport.geotrack(["auth", "status"], home: home).stdout == "notDetermined\n")
    }

    @Test("watch without a terminal never waits on a prompt: exit 79 naming 'geotrack auth grant'")
    func nonInteractiveWatch() async throws {
        let home = try TestSupport.temporaryDirectory()
        let run = try await TestSupport.geotrack([], home: home, input: "a\n")
        #expect(run.status == 79)
        #expect(run.stderr.contains("geotrack auth grant"))
        #expect(run.stderr.split(separator: "\n").count == 1)
        #expect(run.stdout.isEmpty)
    }

    @Test("every command names itself, so starting never derives a name from a type")
    func explicitCommandNames() {
        // Without a name, ArgumentParser calls String(describing:) on the type, whose casts scan
        // every protocol conformance in the binary: a fifth of `geotrack --version`'s time.
        var names: [String] = []
        func visit(_ command: any ParsableCommand.Type, path: String) {
            let name = command.configuration.commandName
            #expect(name != nil, "\(command) has no commandName")
            let full = path.isEmpty ? (name ?? "?") : "\(path) \(name ?? "?")"
            names.append(full)
            for sub in command.configuration.subcommands { visit(sub, path: full) }
        }
        visit(GeoTrack.self, path: "")
        #expect(names.sorted() == [
            "geotrack", "geotrack auth", "geotrack auth deny", "geotrack auth grant", "geotrack auth reset",
            "geotrack auth status", "geotrack devices", "geotrack fleet", "geotrack outbox", "geotrack outbox clear",
            "geotrack outbox flush", "geotrack outbox list", "geotrack outbox retry", "geotrack replay", "geotrack serve", "geotrack sky", "geotrack stats",
            "geotrack watch",
        ])
    }
}
