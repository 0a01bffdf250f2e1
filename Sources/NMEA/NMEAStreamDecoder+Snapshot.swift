import GPSReports

/// A decoder's whole state between two lines, for decoding a log in chunks on several threads
/// (``ParallelTPVJSON``).
extension NMEAStreamDecoder {
    /// Everything that decides what the decoder makes of the bytes that follow, but its counts
    /// (``statistics``) and the fixes it has collected.
    struct Snapshot {
        var assembler: NMEACycleAssembler
        var atLineStart: Bool
        var inJunk: Bool
        var skipping: Bool
        var checksumsSeen: Bool
    }

    /// The decoder's state, without the fixes it has collected: they stay with the decoder, whose
    /// array then stays the only reference to its storage and is not copied when appended to.
    var snapshot: Snapshot {
        var assembler = self.assembler
        assembler.rawFixes = []
        return Snapshot(assembler: assembler, atLineStart: atLineStart, inJunk: inJunk, skipping: skipping,
                        checksumsSeen: checksumsSeen)
    }

    /// Whether the decoder would decode what follows as the one `snapshot` was taken of would
    /// (see ``NMEACycleAssembler/hasSameState(as:)``); copies nothing.
    func hasSameState(as snapshot: Snapshot) -> Bool {
        atLineStart == snapshot.atLineStart && inJunk == snapshot.inJunk && skipping == snapshot.skipping
            && checksumsSeen == snapshot.checksumsSeen && assembler.hasSameState(as: snapshot.assembler)
    }

    /// Takes on `snapshot`'s state, keeping the decoder's own collected fixes.
    mutating func restore(_ snapshot: Snapshot) {
        var fixes: [TPVValues] = []
        swap(&fixes, &assembler.rawFixes)
        assembler = snapshot.assembler
        swap(&fixes, &assembler.rawFixes)
        atLineStart = snapshot.atLineStart
        inJunk = snapshot.inJunk
        skipping = snapshot.skipping
        checksumsSeen = snapshot.checksumsSeen
    }
}
