import GPSReports

/// The decoder as the bulk JSON path (the TPVJSONBulk module) uses it: fixes collected as TPV
/// numbers, and a state that can be taken, compared and restored, for decoding a log in chunks
/// on several threads.
extension NMEAStreamDecoder {
    /// Everything that decides what the decoder makes of the bytes that follow: not its counts
    /// (``statistics``), its collected fixes or its memos (which only save work).
    ///
    /// Two decoders whose states are equal make the same fixes of the same bytes, to the last
    /// digit printed. `==` is derived: numbers are equal when they print the same (bit for bit,
    /// any NaN alike), and a log header's date counts only until a sentence has given a date.
    package struct State: Equatable, Sendable {
        var assembler: NMEACycleAssembler
        var atLineStart: Bool
        var inJunk: Bool
        var skipping: Bool
        var checksumsSeen: Bool

        /// A state to start decoding from at the first line of a stretch of the same log, taken
        /// from a state at an earlier point of it: what lasts through a log (a receiver's cycle,
        /// the date, its checksum habit, the constellations seen) is kept, so that the state soon
        /// becomes the one a decoder reading everything before would have (see
        /// ``NMEACycleAssembler/seed()``); the framing is at a line's start.
        package func seed() -> State {
            State(assembler: assembler.seed(), atLineStart: true, inJunk: false, skipping: false,
                  checksumsSeen: checksumsSeen)
        }
    }

    /// A decoder that reports nothing but collects the TPV numbers of its fixes (see
    /// ``drainFixes(_:)``), and builds no sky views, attitudes or GSTs: the bulk JSON path.
    package init(collectingFixesFor device: String?) {
        self.init(device: device)
        collectFixesOnly()
    }

    /// From now on reports nothing but collects the TPV numbers of its fixes, and builds no sky
    /// views, attitudes or GSTs.
    mutating func collectFixesOnly() {
        assembler.collectsRawFixes = true
        assembler.wantsSky = false
        assembler.wantsAttitude = false
        assembler.wantsNoise = false
    }

    /// The device name the fixes are reported with.
    package var device: String? { assembler.device }

    /// The decoder's present state.
    package var state: State {
        State(assembler: assembler, atLineStart: atLineStart, inJunk: inJunk, skipping: skipping,
              checksumsSeen: checksumsSeen)
    }

    /// Takes on `state`, keeping the counts and the fixes collected.
    package mutating func restore(_ state: State) {
        assembler = state.assembler
        atLineStart = state.atLineStart
        inJunk = state.inJunk
        skipping = state.skipping
        checksumsSeen = state.checksumsSeen
    }

    /// Hands the fixes collected since the last call to `body`, counts them as reports (as
    /// ``ReplayReader/forEachFixBatch(_:)`` does), and forgets them; returns how many there were.
    @discardableResult
    package mutating func drainFixes(_ body: (UnsafeBufferPointer<TPVValues>) -> Void) -> Int {
        let count = workspace.rawFixes.count
        guard count > 0 else { return 0 }
        workspace.rawFixes.withUnsafeBufferPointer(body)
        workspace.rawFixes.removeAll(keepingCapacity: true)
        statistics.reports += count
        return count
    }
}
