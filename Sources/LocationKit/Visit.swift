import FoundationEssentials
import GPSReports
#if canImport(Glibc)
import Glibc
#endif

/// A stay at one place, like CoreLocation's `CLVisit`.
///
/// An arrival is reported with ``departureDate`` `nil`; the departure is reported
/// as a second visit with the same ``arrivalDate`` and a departure date.
public struct Visit: Sendable, Hashable {
    /// The centre of the fixes during the stay.
    public var coordinate: Coordinate
    /// The radius around ``coordinate`` that held every fix of the stay, in metres.
    public var horizontalAccuracy: Double
    /// When the stay began (the first fix at the place).
    public var arrivalDate: Date
    /// When the stay ended (the last fix at the place), or `nil` while it goes on.
    public var departureDate: Date?

    /// Creates a visit.
    public init(coordinate: Coordinate, horizontalAccuracy: Double, arrivalDate: Date, departureDate: Date? = nil) {
        self.coordinate = coordinate
        self.horizontalAccuracy = horizontalAccuracy
        self.arrivalDate = arrivalDate
        self.departureDate = departureDate
    }
}
