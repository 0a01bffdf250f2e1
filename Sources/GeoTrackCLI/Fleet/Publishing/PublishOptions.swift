import ArgumentParser
import FoundationEssentials
import OwnTracks
#if canImport(Glibc)
import Glibc
#endif

/// `--publish` and its companions, shared by `watch` and `replay`.
package struct PublishOptions: ParsableArguments {
    @Option(name: .customLong("publish"), help: ArgumentHelp(
        "Publish every location to this MQTT broker in OwnTracks' format (mqtt://[user@]host[:port], or mqtts:// for TLS), to OwnTracks' Recorder over HTTP (http://[user@]host[:port][/pub], or https://), or to Traccar in its OsmAnd protocol (osmand://[user@]host[:port], or osmand+https://); repeatable. Messages wait in the outbox until the destination takes them; while one cannot be reached, the status line counts them ('55 queued, broker unreachable'), and at exit, however the run ends, a line says how many wait ('geotrack outbox flush' sends them).",
        valueName: "url"))
    package var urls: [String] = []

    @Option(name: .customLong("publish-user"), help: ArgumentHelp(
        "The USER in owntracks/USER/DEVICE, and the Recorder's u over HTTP (default: your login name).", valueName: "name"))
    package var user: String?

    @Option(name: .customLong("publish-device"), help: ArgumentHelp(
        "The DEVICE in owntracks/USER/DEVICE, the Recorder's d over HTTP, and the id Traccar knows the device by (default: the host name).", valueName: "name"))
    package var device: String?

    @Option(name: .customLong("publish-tid"), help: ArgumentHelp(
        "The tracker id OwnTracks shows on maps, 1 or 2 characters (default: the device name's last two letters or digits).",
        valueName: "id"))
    package var trackerID: String?

    @Option(name: .customLong("publish-wait"), parsing: .unconditional, help: ArgumentHelp(
        "When the run ends by itself, wait this long for the destinations to take what is queued (a signal never waits); the rest stays in the outbox.",
        valueName: "seconds"))
    package var wait: Double = 10

    @Option(name: .customLong("publish-interval"), parsing: .unconditional, help: ArgumentHelp(
        "Publish at most one location per this many whole seconds (at least 1: a device's tst, in whole seconds, never repeats).",
        valueName: "seconds"))
    package var interval: Int = 1

    @Flag(name: .customLong("publish-home-assistant"), help: ArgumentHelp(
        "Also announce the device to Home Assistant over MQTT (discovery: a device_tracker whose config is retained under homeassistant/)."))
    package var homeAssistant = false

    @OptionGroup package var broker: BrokerOptions

    package init() {}

    package func validate() throws {
        var destinations: [PublishDestination] = []
        for url in urls {
            do {
                destinations.append(try PublishDestination(url: url))
            } catch {
                throw ValidationError(error.message)
            }
        }
        if let user, !OwnTracksTopic.isValidPart(user) {
            throw ValidationError("--publish-user must be a name of 1 to 256 bytes without /, +, # or control characters.")
        }
        if let device, !OwnTracksTopic.isValidPart(device) {
            throw ValidationError("--publish-device must be a name of 1 to 256 bytes without /, +, # or control characters.")
        }
        if let trackerID, !(1...2).contains(trackerID.count) || trackerID.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            throw ValidationError("--publish-tid must be 1 or 2 printable characters.")
        }
        guard (1...Int(OutputOptions.maximumTimeout)).contains(interval) else {
            throw ValidationError("--publish-interval must be 1 to \(Int(OutputOptions.maximumTimeout)) whole seconds (got \(interval)).")
        }
        guard wait >= 0, wait.isFinite, wait <= OutputOptions.maximumTimeout else {
            throw ValidationError("--publish-wait must be 0 to \(Int(OutputOptions.maximumTimeout)) seconds (got \(wait)).")
        }
        // Without --publish, the configuration's destinations may be where they go: checked
        // once the configuration is read (checkHasDestination).
        try broker.checkPasswordHasUser(destinations, option: "--publish")
        // Without --publish, the configuration's destinations may hold the broker: checked once they are known.
        if homeAssistant, !destinations.isEmpty, !destinations.contains(where: { !$0.isHTTP }) {
            throw ValidationError("--publish-home-assistant announces the device on an MQTT broker; give --publish mqtt://HOST (or mqtts://) too.")
        }
    }

    /// Fails when a flag that only publishing reads (`--publish-user`, `--publish-device`,
    /// `--publish-tid`, the broker's files) is given and nothing is published: no `--publish`
    /// URL, and no `publish.destinations` in the configuration (`configured`), whose
    /// destinations those flags name and log in to as they would `--publish`'s.
    package func checkHasDestination(configured: [String]) throws(CLIError) {
        guard urls.isEmpty, configured.isEmpty else { return }
        if user != nil || device != nil || trackerID != nil || broker.passwordFile != nil || broker.caFile != nil
            || broker.certificateFile != nil {
            throw CLIError(.usage, "--publish-user, --publish-device, --publish-tid and the broker's files need a destination: "
                           + "--publish URL, or publish.destinations in the configuration")
        }
    }

    /// Where to publish (checked by `validate()`).
    package func destinations() throws(CLIError) -> [PublishDestination] {
        var seen: Set<PublishDestination> = []
        var result: [PublishDestination] = []
        for url in urls {
            let destination = try PublishDestination(url: url)
            if seen.insert(destination).inserted { result.append(destination) }
        }
        return result
    }

    /// `owntracks/USER/DEVICE`, from the flags or the login and host names.
    package func topic() throws(CLIError) -> OwnTracksTopic {
        guard let topic = OwnTracksTopic(user: user ?? Self.loginName(), device: device ?? Self.hostName()) else {
            throw CLIError(.usage, "--publish-user and --publish-device must be names of 1 to 256 bytes without /, +, # or control characters")
        }
        return topic
    }

    /// The login name, for the default user.
    static func loginName() -> String {
        if let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name {
            let login = String(cString: name)
            if OwnTracksTopic.isValidPart(login) { return login }
        }
        return "geotrack"
    }

    /// The host name, for the default device.
    static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "device" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return OwnTracksTopic.isValidPart(name) ? name : "device"
    }
}
