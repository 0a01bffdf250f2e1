/// Whether the device is inside a region, like CoreLocation's `CLRegionState`.
public enum RegionState: Sendable, Hashable, CustomStringConvertible {
    /// Not known yet: no fix accurate enough has arrived.
    case unknown
    /// Inside the region.
    case inside
    /// Outside the region.
    case outside

    /// `unknown`, `inside` or `outside`.
    public var description: String {
        switch self {
        case .unknown: "unknown"
        case .inside: "inside"
        case .outside: "outside"
        }
    }
}
