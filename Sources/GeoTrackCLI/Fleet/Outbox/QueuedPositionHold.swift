import LocationKit

/// Why positions already queued in the outbox may not leave now: the one rule `outbox flush` and
/// a publishing run (which sends only its own then) share. Positions leave only while precise
/// access is granted; it fails closed, so an approximate grant holds them too, since a queued
/// message does not record whether its position was snapped. Each caller words the cause.
enum QueuedPositionHold: Equatable {
    /// Only approximate locations are allowed, and the queued ones may be precise.
    case approximate
    /// Location access is denied.
    case denied
    /// The administrator's policy forbids location access.
    case restricted
    /// Nobody has decided yet.
    case notDetermined

    /// The hold the stored decision puts on queued positions, or nil when they may leave.
    static func of(_ access: StoredAuthorization) -> QueuedPositionHold? {
        switch access.status {
        case .authorizedAlways, .authorizedWhenInUse: access.accuracy == .reducedAccuracy ? .approximate : nil
        case .denied: .denied
        case .restricted: .restricted
        case .notDetermined: .notDetermined
        }
    }
}
