/// The powers of ten a Double holds exactly, for parsing decimal numbers (NMEA fields) and
/// printing them (TPV JSON): one table for both, where each had its own `switch`.
package enum PowersOfTen {
    /// 10^0 to 10^22, written out: each literal is the exact value.
    private static let table: [Double] = [
        1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// 10^`n` for 0 ≤ `n` ≤ 22, every one exact; 10^22 for any other `n`.
    @inline(__always)
    package static func exact(_ n: Int) -> Double {
        n >= 0 && n < 22 ? table[n] : 1e22
    }
}
