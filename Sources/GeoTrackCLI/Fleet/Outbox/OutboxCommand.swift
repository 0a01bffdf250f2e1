import ArgumentParser
import FoundationEssentials
import GPSReports
import HTTP
import LocationKit
import MQTT
import Outbox
import Publishing
#if canImport(Glibc)
import Glibc
#endif

extension GeoTrack {
    /// `geotrack outbox`: what waits for a broker, and sending or deleting it.
    package struct OutboxCommand: AsyncParsableCommand {
        package static let configuration = CommandConfiguration(
            commandName: "outbox",
            abstract: "List, send or delete the messages --publish queued for brokers that did not take them yet.",
            discussion: """
            Every published message is written to the outbox ($XDG_STATE_HOME/geotrack/outbox.sqlite) first, and \
            leaves it when the broker acknowledges it. Destinations are named by broker and topic, as 'list' shows them.
            """,
            subcommands: [List.self, Flush.self, Clear.self, Retry.self],
            defaultSubcommand: List.self
        )

        package init() {}

        /// `geotrack outbox list`.
        package struct List: ParsableCommand {
            package static let configuration = CommandConfiguration(
                commandName: "list",
                abstract: "Show what waits, per destination: messages, the oldest one's age, and how many were dropped.")

            @Flag(help: "One JSON object per destination.")
            package var json = false

            package init() {}

            /// One destination in `--json`.
            private struct Line: Encodable {
                let destination: String
                let messages: Int
                let dropped: Int
                let oldest: String?
                let deadLetters: Int
                let deadLetterReason: String?

                enum CodingKeys: String, CodingKey {
                    case destination, messages, dropped, oldest
                    case deadLetters = "dead_letters", deadLetterReason = "dead_letter_reason"
                }
            }

            package func run() throws {
                let environment = ProcessInfo.processInfo.environment
                let path = OutboxLocation.path(environment: environment)
                guard FileManager.default.fileExists(atPath: path) else {
                    if !json { StandardOutput.line("The outbox is empty (\(path) does not exist yet).") }
                    return
                }
                let outbox = try OutboxLocation.open(environment: environment)
                let summaries: [OutboxSummary]
                do {
                    summaries = try outbox.summaries()
                } catch {
                    throw CLIError(.ioError, error.message)
                }
                let now = Date()
                if json {
                    let encoder = JSONEncoder()
                    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                    for summary in summaries {
                        let line = Line(destination: summary.destination, messages: summary.count, dropped: summary.dropped,
                                        oldest: summary.oldest.map(UTCText.timestamp), deadLetters: summary.deadLetters,
                                        deadLetterReason: summary.deadLetterReason)
                        if let data = try? encoder.encode(line) {
                            StandardOutput.line(String(decoding: JSONWriter.escapingControls(data), as: UTF8.self))
                        }
                    }
                    return
                }
                guard !summaries.isEmpty else {
                    StandardOutput.line("The outbox is empty.")
                    return
                }
                for summary in summaries {
                    var line = "\(Terminal.safe(summary.destination))  \(summary.count) message\(summary.count == 1 ? "" : "s")"
                    if let oldest = summary.oldest {
                        line += ", the oldest \(AgeText.text(now.timeIntervalSince(oldest))) old"
                    }
                    if summary.dropped > 0 { line += ", \(summary.dropped) dropped (outbox full)" }
                    if summary.deadLetters > 0 {
                        // Never sent, never retried: say why, and how to be rid of them.
                        line += ", \(summary.deadLetters) set aside as undeliverable ("
                            + Terminal.safe(summary.deadLetterReason ?? "unknown")
                            + "; once that is mended, 'geotrack outbox retry' queues them again, 'geotrack outbox clear' deletes them)"
                    }
                    StandardOutput.line(line)
                }
                StandardOutput.line("\(outbox.sizeOnDisk() / 1024) KiB in \(path)")
            }
        }

        /// `geotrack outbox flush`.
        package struct Flush: AsyncParsableCommand {
            package static let configuration = CommandConfiguration(
                commandName: "flush",
                abstract: "Send what waits now, to every destination (or one), and wait for the brokers to take it.",
                discussion: "Exit status 0 when the outbox is empty afterwards, 66 when it holds no such destination ('geotrack outbox list' names those it holds), 73 when another geotrack is sending a destination's messages now (they are left to it), 69 when a broker could not be reached in time, 74 when the outbox cannot remove what a broker took (a full disk: it stops sending), 77 when one refused the login, or when location access is not granted with precise locations (queued positions are then held: 'geotrack auth grant' sends them). Ctrl-C, SIGTERM or SIGHUP stops it early with status 0, after a line saying what was delivered and what still waits; the rest stays queued.")

            @Argument(help: ArgumentHelp("Only this destination, as 'geotrack outbox' lists it.", valueName: "destination"))
            package var destination: String?

            @Option(parsing: .unconditional, help: ArgumentHelp("Give up after this many seconds, for all destinations together: they are flushed at once.", valueName: "seconds"))
            package var timeout: Double = 30

            @OptionGroup package var broker: BrokerOptions

            package init() {}

            package func validate() throws {
                try OutputOptions.checkTimeout(timeout)
            }

            package func run() async throws {
                let environment = ProcessInfo.processInfo.environment
                guard FileManager.default.fileExists(atPath: OutboxLocation.path(environment: environment)) else {
                    if let destination { throw Target.unknown(destination, known: []) }
                    StandardOutput.line("Nothing to send: the outbox is empty.")
                    return
                }
                let outbox = try OutboxLocation.open(environment: environment)
                let credentials = try broker.credentials(environment: environment)
                let summaries: [OutboxSummary]
                do {
                    summaries = try outbox.summaries()
                } catch {
                    throw CLIError(.ioError, error.message)
                }
                // A destination the outbox does not hold is a typo (or the URL without its topic),
                // not a flush with nothing to do: "nothing waits" would hide what still waits.
                if let destination, !summaries.contains(where: { $0.destination == destination }) {
                    throw Target.unknown(destination, known: summaries.map(\.destination))
                }
                let waiting = summaries.filter { $0.count > 0 && (destination == nil || $0.destination == destination) }
                if let destination, waiting.isEmpty {
                    StandardOutput.line("Nothing waits for \(Terminal.safe(destination)).")
                    return
                }
                if !waiting.isEmpty {
                    try Self.requireAccess(held: waiting.reduce(0) { $0 + $1.count })
                }
                // A signal cancels the flush: the destination being sent to says what it delivered
                // and what still waits, the rest are left as they are, and the run ends with 0.
                let lifecycle = await RunLifecycle(suspends: false, resizes: false)
                // One deadline for the whole flush: every destination is flushed at once, each
                // given until then, so that --timeout bounds the run, however many there are.
                let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
                let work = Task { () async -> [CLIError] in
                    await withTaskGroup(of: (Int, CLIError?).self) { group in
                        for (index, summary) in waiting.enumerated() {
                            group.addTask {
                                guard let target = PublishDestination.parse(outboxKey: summary.destination) else {
                                    return (index, CLIError(.dataError, "cannot read the destination \(Terminal.safe(summary.destination)); 'geotrack outbox clear' it"))
                                }
                                do throws(CLIError) {
                                    return (index, try await Self.flush(summary, index: index, outbox: outbox, destination: target,
                                                                        credentials: credentials, deadline: deadline))
                                } catch {
                                    return (index, error)
                                }
                            }
                        }
                        var failures: [(index: Int, error: CLIError)] = []
                        for await (index, failure) in group {
                            guard let failure else { continue }
                            failures.append((index, failure))
                            // The outbox cannot record deliveries: whatever another destination
                            // took would be sent again too, so the others stop now.
                            if failure.status == .ioError { group.cancelAll() }
                        }
                        return failures.sorted { $0.index < $1.index }.map(\.error)
                    }
                }
                let watcher = Task {
                    for await event in lifecycle.events {
                        guard case .terminate = event else { continue }
                        work.cancel()
                        return
                    }
                }
                let failures = await work.value
                let stopped = work.isCancelled
                watcher.cancel()
                await lifecycle.end()
                if stopped { return }
                // One line per destination that failed, in the outbox's order; the one whose
                // status the run ends with comes last.
                guard let last = failures.indices.max(by: { Self.rank(failures[$0]) < Self.rank(failures[$1]) }) else { return }
                for (index, failure) in failures.enumerated() where index != last {
                    Terminal.standardError("geotrack: \(Terminal.safe(failure.message))")
                }
                throw failures[last]
            }

            /// Which failure the exit status tells when several destinations failed: the outbox's
            /// own (74) first, as nothing can be sent until it is fixed, then a refused login
            /// (77), which waiting cannot cure, then an unreachable destination (69).
            static func rank(_ error: CLIError) -> Int {
                switch error.status {
                case .ioError: 4
                case .noPermission: 3
                case .unavailable: 2
                default: 1
                }
            }

            /// What was queued holds positions: they leave only while precise location access is
            /// granted now (``QueuedPositionHold``). Otherwise nothing is sent and the run ends
            /// with 77, saying how to send or drop them.
            static func requireAccess(held count: Int) throws(CLIError) {
                let store = AuthorizationStore()
                let access = try AuthorizationGate.readAuthorization(store)
                let held = "\(count) queued message\(count == 1 ? " is" : "s are") held"
                let choices = "'geotrack outbox clear --all' drops them"
                switch QueuedPositionHold.of(access) {
                case nil:
                    return
                case .approximate:
                    throw CLIError(.noPermission, "\(held): only approximate locations are allowed, and queued positions may be precise; 'geotrack auth grant' (precise) sends them, \(choices)")
                case .denied:
                    throw CLIError(.noPermission, "\(held) because location access is denied: 'geotrack auth grant' sends them, \(choices)")
                case .restricted:
                    throw CLIError(.noPermission, "\(held) because location access is forbidden by the administrator's policy in \(store.policyPath); \(choices)")
                case .notDetermined:
                    throw CLIError(.noPermission, "\(held) because location access has not been decided: 'geotrack auth grant' sends them, \(choices)")
                }
            }

            /// The outbox could not remove what a destination took (a full disk, a file it may not
            /// write): 74 (EX_IOERR), saying it was delivered, that it will be sent again, and
            /// what to free, rather than that the broker did not take it.
            static func storageError(_ error: OutboxError, unremoved: Int, name: String) -> CLIError {
                let reason = error.reason ?? error.message
                let folder = Terminal.safe(error.folder)
                guard unremoved > 0 else {
                    return CLIError(.ioError, "the outbox could not record what \(name) took (\(reason)); nothing more was sent: free space in \(folder) (or make it writable), then flush again")
                }
                return CLIError(.ioError, "\(unremoved) delivered but could not be removed from the outbox (\(reason)): they will be sent again; nothing more was sent: free space in \(folder) (or make it writable), then flush again")
            }

            private static func flush(_ summary: OutboxSummary, index: Int, outbox: Outbox, destination: PublishDestination,
                                      credentials: BrokerCredentials, deadline: ContinuousClock.Instant) async throws(CLIError) -> CLIError? {
                // A run publishing there now sends this queue itself: two senders would deliver
                // every message twice. It is left to that run, and said.
                let claim: OutboxClaim
                do {
                    claim = try outbox.claim(summary.destination)
                } catch {
                    guard error.code == .claimed else { throw CLIError(.cannotCreate, error.message) }
                    let count = "\(summary.count) message\(summary.count == 1 ? "" : "s")"
                    return CLIError(.temporaryFailure, "\(count) for \(Terminal.safe(summary.destination)) left alone: another \(error.holderName) is sending them now; it delivers them, or stop it and flush again")
                }
                defer { claim.release() }
                let sender: any PublishingSender
                let close: @Sendable () async -> Void
                let target = destination.target(credentials: credentials)
                switch target {
                case .mqtt(let endpoint):
                    let client: MQTTClient
                    do {
                        // One per destination: two on one broker with one id would throw each other off.
                        client = try MQTTClient(clientID: "geotrack-flush-\(getpid())-\(index)", endpoint: endpoint)
                    } catch {
                        throw CLIError(.noInput, error.message)
                    }
                    sender = OutboxSender(outbox: outbox, destination: summary.destination, client: client)
                    close = { await client.close() }
                case .ownTracksHTTP(let endpoint), .osmAnd(let endpoint):
                    let client: HTTPClient
                    do {
                        client = try HTTPClient(endpoint: endpoint)
                    } catch {
                        throw CLIError(.failure, error.message)
                    }
                    guard let request = PublishDestination.request(for: target) else { return nil }
                    sender = HTTPOutboxSender(outbox: outbox, destination: summary.destination, client: client, request: request)
                    close = { client.close() }
                }
                let running = Task { await sender.run() }
                let outcome = await withTaskGroup(of: OutboxSender.DrainOutcome?.self) { group in
                    group.addTask { await sender.waitUntilDelivered() }
                    group.addTask {
                        try? await Task.sleep(until: deadline, clock: .continuous)
                        return nil
                    }
                    let first = await group.next() ?? nil
                    group.cancelAll()
                    return first
                }
                let interrupted = Task.isCancelled
                let delivered = await sender.acknowledgedCount
                let storage = await sender.storageFailure
                let unremoved = await sender.unremovedCount
                let failed = await sender.failureDescription
                let refusal = await sender.refusalDescription
                let connected = await sender.isConnected
                // The sender ends before its client closes: it never publishes on a freed client.
                sender.stop()
                await running.value
                await close()
                let left = (try? outbox.summary(for: summary.destination).count) ?? summary.count
                let name = Terminal.safe(summary.destination)
                let party = destination.isHTTP ? "server" : "broker"
                let url = destination.description
                StandardOutput.line("\(name): \(delivered) delivered, \(left) waiting" + (interrupted ? " (stopped)" : ""))
                if let storage { return Self.storageError(storage, unremoved: unremoved, name: name) }
                if interrupted { return nil }
                switch outcome {
                case .refused?:
                    return CLIError(.noPermission, "\(url) refused the login (\(refusal ?? "refused")); check the user in the destination and --publish-password-file")
                case .delivered? where left == 0:
                    return nil
                default:
                    if let failed {
                        // A server that answered (500, 404…) was reached: what it said is the reason.
                        let cause = HTTPDelivery.isAnswer(failed) ? "\(url): \(failed)" : "cannot connect to \(url): \(failed)"
                        return CLIError(.unavailable, "\(left) message\(left == 1 ? "" : "s") still wait for \(name): \(cause); then flush again")
                    }
                    // Told in the words watch's exit line uses for the same outage: a peer that
                    // never answered as a broker (a TLS port, a silent host) was not reachable.
                    guard connected else {
                        return CLIError(.unavailable, "\(left) message\(left == 1 ? "" : "s") still wait for \(name): the \(party) at \(url) was not reachable; check it is running there, then flush again")
                    }
                    return CLIError(.unavailable, "\(left) message\(left == 1 ? "" : "s") still wait for \(name): \(url) did not take them in time; check the \(party) is running, then flush again")
                }
            }
        }

        /// The destination `clear` and `retry` act on, or `--all`.
        package struct Target: ParsableArguments {
            @Argument(help: ArgumentHelp("The destination, as 'geotrack outbox' lists it.", valueName: "destination"))
            package var destination: String?

            @Flag(help: "Every destination the outbox holds.")
            package var all = false

            package init() {}

            package func validate() throws {
                if all == (destination != nil) {
                    throw ValidationError("Name one destination, or give --all.")
                }
            }

            /// The outbox, having checked that it holds the destination named; nil when there is
            /// no outbox yet and `--all` was given (nothing to act on). A destination the outbox
            /// does not hold is a typo, not an action with nothing to do: "0 messages" would hide
            /// that the real one still waits.
            func open() throws(CLIError) -> Outbox? {
                let environment = ProcessInfo.processInfo.environment
                guard FileManager.default.fileExists(atPath: OutboxLocation.path(environment: environment)) else {
                    if let destination { throw Self.unknown(destination, known: []) }
                    return nil
                }
                let outbox = try OutboxLocation.open(environment: environment)
                let known: [String]
                do {
                    known = try outbox.summaries().map(\.destination)
                } catch {
                    throw CLIError(.ioError, error.message)
                }
                if let destination, !known.contains(destination) { throw Self.unknown(destination, known: known) }
                return outbox
            }

            /// `destination` is not in the outbox: exit 66 (EX_NOINPUT: nothing by that name),
            /// naming the destinations it holds (the first five), or saying it is empty.
            static func unknown(_ destination: String, known: [String]) -> CLIError {
                let name = "'\(Terminal.safe(destination))'"
                guard !known.isEmpty else { return CLIError(.noInput, "no destination \(name) in the outbox, which is empty") }
                let shown = known.sorted().prefix(5).map { "'\(Terminal.safe($0))'" }.joined(separator: ", ")
                let more = known.count > 5 ? " and \(known.count - 5) more" : ""
                return CLIError(.noInput, "no destination \(name) in the outbox; it holds \(shown)\(more) (see 'geotrack outbox list')")
            }
        }

        /// `geotrack outbox clear`.
        package struct Clear: ParsableCommand {
            package static let configuration = CommandConfiguration(
                commandName: "clear",
                abstract: "Delete what waits for one destination, or with --all for every one. Deleted messages are never sent.",
                discussion: "Exit status 66 when the outbox holds no such destination; 'geotrack outbox list' names those it holds.")

            @OptionGroup package var target: Target

            package init() {}

            package func run() throws {
                guard let outbox = try target.open() else {
                    StandardOutput.line("Deleted 0 messages: the outbox is empty.")
                    return
                }
                let deleted: Outbox.Cleared
                do {
                    deleted = try outbox.clear(destination: target.destination)
                } catch {
                    throw CLIError(.ioError, error.message)
                }
                let messages = "\(deleted.messages) message\(deleted.messages == 1 ? "" : "s")"
                let dead = deleted.deadLetters == 0 ? "" : " and \(deleted.deadLetters) dead letter\(deleted.deadLetters == 1 ? "" : "s")"
                StandardOutput.line("Deleted \(messages)\(dead).")
            }
        }

        /// `geotrack outbox retry`: the dead letters back in the queue.
        package struct Retry: ParsableCommand {
            package static let configuration = CommandConfiguration(
                commandName: "retry",
                abstract: "Queue again what a destination refused for good (dead letters), once that is mended: the device added in Traccar, say.",
                discussion: "They go back in the order they were first queued, and are sent as any message: by the next 'watch' or 'replay' publishing there, or 'geotrack outbox flush'. Exit status 66 when the outbox holds no such destination.")

            @OptionGroup package var target: Target

            package init() {}

            package func run() throws {
                guard let outbox = try target.open() else {
                    StandardOutput.line("Queued 0 messages again: the outbox is empty.")
                    return
                }
                let queued: Int
                do {
                    queued = try outbox.requeueDeadLetters(destination: target.destination)
                } catch {
                    throw CLIError(.ioError, error.message)
                }
                let messages = "\(queued) message\(queued == 1 ? "" : "s")"
                StandardOutput.line(queued == 0 ? "Queued 0 messages again: no dead letters." : "Queued \(messages) again: 'geotrack outbox flush' sends them now.")
            }
        }
    }
}
