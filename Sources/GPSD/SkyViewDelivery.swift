import GPSReports

/// Which of gpsd's SKY reports a ``GPSDClient`` delivers.
///
/// gpsd sends a SKY report every reporting cycle. Each one moves the satellites' elevations,
/// azimuths and signal strengths a little, but the counts and dilutions usually repeat.
public enum SkyViewDelivery: Sendable, Hashable {
    /// Every SKY report, for consumers that plot the satellites (the default).
    case every
    /// A SKY report only when its summary differs from the last one delivered on this
    /// connection: satellites seen and used, HDOP, VDOP, PDOP, or the device.
    ///
    /// For consumers that use only the summary, such as a `LocationManager`; on a live
    /// receiver this halves the reports that reach them. After any change of the source's
    /// state (a reconnection, a receiver coming or going, staleness) the next SKY is delivered
    /// whatever it holds.
    case whenSummaryChanges
}

/// What ``SkyViewDelivery/whenSummaryChanges`` compares.
struct SkySummary: Equatable {
    let seen: Int?
    let used: Int
    let hdop: Double?
    let vdop: Double?
    let pdop: Double?
    let device: String?

    init(_ sky: SkyView) {
        seen = sky.seen
        used = sky.used
        hdop = sky.hdop
        vdop = sky.vdop
        pdop = sky.pdop
        device = sky.device
    }
}
