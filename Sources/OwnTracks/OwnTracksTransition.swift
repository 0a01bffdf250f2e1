/// OwnTracks' `transition` message: the device entered or left a region (published on the
/// device's `…/event` topic).
public struct OwnTracksTransition: Sendable, Hashable {
    /// Entering or leaving.
    public enum Event: String, Sendable, Hashable, Codable {
        /// The device entered the region.
        case enter
        /// The device left the region.
        case leave
    }

    /// Entered or left.
    public var event: Event
    /// The region's name (`desc`).
    public var region: String
    /// The time of the fix that crossed the boundary, in whole seconds since 1970 (`tst`).
    public var timestamp: Int
    /// Where the device was (`lat`, `lon`), if known.
    public var latitude: Double?
    /// Where the device was, if known.
    public var longitude: Double?
    /// Horizontal accuracy in metres (`acc`), if known.
    public var accuracy: Int?
    /// The tracker id (`tid`).
    public var trackerID: String?
    /// When the region (OwnTracks' waypoint) was made, in whole seconds since 1970 (`wtst`,
    /// which the booklet requires); nil only for a message read without one.
    public var waypointTimestamp: Int?

    /// Creates a transition.
    public init(event: Event, region: String, timestamp: Int, latitude: Double? = nil, longitude: Double? = nil,
                accuracy: Int? = nil, trackerID: String? = nil, waypointTimestamp: Int? = nil) {
        self.event = event
        self.region = region
        self.timestamp = timestamp
        self.latitude = latitude
        self.longitude = longitude
        self.accuracy = accuracy
        self.trackerID = trackerID
        self.waypointTimestamp = waypointTimestamp
    }
}

extension OwnTracksTransition: Codable {
    enum CodingKeys: String, CodingKey {
        case type = "_type", event, region = "desc", timestamp = "tst", latitude = "lat", longitude = "lon"
        case accuracy = "acc", trackerID = "tid", trigger = "t", waypointTimestamp = "wtst"
    }

    /// Reads a transition message.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard try container.decode(String.self, forKey: .type) == "transition" else {
            throw DecodingError.dataCorruptedError(forKey: .type, in: container, debugDescription: "not a transition")
        }
        event = try container.decode(Event.self, forKey: .event)
        region = try container.decodeIfPresent(String.self, forKey: .region) ?? ""
        // A string tst is read too; none at all is the time of receipt, as for locations.
        guard let time = OwnTracksNumber.decode(container, .timestamp).flatMap({ OwnTracksNumber.whole($0, rounding: .towardZero) })
                ?? OwnTracksMessage.receivedAt(decoder) else {
            throw DecodingError.dataCorruptedError(forKey: .timestamp, in: container, debugDescription: "bad tst")
        }
        timestamp = time
        latitude = OwnTracksNumber.decode(container, .latitude)
        longitude = OwnTracksNumber.decode(container, .longitude)
        accuracy = OwnTracksNumber.decode(container, .accuracy).flatMap { OwnTracksNumber.whole($0) }.flatMap { $0 < 0 ? nil : $0 }
        trackerID = try? container.decodeIfPresent(String.self, forKey: .trackerID)
        waypointTimestamp = OwnTracksNumber.decode(container, .waypointTimestamp)
            .flatMap { OwnTracksNumber.whole($0, rounding: .towardZero) }
    }

    /// Writes the message with `_type` `transition` and trigger `c` (a circular region).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("transition", forKey: .type)
        try container.encode(event, forKey: .event)
        try container.encode(region, forKey: .region)
        try container.encode(timestamp, forKey: .timestamp)
        try container.encodeIfPresent(waypointTimestamp, forKey: .waypointTimestamp)
        try container.encodeIfPresent(latitude, forKey: .latitude)
        try container.encodeIfPresent(longitude, forKey: .longitude)
        try container.encodeIfPresent(accuracy, forKey: .accuracy)
        try container.encodeIfPresent(trackerID, forKey: .trackerID)
        try container.encode("c", forKey: .trigger)
    }
}
