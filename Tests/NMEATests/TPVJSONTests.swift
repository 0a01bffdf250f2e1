import Foundation
import GPSReports
import Testing
import GeoTrackTesting

@Suite("TPV JSON")
struct TPVJSONTests {
    @Test("gpsd's names, order and formats; nil fields left out")
    func exactLine() {
        var fix = Fix(mode: .threeD, time: Date(timeIntervalSince1970: 1_484_006_982), device: "/dev/ttyACM0")
        fix.status = .gps
        fix.latitude = 44.0689
        fix.longitude = -121.3142
        fix.altitudeHAE = 1123.5
        fix.altitudeMSL = 1144.9
        fix.sep = 26.6
        fix.speed = 0.021
        fix.track = 12.5
        fix.ept = 0.005
        // gpsd 3.22 leaves out status 1 (a plain GPS fix): "to save rebuilding all the regressions".
        #expect(fix.tpvJSON() == #"{"class":"TPV","device":"/dev/ttyACM0","mode":3,"time":"2017-01-10T00:09:42.000Z","ept":0.005,"lat":44.068900000,"lon":-121.314200000,"altHAE":1123.5000,"altMSL":1144.9000,"alt":1144.9000,"track":12.5000,"speed":0.021,"sep":26.600}"#)
        fix.status = .dgps
        fix.dgpsAge = 2.04
        fix.dgpsStation = 17
        fix.eps = 1.234
        fix.epc = 5.678
        fix.epd = 12.34567
        #expect(fix.tpvJSON() == #"{"class":"TPV","device":"/dev/ttyACM0","status":2,"mode":3,"time":"2017-01-10T00:09:42.000Z","ept":0.005,"lat":44.068900000,"lon":-121.314200000,"altHAE":1123.5000,"altMSL":1144.9000,"alt":1144.9000,"track":12.5000,"speed":0.021,"epd":12.3457,"eps":1.23,"epc":5.68,"sep":26.600,"dgpsAge":2.0,"dgpsSta":17}"#)
    }

    @Test("a fix without data is class and mode only")
    func empty() {
        #expect(Fix(mode: .noFix).tpvJSON() == #"{"class":"TPV","mode":1}"#)
    }

    @Test("time has millisecond precision", arguments: [
        (1_484_006_982.123, "2017-01-10T00:09:42.123Z"),
        (1_484_006_982.9996, "2017-01-10T00:09:43.000Z"),
        (951_782_400.5, "2000-02-29T00:00:00.500Z"),
        (0.001, "1970-01-01T00:00:00.001Z"),
    ])
    func milliseconds(_ seconds: Double, _ expected: String) {
        let json = Fix(mode: .noFix, time: Date(timeIntervalSince1970: seconds)).tpvJSON()
        #expect(json.contains("\"time\":\"\(expected)\""))
    }

    @Test("device names are escaped")
    func escaping() {
        let json = Fix(mode: .noFix, device: "a\"b\\c\n").tpvJSON()
        #expect(json.contains(#""device":"a\"b\\c\n""#))
        #expect((try? JSONSerialization.jsonObject(with: Data(json.utf8))) != nil)
    }

    @Test("numbers print exactly as printf %.Nf, near-ties included")
    func printfExact() {
        var generator = SeededGenerator(seed: 42)
        for _ in 0..<20_000 {
            let decimals = Int.random(in: 0...9, using: &generator)
            let value: Double
            switch Int.random(in: 0..<4, using: &generator) {
            case 0: value = Double.random(in: -200...200, using: &generator)
            case 1: value = (Double(Int.random(in: -100_000...100_000, using: &generator)) + 0.5) / pow(10, Double(decimals))
            case 2: value = Double(Int.random(in: -999...999, using: &generator)) / 1000
            default: value = Double.random(in: -1e12...1e12, using: &generator)
            }
            var writer = JSONWriter()
            writer.fixed(value, decimals: decimals)
            let printed = writer.withBytes { String(decoding: $0, as: UTF8.self) }
            #expect(printed == String(format: "%.\(decimals)f", value), "\(value) with \(decimals) decimals")
        }
    }

    @Test("exact binary halves round to even as printf does; tiny, huge and 12-decimal values")
    func printfExactTies() {
        var generator = SeededGenerator(seed: 7)
        var values: [Double] = [0.5, 1.5, 2.5, -0.5, -2.5, 0.125, 0.375, -0.0, 0.0, Double.leastNonzeroMagnitude, -Double.leastNonzeroMagnitude, 1e-300,
                                2.2250738585072014e-308, 1.8e19, 1e22, -3.0e25, Double.greatestFiniteMagnitude]
        for _ in 0..<20_000 {
            // k / 2^j: every one an exact binary number, and a tie at some number of decimals.
            let k = Double(Int.random(in: -2_000_000...2_000_000, using: &generator))
            values.append(k / Double(1 << Int.random(in: 0...40, using: &generator)))
            values.append(Double(bitPattern: UInt64.random(in: 0...UInt64.max, using: &generator)))
        }
        for value in values where value.isFinite {
            for decimals in [0, 1, 2, 3, 4, 9, 10, 12] {
                var writer = JSONWriter()
                writer.fixed(value, decimals: decimals)
                let printed = writer.withBytes { String(decoding: $0, as: UTF8.self) }
                #expect(printed == String(format: "%.\(decimals)f", value), "\(value) with \(decimals) decimals")
            }
        }
    }
}
