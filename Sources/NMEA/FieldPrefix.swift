/// The first fifteen bytes (at most) of a sentence's field, kept inline: what gpsd keeps of a
/// GGA's time to tell a receiver repeating its last fix. An array of bytes cost an append, with
/// its checks, for every byte of every GGA.
struct FieldPrefix: Equatable, Sendable {
    /// The most bytes kept, as gpsd compares them.
    static let capacity = 15

    /// The bytes in memory order; the unused ones are zero.
    private var bytes: (UInt64, UInt64) = (0, 0)
    /// How many bytes are kept.
    private(set) var count = 0

    /// No bytes.
    init() {}

    /// The first ``capacity`` bytes of field `i` of `fields`, or all of them when fewer.
    init(_ fields: NMEAFields, _ i: Int) {
        count = min(fields.length(i), Self.capacity)
        guard count > 0 else { return }
        let source = UnsafeRawBufferPointer(start: fields.base + fields.start(i), count: count)
        withUnsafeMutableBytes(of: &bytes) { $0.copyMemory(from: source) }
    }

    static func == (a: Self, b: Self) -> Bool {
        a.count == b.count && a.bytes == b.bytes
    }
}
