import Testing
@testable import GPSD

/// The strict check every gpsd line passes before libgps parses it.
@Suite struct JSONSyntaxTests {
    static func verdict(_ line: String) -> JSONSyntax.Verdict {
        var bytes = Array(line.utf8)
        return bytes.withUnsafeMutableBufferPointer { JSONSyntax.check(UnsafeBufferPointer($0)) }
    }

    @Test("gpsd's own lines pass", arguments: [
        #"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"#,
        #"{"class":"TPV","device":"/dev/ttyACM0","mode":3,"time":"2024-05-01T10:00:01.000Z","lat":-51.5e0,"lon":0.25,"alt":12E+2}"#,
        #"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/ttyACM0","activated":"2024-05-01T10:00:00.000Z"}]}"#,
        #"{"class":"SKY","satellites":[{"PRN":5,"el":40.0,"used":true},{"PRN":7,"used":false,"x":null}]}"#,
        #"  {"class":"ERROR","message":"q\"uo\\te \u00e9 \ud83d\ude00"}  "#,
    ])
    func valid(line: String) {
        #expect(Self.verdict(line) == .object)
    }

    @Test("anything else is refused", arguments: [
        "", "{", "[]", #""class""#, "not json", #"{"class":"TPV"} x"#, #"{"class":"TPV"}{"class":"TPV"}"#,
        #"{"class":"TPV","lat":0x33}"#, #"{"class":"TPV","lat":NaN}"#, #"{"class":"TPV","lat":-Infinity}"#,
        #"{"class":"TPV","lat":012}"#, #"{"class":"TPV","lat":1.}"#, #"{"class":"TPV","lat":.5}"#, #"{"class":"TPV","lat":+1}"#,
        #"{"class":"TPV","lat":1e}"#, #"{"class":"TPV",}"#, #"{"class":"TPV" "mode":1}"#, #"{"class":'TPV'}"#,
        "{\"class\":\"TPV\",\"device\":\"/dev/\u{1B}[2J\"}", "{\"class\":\"TPV\",\"device\":\"a\u{0}b\"}",
        #"{"class":"TPV","device":"\x"}"#, #"{"class":"TPV","device":"\u12"}"#,
        #"{"class":"TPV","device":"\udeed"}"#, #"{"class":"TPV","device":"\ud83d"}"#, #"{"class":"TPV","device":"\ud83dx"}"#,
        #"{"class":"TPV","a":tru}"#, #"{"class":"TPV","a":nul}"#,
        "{\"class\":\"TPV\",\"a\":" + String(repeating: "[", count: 40) + String(repeating: "]", count: 40) + "}",
    ])
    func invalid(line: String) {
        #expect(Self.verdict(line) == .invalid)
    }

    @Test("valid JSON not shaped as gpsd's messages is told apart", arguments: [
        #"{}"#, #"{"mode":1,"class":"TPV"}"#, #"{"class":3}"#,
        #"{"class":"TPV","x":[{"class":"DEVICE"}]}"#, #"{"class":"TPV","x":{"class":"TPV"}}"#,
        #"{"class":"POLL","tpv":[{"class":"TPV"}]}"#,
        #"{"classh":"DEVICES","devices":[{"class":"DEVICE"}]}"#,
        #"{"class":"DEVICES","devices":[{"class":"DEVICE","x":[{"class":"TPV"}]}]}"#,
        #"{"class":"DEVICES","devices":{"class":"DEVICE"}}"#,
    ])
    func unexpectedShape(line: String) {
        #expect(Self.verdict(line) == .unexpectedShape)
    }

    /// A path as long as libgps's field holds, terminator included.
    static let longPath = "/dev/" + String(repeating: "x", count: 200)

    @Test("a DEVICES entry libgps would fail to parse is refused: gps_unpack() in 3.22 loops forever on one", arguments: [
        #"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/ttyACM1","bps":"x"}]}"#,
        #"{"class":"DEVICES","devices":[{"class":"TPV"}]}"#,
        #"{"class":"DEVICES","devices":[{"class":"DEVICE","path":1}]}"#,
        #"{"class":"DEVICES","devices":[{"class":"DEVICE","driver":true}]}"#,
        #"{"class":"DEVICES","devices":[{"class":"DEVICE","flags":"x"}]}"#,
        #"{"class":"DEVICES","devices":[{"class":"DEVICE","cycle":"x"}]}"#,
        #"{"class":"DEVICES","devices":[{"class":"DEVICE","parity":"NN"}]}"#,
        #"{"class":"DEVICES","devices":[{"class":"DEVICE","x":[1]}]}"#,
        #"{"class":"DEVICES","devices":[{"class":"DEVICE","x":{"a":1}}]}"#,
        #"{"class":"DEVICES","devices":[{"class":"DEVICE","path":""# + longPath + #""}]}"#,
        #"{"class":"DEVICES","devices":["# + Array(repeating: #"{"class":"DEVICE"}"#, count: 33).joined(separator: ",") + "]}",
        // Longer than libgps's parser reads (found by scripts/fuzz-nmea.sh): a key of 31 bytes,
        // a value of 513, whether libgps knows the key or not.
        #"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/x",""# + String(repeating: "a", count: 31) + #"":"N"}]}"#,
        #"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/x",""# + String(repeating: "\u{8D}", count: 13) + #"flags":"N"}]}"#,
        #"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/x","zz":""# + String(repeating: "b", count: 513) + #""}]}"#,
        #"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/x","bps":"# + String(repeating: "1", count: 513) + "}]}",
    ])
    func unparsableDeviceEntry(line: String) {
        #expect(Self.verdict(line) == .unexpectedShape)
    }

    @Test("DEVICES entries as gpsd sends them pass, with the keys of newer gpsd", arguments: [
        #"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/ttyACM0","activated":"2024-05-01T10:00:00.000Z","flags":1,"driver":"NMEA0183","subtype":"x","subtype1":"y","hexdata":"00","native":0,"bps":9600,"parity":"N","stopbits":1,"cycle":1.00,"mincycle":0.25}]}"#,
        #"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/pts/3","driver":"NMEA0183","activated":1714557600.5,"sernum":"1234","x":null,"y":true}],"remote":"tcp://x"}"#,
        #"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/ttyACM0"},{"class":"DEVICE","path":"/dev/ttyACM1"},{"class":"DEVICE","path":"/dev/ttyACM2"},{"class":"DEVICE","path":"/dev/ttyACM3"}]}"#,
        #"{"class":"DEVICES","devices":[]}"#,
        // As long as libgps's parser reads: a key of 30 bytes, values of 512.
        #"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/x",""# + String(repeating: "a", count: 30) + #"":"N"}]}"#,
        #"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/x","zz":""# + String(repeating: "b", count: 512) + #""}]}"#,
        #"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/x","bps":"# + String(repeating: "1", count: 512) + "}]}",
    ])
    func deviceEntries(line: String) {
        #expect(Self.verdict(line) == .object)
    }
}
