import Foundation
import GeoTrackTesting
import Testing

/// The README's tour, run as a newcomer pastes it after the quick start: every `$ ` line of its
/// code block, with bash, exactly as written, and what each prints held to what the README shows.
///
/// The commands find `geotrack` first on `PATH` (a link to the built binary), keep their state
/// and configuration in a fresh home, and reach a real gpsd, which gpsfake feeds the recorded
/// receiver the tour names, through the `GEOTRACK_GPSD_HOST`/`GEOTRACK_GPSD_PORT` the tour says
/// to export. They run in a fresh folder holding a link to the repository's `Tests`: the tour's
/// relative paths resolve as in a clone's root, and the files it writes (`ride.gpx`, `walk.gpx`)
/// land in that folder, not in the package.
@Suite("The README's tour runs as written", .serialized)
struct TourTests {
    /// One `$ ` line of the tour and the lines the README shows under it.
    struct Step: CustomStringConvertible {
        var command: String
        var shown: [String]

        var description: String { command }

        /// The command without its trailing comment, split into words.
        var words: [String] {
            let code = command.split(separator: /\s+#\s/, maxSplits: 1).first.map(String.init) ?? command
            return code.split(separator: " ").map(String.init)
        }

        /// Whether it asks gpsd: then it prints the receiver's fix of the moment, and what the
        /// README shows is compared in shape (see ``shape(_:)``), not character for character.
        var readsGPSD: Bool {
            words.first == "geotrack" && (words.count == 1 || ["watch", "devices"].contains(words[1]) || words[1].hasPrefix("-"))
        }

        /// Whether it follows gpsd until Ctrl-C: `geotrack` or `geotrack watch` without a count.
        var runsUntilInterrupted: Bool {
            readsGPSD && words.dropFirst().first != "devices" && !words.contains("--once") && !words.contains("--count")
        }
    }

    /// The tour: the first code block under "## A short tour" that holds `$ ` lines.
    static func tour(_ readme: String) -> [Step] {
        let section = readme.components(separatedBy: "\n## A short tour\n").dropFirst().first?
            .components(separatedBy: "\n## ").first ?? ""
        var steps: [Step] = []
        var fenced = false
        for line in section.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("```") {
                if fenced, !steps.isEmpty { break }
                fenced.toggle()
                continue
            }
            guard fenced else { continue }
            if line.hasPrefix("$ ") {
                steps.append(Step(command: String(line.dropFirst(2)), shown: []))
            } else if !steps.isEmpty {
                steps[steps.count - 1].shown.append(line)
            }
        }
        return steps
    }

    /// A line with its numbers and its runs of blanks made alike: the shape of a live fix, whose
    /// figures and column widths are the receiver's of the moment, while its fields, units,
    /// hemispheres and their order are the tool's.
    static func shape(_ line: String) -> String {
        line.replacing(/[0-9]+/, with: "0").replacing(/\s+/, with: " ")
    }

    /// The value the tour's `export` line gives `variable`.
    static func exported(_ variable: String, in readme: String) -> String? {
        let words = readme.split(separator: "\n").filter { $0.hasPrefix("export ") }.flatMap { $0.split(separator: " ") }
        return words.first { $0.hasPrefix(variable + "=") }.map { String($0.dropFirst(variable.count + 1)) }
    }

