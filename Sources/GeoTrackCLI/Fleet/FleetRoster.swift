import FoundationEssentials
import OwnTracks
#if canImport(Glibc)
import Glibc
#endif

/// Every device the fleet view has heard from, by `USER/DEVICE`: its last location, the regions
/// it is in, and whether it went away (its last will).
package struct FleetRoster: Sendable, Equatable {
    /// One device.
    package struct Device: Sendable, Equatable {
        /// `USER/DEVICE`.
        package var name: String
        /// The last location received, if any yet.
        package var location: OwnTracksLocation?
        /// The regions it is in: from its last location, updated by transitions since.
        package var regions: Set<String> = []
        /// Whether the broker published its last will after the last location (it went offline).
        package var gone = false
        /// When the kept location arrived, in seconds since 1970.
        package var receivedAt: Double?
        /// The last transition, for a device that sends only those (no location yet).
        package var lastTransition: OwnTracksTransition?

        /// The time the kept location may be trusted to: its `tst`, but never past when it
        /// arrived. A device whose clock ran ahead once (a `tst` next year) is not frozen by
        /// it: what it sends later, at a true time, still replaces it.
        var trustedTime: Double? {
            guard let location else { return nil }
            let told = Double(location.timestamp)
            return receivedAt.map { min(told, $0) } ?? told
        }
    }

    /// The devices, by name.
    package private(set) var devices: [String: Device] = [:]

    /// Creates an empty roster.
    package init() {}

    /// Takes in a message received on `topic` at `receivedAt`; returns whether anything shown
    /// changed. Messages on other topics, and locations older than the one kept (a retained
    /// message arriving late), change nothing.
    @discardableResult
    package mutating func receive(topic: String, message: OwnTracksMessage, receivedAt: Date = Date()) -> Bool {
        guard let parsed = OwnTracksTopic(topic: topic) else { return false }
        let name = parsed.name
        var device = devices[name] ?? Device(name: name)
        switch message {
        case .location(let location):
            if let trusted = device.trustedTime, trusted > Double(location.timestamp) { return false }
            device.location = location
            device.receivedAt = receivedAt.timeIntervalSince1970
            device.regions = Set(location.regions ?? [])
            device.gone = false
        case .transition(let transition):
            switch transition.event {
            case .enter: device.regions.insert(transition.region)
            case .leave: device.regions.remove(transition.region)
            }
            device.lastTransition = transition
        case .lastWill:
            device.gone = true
        case .other:
            return false
        }
        let changed = devices[name] != device
        devices[name] = device
        return changed
    }

    /// The devices in name order.
    package var sorted: [Device] {
        devices.values.sorted { $0.name < $1.name }
    }
}
