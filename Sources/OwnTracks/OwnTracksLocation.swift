import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// OwnTracks' `location` message, as its apps, its Recorder and Home Assistant read it.
///
/// Integers where OwnTracks has integers (accuracy, altitude, speed, course); a value that is
/// not known is left out of the JSON, never sent as 0 or NaN.
public struct OwnTracksLocation: Sendable, Hashable {
    /// Latitude in degrees (WGS 84).
    public var latitude: Double
    /// Longitude in degrees (WGS 84).
    public var longitude: Double
    /// The time of the fix, in whole seconds since 1970 (`tst`).
    public var timestamp: Int
    /// Horizontal accuracy in metres (`acc`).
    public var accuracy: Int?
    /// Altitude above mean sea level in metres (`alt`).
    public var altitude: Int?
    /// Vertical accuracy in metres (`vac`).
    public var verticalAccuracy: Int?
    /// Speed in km/h (`vel`).
    public var velocity: Int?
    /// Course over ground in degrees (`cog`).
    public var course: Int?
    /// The tracker id, two characters shown on maps (`tid`).
    public var trackerID: String?
    /// What made the device publish (`t`): `t` for a timer, `u` by hand, `c` a region, `p` a ping.
    public var trigger: String?
    /// The regions the device is in (`inregions`).
    public var regions: [String]?
    /// When the message was made, in whole seconds since 1970 (`created_at`).
    public var createdAt: Int?
    /// The MQTT topic the device publishes to (`owntracks/user/device`), which OwnTracks' iOS app
    /// adds in HTTP mode only (`topic`): Traccar's OwnTracks decoder tells devices apart by it.
    public var topic: String?

    /// Creates a location message.
    public init(latitude: Double, longitude: Double, timestamp: Int, accuracy: Int? = nil, altitude: Int? = nil,
                verticalAccuracy: Int? = nil, velocity: Int? = nil, course: Int? = nil, trackerID: String? = nil,
                trigger: String? = nil, regions: [String]? = nil, createdAt: Int? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.timestamp = timestamp
        self.accuracy = accuracy
        self.altitude = altitude
        self.verticalAccuracy = verticalAccuracy
        self.velocity = velocity
        self.course = course
        self.trackerID = trackerID
        self.trigger = trigger
        self.regions = regions
        self.createdAt = createdAt
    }
}

extension OwnTracksLocation: Codable {
    enum CodingKeys: String, CodingKey {
        case type = "_type"
        case latitude = "lat", longitude = "lon", timestamp = "tst", accuracy = "acc", altitude = "alt"
        case verticalAccuracy = "vac", velocity = "vel", course = "cog", trackerID = "tid", trigger = "t"
        case regions = "inregions", createdAt = "created_at", topic
    }

    /// Reads a location, accepting numbers with fractions where OwnTracks has integers (some
    /// clients send them), and numbers sent as strings (`"tst":"1700000000"`); refuses a
    /// position off the globe. Without a `tst`, the time of receipt in the decoder's
    /// ``OwnTracksMessage/receivedAtKey`` stands for it (the Recorder does the same); iOS's
    /// -1 for a speed, course or accuracy it does not know is read as unknown.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let type = try container.decode(String.self, forKey: .type)
        guard type == "location" else {
            throw DecodingError.dataCorruptedError(forKey: .type, in: container, debugDescription: "not a location: \(type)")
        }
        guard let latitude = OwnTracksNumber.decode(container, .latitude), let longitude = OwnTracksNumber.decode(container, .longitude) else {
            throw DecodingError.keyNotFound(CodingKeys.latitude, .init(codingPath: [], debugDescription: "no lat or lon"))
        }
        self.latitude = latitude
        self.longitude = longitude
        guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180 else {
            throw DecodingError.dataCorruptedError(forKey: .latitude, in: container, debugDescription: "position off the globe")
        }
        guard let timestamp = try Self.integer(container, .timestamp) ?? OwnTracksMessage.receivedAt(decoder) else {
            throw DecodingError.keyNotFound(CodingKeys.timestamp, .init(codingPath: [], debugDescription: "no tst"))
        }
        self.timestamp = timestamp
        // Negative: iOS's "invalid" (-1), never a value.
        accuracy = try Self.integer(container, .accuracy).flatMap { $0 < 0 ? nil : $0 }
        altitude = try Self.integer(container, .altitude)
        verticalAccuracy = try Self.integer(container, .verticalAccuracy).flatMap { $0 < 0 ? nil : $0 }
        velocity = try Self.integer(container, .velocity).flatMap { $0 < 0 ? nil : $0 }
        course = try Self.integer(container, .course).flatMap { $0 < 0 ? nil : $0 }
        trackerID = try? container.decodeIfPresent(String.self, forKey: .trackerID)
        trigger = try? container.decodeIfPresent(String.self, forKey: .trigger)
        regions = try? container.decodeIfPresent([String].self, forKey: .regions)
        createdAt = try Self.integer(container, .createdAt)
    }

    private static func integer(_ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) throws -> Int? {
        OwnTracksNumber.decode(container, key).flatMap { OwnTracksNumber.whole($0) }
    }

    /// Writes the message with `_type` `location`, leaving out what is unknown.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("location", forKey: .type)
        try container.encode(latitude, forKey: .latitude)
        try container.encode(longitude, forKey: .longitude)
        try container.encode(timestamp, forKey: .timestamp)
        try container.encodeIfPresent(accuracy, forKey: .accuracy)
        try container.encodeIfPresent(altitude, forKey: .altitude)
        try container.encodeIfPresent(verticalAccuracy, forKey: .verticalAccuracy)
        try container.encodeIfPresent(velocity, forKey: .velocity)
        try container.encodeIfPresent(course, forKey: .course)
        try container.encodeIfPresent(trackerID, forKey: .trackerID)
        try container.encodeIfPresent(trigger, forKey: .trigger)
        try container.encodeIfPresent(regions, forKey: .regions)
        try container.encodeIfPresent(createdAt, forKey: .createdAt)
        try container.encodeIfPresent(topic, forKey: .topic)
    }
}
