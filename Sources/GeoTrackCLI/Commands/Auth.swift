import ArgumentParser

extension GeoTrack {
    /// `geotrack auth status|grant|deny|reset`: the stored location-access decision.
    package struct Auth: AsyncParsableCommand {
        package static let configuration = CommandConfiguration(
            abstract: "Show or change whether geotrack may use your location.",
            discussion: "'watch' asks on its first run at a terminal; these commands answer ahead of time, for scripts and services.",
            subcommands: [Status.self, Grant.self, Deny.self, Reset.self],
            defaultSubcommand: Status.self
        )

        package init() {}

        /// `auth status`.
        package struct Status: AsyncParsableCommand {
            package static let configuration = CommandConfiguration(abstract: "Print the stored decision: notDetermined, always or denied.")
            package init() {}
            package func run() async throws {
                let store = AuthorizationStores.default()
                print("\(try store.read().rawValue)")
            }
        }

        /// `auth grant`.
        package struct Grant: AsyncParsableCommand {
            package static let configuration = CommandConfiguration(abstract: "Allow geotrack to use your location from now on.")
            package init() {}
            package func run() async throws {
                let store = AuthorizationStores.default()
                try store.write(.always)
                print("location access: always (stored in \(store.location))")
            }
        }

        /// `auth deny`.
        package struct Deny: AsyncParsableCommand {
            package static let configuration = CommandConfiguration(abstract: "Refuse geotrack the use of your location.")
            package init() {}
            package func run() async throws {
                let store = AuthorizationStores.default()
                try store.write(.denied)
                print("location access: denied (stored in \(store.location))")
            }
        }

        /// `auth reset`.
        package struct Reset: AsyncParsableCommand {
            package static let configuration = CommandConfiguration(abstract: "Forget the decision; the next 'watch' at a terminal asks again.")
            package init() {}
            package func run() async throws {
                let store = AuthorizationStores.default()
                try store.reset()
                print("location access: notDetermined")
            }
        }
    }
}

/// Which store the commands use.
package enum AuthorizationStores {
    /// The store for this process's environment.
    package static func `default`() -> any AuthorizationStoring {
        AuthorizationFileStore()
    }
}
