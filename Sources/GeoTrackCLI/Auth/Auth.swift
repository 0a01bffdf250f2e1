import ArgumentParser
import FoundationEssentials
import LocationKit
#if canImport(Glibc)
import Glibc
#endif

extension GeoTrack {
    /// `geotrack auth status|grant|deny|reset`: the stored location-access decision.
    ///
    /// Its subcommands are synchronous: each reads or writes one small file, so they run where
    /// the command line was parsed, on the main thread, and no worker thread is started for them.
    package struct Auth: ParsableCommand {
        package static let configuration = CommandConfiguration(
            commandName: "auth",
            abstract: "Show or change whether geotrack may use your location.",
            discussion: "'watch' asks on its first run at a terminal; these commands answer ahead of time, for scripts and services.",
            subcommands: [Status.self, Grant.self, Deny.self, Reset.self],
            defaultSubcommand: Status.self
        )

        package init() {}

        /// `auth status`.
        package struct Status: ParsableCommand {
            package static let configuration = CommandConfiguration(
                commandName: "status",
                abstract: "Print the decision: notDetermined, authorizedAlways, authorizedWhenInUse, denied or restricted.",
                discussion: "A grant of approximate locations only is followed by '(approximate)'.")
            package init() {}
            package func run() throws {
                // Written, not printed: print casts its argument to find how to write it, and
                // a cast to a new type scans every protocol conformance record in the binary.
                let authorization = try AuthorizationGate.readAuthorization(AuthorizationStore())
                StandardOutput.line("\(authorization)")
            }
        }

        /// `auth grant`.
        package struct Grant: ParsableCommand {
            package static let configuration = CommandConfiguration(commandName: "grant", abstract: "Allow geotrack to use your location from now on.")

            @Flag(help: "Allow approximate locations only: snapped to a 0.025-degree grid (about 2.8 km), without altitude, speed or course.")
            package var approximate = false

            package init() {}
            package func run() throws {
                let store = AuthorizationStore()
                try AuthorizationGate.grant(in: store, approximate: approximate)
                StandardOutput.line("location access: \(try AuthorizationGate.readAuthorization(store)) (stored in \(store.path))")
            }
        }

        /// `auth deny`.
        package struct Deny: ParsableCommand {
            package static let configuration = CommandConfiguration(commandName: "deny", abstract: "Refuse geotrack the use of your location.")
            package init() {}
            package func run() throws {
                let store = AuthorizationStore()
                try AuthorizationGate.write(.denied, to: store)
                StandardOutput.line("location access: denied (stored in \(store.path))")
                // Positions queued earlier stay queued: say that they are held, and how to drop them.
                let environment = ProcessInfo.processInfo.environment
                if FileManager.default.fileExists(atPath: OutboxLocation.path(environment: environment)),
                   let waiting = try? OutboxLocation.open(environment: environment).summaries().reduce(0, { $0 + $1.count }),
                   waiting > 0 {
                    StandardOutput.line("the outbox holds \(waiting) queued message\(waiting == 1 ? "" : "s"): held, never sent while access is denied; 'geotrack outbox clear --all' drops them")
                }
            }
        }

        /// `auth reset`.
        package struct Reset: ParsableCommand {
            package static let configuration = CommandConfiguration(commandName: "reset", abstract: "Forget the decision; the next 'watch' at a terminal asks again.")
            package init() {}
            package func run() throws {
                try AuthorizationGate.write(.notDetermined, to: AuthorizationStore())
                StandardOutput.line("location access: notDetermined")
            }
        }
    }
}
