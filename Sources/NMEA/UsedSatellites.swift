/// The PRNs of the satellites a receiver's GSA sentences list as used in its fix, in their
/// order, with a bit set for asking quickly whether one is among them.
///
/// Each satellite of every GSV asks that, so the answer is one bit for the PRNs gpsd's
/// numbering gives (below 1024), and a search of the list for any other.
struct UsedSatellites: Sendable, Equatable {
    /// The PRNs in the order they were listed.
    private(set) var prns: [Int] = []
    // Inline, not an array: a set bit is then a store, with no check that the storage is unshared.
    private var bits = InlineArray<16, UInt64>(repeating: 0)

    init() {
        prns.reserveCapacity(NMEACycleAssembler.maximumChannels)
    }

    var count: Int { prns.count }

    mutating func append(_ prn: Int) {
        prns.append(prn)
        if prn >= 0 && prn < 1024 { bits[prn >> 6] |= 1 << UInt64(prn & 63) }
    }

    mutating func removeAll() {
        prns.removeAll(keepingCapacity: true)
        bits = InlineArray(repeating: 0)
    }

    /// Whether `prn` is among the PRNs. Mutating only so that the bits are read in place: read
    /// through a value, the inline array was copied, all sixteen words, for every satellite of
    /// every GSV.
    @inline(__always)
    mutating func contains(_ prn: Int) -> Bool {
        if prn >= 0 && prn < 1024 {
            let word = withUnsafeBytes(of: &bits) { $0.load(fromByteOffset: (prn >> 6) &* 8, as: UInt64.self) }
            return word & (1 << UInt64(prn & 63)) != 0
        }
        return prns.contains(prn)
    }

    /// The same PRNs in the same order (the bits follow from them).
    static func == (a: Self, b: Self) -> Bool { a.prns == b.prns }
}
