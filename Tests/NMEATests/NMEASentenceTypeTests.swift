import Testing
@testable import NMEA

@Suite struct NMEASentenceTypeTests {
    /// Every known type is found by its three letters, and no other three upper-case letters
    /// name one: the lookup is one numeric key per sentence, easy to get a byte wrong in.
    @Test func lookupFindsEachTypeByItsLettersAndNothingElse() {
        var found: [NMEASentenceType: Int] = [:]
        let letters = UInt8(ascii: "A")...UInt8(ascii: "Z")
        for a in letters {
            for b in letters {
                for c in letters {
                    guard let type = NMEASentenceType.lookup(a, b, c) else { continue }
                    #expect(String(decoding: [a, b, c], as: UTF8.self) == "\(type)".uppercased())
                    found[type, default: 0] += 1
                }
            }
        }
        #expect(found.count == NMEASentenceType.allCases.filter { !$0.isProprietary }.count)
        #expect(found.values.allSatisfy { $0 == 1 })
        #expect(NMEASentenceType.lookup(UInt8(ascii: "r"), UInt8(ascii: "m"), UInt8(ascii: "c")) == nil)
        #expect(NMEASentenceType.lookup(0, 0, 0) == nil)
    }
}