    @Test("the README has a tour, shows its status line first, and says how geotrack reaches a simulated receiver")
    func tourIsThere() throws {
        let readme = ReadmeTests.readme
        let steps = Self.tour(readme)
        #expect(steps.count >= 8, "\(steps)")
        #expect(steps.contains { $0.runsUntilInterrupted }, "the tour shows the status line")
        #expect(steps.contains { !$0.readsGPSD && !$0.shown.isEmpty }, "the tour shows what a replay prints")
        // The sample on the first screen is the line the tour's `geotrack` shows.
        let status = try #require(steps.first { $0.runsUntilInterrupted })
        let firstBlock = readme.components(separatedBy: "```").dropFirst().first ?? ""
        #expect(firstBlock == "\n" + status.shown.joined(separator: "\n") + "\n")
        #expect(Self.exported("GEOTRACK_GPSD_HOST", in: readme) != nil)
        #expect(Self.exported("GEOTRACK_GPSD_PORT", in: readme) != nil)
        #expect(readme.contains("gpsfake -q -P " + (Self.exported("GEOTRACK_GPSD_PORT", in: readme) ?? "?")),
                "the tour's gpsfake listens where its export points geotrack")
    }

    @Test("every command of the tour exits 0 and prints what the README shows")
    func tourRuns() async throws {
        let readme = ReadmeTests.readme
        let steps = Self.tour(readme)
        try #require(!steps.isEmpty)
        // The recorded receiver the tour tells a newcomer without one to play.
        let log = try #require(readme.firstMatch(of: /gpsfake [^\n]* (Tests\/\S+\.nmea)\n/)?.output.1)
        // Looping, as the README's gpsfake does, at twice its pace (0.05 s a sentence) so the tour
        // takes half the time; the fixes, and so the lines' shapes, are the same.
        let gpsd = try await GPSFake(log: TestSupport.packageRoot.appendingPathComponent(String(log)).path, cycle: 0.05, once: false)

        let root = try TestSupport.temporaryDirectory()
        let bin = root.appendingPathComponent("bin"), clone = root.appendingPathComponent("clone")
        for folder in [bin, clone, root.appendingPathComponent("home")] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        try FileManager.default.createSymbolicLink(atPath: bin.appendingPathComponent("geotrack").path,
                                                   withDestinationPath: TestSupport.binary)
        try FileManager.default.createSymbolicLink(atPath: clone.appendingPathComponent("Tests").path,
                                                   withDestinationPath: TestSupport.packageRoot.appendingPathComponent("Tests").path)
        let environment = [
            "PATH": bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
            "HOME": root.appendingPathComponent("home").path,
            "XDG_STATE_HOME": root.appendingPathComponent("state").path,
            "XDG_CONFIG_HOME": root.appendingPathComponent("config").path,
            "GEOTRACK_GPSD_HOST": Self.exported("GEOTRACK_GPSD_HOST", in: readme) ?? "localhost",
            "GEOTRACK_GPSD_PORT": String(gpsd.port),
        ]
        // bash runs the line as written, from the clone's folder; pipefail so that a geotrack
        // failing before `| jq` or `| tail` fails the step.
        let shell = ["/bin/bash", "-c", #"cd -- "$1" && exec bash -o pipefail -c "$2""#, "tour", clone.path]

        for step in steps {
            if step.runsUntilInterrupted {
                // A step that failed is recorded; the later ones still run and are checked.
                do {
                    try await Self.runInTerminal(step, shell: shell, environment: environment)
                } catch {
                    Issue.record("\(step): \(error)")
                }
                continue
            }
            let child = try ChildProcess(shell[0], Array(shell.dropFirst()) + [step.command], environment: environment)
            guard let status = await child.status(within: 120) else {
                child.signal(SIGKILL, group: true)
                Issue.record("\(step) did not end within 120 s; stdout:\n\(child.stdout)\nstderr:\n\(child.stderr)")
                continue
            }
            #expect(status == 0, "\(step): \(child.stderr)")
            #expect(!child.stdout.isEmpty, "\(step) printed nothing")
            guard !step.shown.isEmpty else { continue }
            let printed = child.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
            if step.readsGPSD {
                // `--once` shows the first fix on the connection, which may come before gpsd's
                // first SKY on it: then it has no satellite count, as the README says after the tour.
                let withoutCount = step.words.contains("--once") ? step.shown.map { Self.shape($0).replacing(" 0 sats", with: "") } : nil
                #expect(printed.map(Self.shape) == step.shown.map(Self.shape) || printed.map(Self.shape) == withoutCount,
                        "\(step) printed\n\(child.stdout)where the README shows\n\(step.shown.joined(separator: "\n"))")
            } else {
                #expect(printed == step.shown, "\(step) printed\n\(child.stdout)")
            }
        }
    }

    /// Runs a command that follows gpsd until Ctrl-C in a terminal: waits until its status line
    /// has the shape the README shows, then presses Ctrl-C and expects status 0.
    static func runInTerminal(_ step: Step, shell: [String], environment: [String: String],
                              sourceLocation: SourceLocation = #_sourceLocation) async throws {
        #expect(step.shown.count == 1, "\(step): the README shows one status line", sourceLocation: sourceLocation)
        let expected = step.shown.first.map(shape) ?? ""
        // tmux starts a session's command with the PATH of the tmux client, whatever `-e` says.
        let path = ["/usr/bin/env", "PATH=" + (environment["PATH"] ?? "")]
        let session = try await TmuxSession(width: 120, height: 10, command: path + shell + [step.command], environment: environment)
        try await session.waitFor("\(step): a status line shaped like the README's", timeout: 60, sourceLocation: sourceLocation) { lines in
            lines.contains { shape($0) == expected }
        }
        try await session.send("C-c")
        #expect(try await session.waitForExit(timeout: 30, sourceLocation: sourceLocation) == 0, "\(step)", sourceLocation: sourceLocation)
    }
}
