/// Seeding assembler states, for decoding a log in chunks on several threads (the TPVJSONBulk
/// module): a chunk decoded from a guessed state may be used from the first point where its
/// state is equal to that of the decoder that read everything before it, since from there the
/// same bytes make the same fixes.
extension NMEACycleAssembler {
    /// A state to start a chunk from, taken from a decoder's state at an earlier point of the
    /// same log: what lasts through a log (the learned end of a cycle, the date, the checksum
    /// habit, the constellations seen) is kept, so that the chunk's state soon becomes the
    /// real one. Only the tag of the last timed sentence goes: seen in the middle of a cycle,
    /// it would be learned as the cycle's end at the chunk's first change of time, for good.
    func seed() -> Self {
        var seeded = self
        seeded.lastTag = 0
        seeded.latchFractionalTime = false
        return seeded
    }
}
