/// A number of the decoder's state, equal to another only when both print the same: bit for bit
/// (0 and -0 differ, since they print differently), except that any two NaNs are equal (NaN
/// stands for "unknown" here and is never printed).
///
/// It makes a synthesized `==` of the state compare numbers this way, with no comparison
/// written out by hand: a state type marks its `Double` and `Double?` properties
/// `@BitExact`. Reading and writing one is a plain load and store.
@propertyWrapper
struct BitExact<Value: BitExactComparable>: Equatable, Sendable {
    var wrappedValue: Value

    @inline(__always)
    init(wrappedValue: Value) {
        self.wrappedValue = wrappedValue
    }

    static func == (a: Self, b: Self) -> Bool {
        Value.isBitExactEqual(a.wrappedValue, b.wrappedValue)
    }
}

/// A value ``BitExact`` can compare.
protocol BitExactComparable: Sendable {
    /// Whether `a` and `b` print the same: the same bits, or both NaN.
    static func isBitExactEqual(_ a: Self, _ b: Self) -> Bool
}

extension Double: BitExactComparable {
    static func isBitExactEqual(_ a: Double, _ b: Double) -> Bool {
        a.bitPattern == b.bitPattern || (a.isNaN && b.isNaN)
    }
}

extension Optional: BitExactComparable where Wrapped: BitExactComparable {
    static func isBitExactEqual(_ a: Self, _ b: Self) -> Bool {
        switch (a, b) {
        case (nil, nil): true
        case let (a?, b?): Wrapped.isBitExactEqual(a, b)
        default: false
        }
    }
}
