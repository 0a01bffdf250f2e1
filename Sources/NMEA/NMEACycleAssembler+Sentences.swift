import FoundationEssentials
import GPSReports

/// One decoder per sentence type. Each validates the fields it reads before touching any
/// state and returns `nil` for an impossible value; otherwise it updates the working state
/// as gpsd's driver does and returns gpsd's change mask.
extension NMEACycleAssembler {
    // MARK: Field helpers

    /// A time of day `hhmmss[.sss]`.
    struct TimeOfDay {
        var hour: Int, minute: Int, second: Int, subseconds: Double, raw: Double
        /// The fraction of a second in nanoseconds, as gpsd keeps it (`tv_nsec`).
        var nanoseconds = 0
    }

    /// Parses a non-empty time field; `nil` when malformed or out of range.
    /// The time of day in field `i` when it holds one, `.some(nil)` when it is empty, and nil
    /// when it holds something else (the sentence is then refused).
    static func optionalTimeOfDay(_ f: NMEAFields, _ i: Int) -> TimeOfDay?? {
        if f.isEmpty(i) { return .some(nil) }
        guard let time = timeOfDay(f, i) else { return nil }
        return .some(time)
    }

    static func timeOfDay(_ f: NMEAFields, _ i: Int) -> TimeOfDay? {
        let n = f.length(i)
        guard n >= 6, n <= 16 else { return nil }
        // The field's bytes, read directly: its length is checked above.
        let p = f.base + f.start(i)
        @inline(__always) func digit(_ k: Int) -> Int? {
            let d = p[k] &- 0x30
            return d < 10 ? Int(d) : nil
        }
        guard let h1 = digit(0), let h2 = digit(1), let m1 = digit(2), let m2 = digit(3),
              let s1 = digit(4), let s2 = digit(5) else { return nil }
        let hour = h1 &* 10 &+ h2, minute = m1 &* 10 &+ m2, second = s1 &* 10 &+ s2
        guard hour < 24, minute < 60, second < 61 else { return nil }
        let hms = hour &* 10000 &+ minute &* 100 &+ second
        var subseconds = 0.0
        var nanoseconds = 0
        if n > 6 {
            guard p[6] == UInt8(ascii: ".") else { return nil }
            var fraction = 0
            // Nine digits at most: the arithmetic cannot overflow.
            for k in 7..<n {
                guard let d = digit(k) else { return nil }
                fraction = fraction &* 10 &+ d
            }
            subseconds = Double(fraction) / PowersOfTen.exact(n - 7)
            // gpsd's nanoseconds: the digits scaled to nine of them.
            nanoseconds = fraction
            for _ in n..<16 { nanoseconds &*= 10 }
        }
        return TimeOfDay(hour: hour, minute: minute, second: second, subseconds: subseconds,
                         raw: Double(hms) + subseconds, nanoseconds: nanoseconds)
    }

    /// gpsd's merge_hhmmss: a new time of day, a day later when the hour went backwards.
    mutating func mergeTime(_ t: TimeOfDay) {
        if t.hour < hour { day += 1 }
        hour = t.hour
        minute = t.minute
        second = t.second
        subseconds = t.subseconds
        nanoseconds = t.nanoseconds
    }

    /// gpsd's register_fractional_time: feeds the end-of-cycle detector.
    mutating func registerFractionalTime(_ t: TimeOfDay) {
        lastFractionalTime = thisFractionalTime
        thisFractionalTime = t.raw
        latchFractionalTime = true
    }

    /// Latitude and longitude from `ddmm.mmmm,N,dddmm.mmmm,E` at fields i…i+3.
    enum LatLon {
        case missing
        case invalid
        case value(Double, Double)
    }

    static func latLon(_ f: NMEAFields, _ i: Int) -> LatLon {
        if f.isEmpty(i) || f.isEmpty(i + 1) || f.isEmpty(i + 2) || f.isEmpty(i + 3) { return .missing }
        guard f.length(i + 1) == 1, f.length(i + 3) == 1,
              let lat = fieldDegrees(f, i), let lon = fieldDegrees(f, i + 2),
              lat <= 90, lon <= 180
        else { return .invalid }
        let ns = f.first(i + 1), ew = f.first(i + 3)
        guard ns == UInt8(ascii: "N") || ns == UInt8(ascii: "S"),
              ew == UInt8(ascii: "E") || ew == UInt8(ascii: "W")
        else { return .invalid }
        return .value(ns == UInt8(ascii: "S") ? -lat : lat, ew == UInt8(ascii: "W") ? -lon : lon)
    }

    /// A `dddmm.mmmm` field in degrees; `nil` when it is not an unsigned number or has 60
    /// minutes or more.
    ///
    /// With a point, as gpsd 3.22 reads it (its decode_lat_or_lon): the digits before the point
    /// as whole minutes, the fraction added, times 1/60; this rounds differently from degrees
    /// plus minutes / 60 in the ninth decimal gpsd prints. Without one, as a number.
    @inline(__always)
    static func fieldDegrees(_ f: NMEAFields, _ i: Int) -> Double? {
        let start = f.start(i), end = f.end(i)
        var k = start
        var whole = 0
        // Nine digits at most before the point: the arithmetic cannot overflow.
        while k < end, k - start < 9 {
            let d = f.base[k] &- 0x30
            if d >= 10 { break }
            whole = whole &* 10 &+ Int(d)
            k &+= 1
        }
        guard k < end, f.base[k] == UInt8(ascii: ".") else {
            guard let raw = f.number(i), raw >= 0 else { return nil }
            return degrees(raw)
        }
        guard let fraction = NMEANumber.parse(f.base, k, end), fraction >= 0 else { return nil }
        let wholeDegrees = whole / 100
        guard Double(whole - wholeDegrees * 100) + fraction < 60.000001 else { return nil }
        return (Double(whole - wholeDegrees * 40) + fraction) * (1.0 / 60.0)
    }

    /// NMEA's degrees-and-minutes to degrees; `nil` for 60 minutes or more.
    @inline(__always)
    static func degrees(_ value: Double) -> Double? {
        let q = value / 100
        let d = q.rounded(.towardZero)
        let minutes = 100 * (q - d)
        guard minutes < 60.000001 else { return nil }
        return d + minutes / 60
    }

    /// gpsd's faa_mode: an FAA mode letter to a TPV status.
    static func faaStatus(_ mode: UInt8) -> Int {
        switch mode {
        case 0, UInt8(ascii: "N"), UInt8(ascii: "S"): 0
        case UInt8(ascii: "D"), UInt8(ascii: "P"): 2
        case UInt8(ascii: "E"): 5
        case UInt8(ascii: "F"): 4
        case UInt8(ascii: "R"): 3
        default: 1
        }
    }

    /// A number that must be finite when present: `.nan` when empty, `nil` when not a number.
    @inline(__always)
    static func optionalNumber(_ f: NMEAFields, _ i: Int) -> Double? {
        f.number(i)
    }

    // MARK: RMC

    mutating func decodeRMC(_ f: NMEAFields) -> Mask? {
        noteDateSentence()
        var mask: Mask = []
        let valid = f.first(2) == UInt8(ascii: "A") || f.first(2) == UInt8(ascii: "D")
        guard valid else {
            newData.status = 0
            newData.mode = 1
            // No time or no date: gpsd forgets the date and reports the fix at once.
            if f.isEmpty(1) || f.isEmpty(9) { return forgetDate().union([.status, .mode]) }
            return [.status, .mode]
        }
        var time: TimeOfDay?
        var date: (day: Int, month: Int, year: Int)?
        if !f.isEmpty(1) && f.count > 9 && !f.isEmpty(9) {
            guard let t = Self.timeOfDay(f, 1), f.length(9) == 6, let ddmmyy = f.integer(9) else { return nil }
            let dd = ddmmyy / 10000, mm = ddmmyy / 100 % 100, yy = ddmmyy % 100
            guard (1...12).contains(mm), (1...31).contains(dd) else { return nil }
            time = t
            date = (dd, mm, yy)
        }
        let position = Self.latLon(f, 3)
        if case .invalid = position { return nil }
        guard let speed = f.number(7), let track = f.number(8), speed.isNaN || speed >= 0,
              track.isNaN || (0...360).contains(track) else { return nil }
        guard let variation = f.number(10) else { return nil }

        if let time, let date {
            mergeTime(time)
            if year % 100 == 99 && date.year == 0 { century += 100 }
            var fullYear = century + date.year
            if fullYear >= 2080 { fullYear -= 100 }
            year = fullYear
            month = date.month
            day = date.day
            mask.insert(.time)
            registerFractionalTime(time)
        }
        var newStatus: Int
        if case .value(let lat, let lon) = position {
            newStatus = 1
            newData.latitude = lat
            newData.longitude = lon
            mask.insert(.latLon)
            if fix.mode <= 2 {
                newData.mode = 2
                mask.insert(.mode)
            }
        } else {
            newStatus = 0
            newData.mode = 1
            mask.insert(.mode)
        }
        if !speed.isNaN {
            newData.speed = speed * Self.knotsToMetresPerSecond
            mask.insert(.speed)
        }
        if !track.isNaN {
            newData.track = track
            mask.insert(.track)
        }
        if !f.isEmpty(10) && !f.isEmpty(11) {
            var v = variation
            switch f.first(11) {
            case UInt8(ascii: "E"): break
            case UInt8(ascii: "W"): v = -v
            default: v = .nan
            }
            if v.isFinite && abs(v) > 0.09 && abs(v) <= 180 {
                newData.magneticVariation = v
                mask.insert(.magneticTrack)
            }
        }
        if f.count >= 12 { newStatus = Self.faaStatus(f.first(12)) }
        if satellitesUsed > 3 {
            newData.mode = 3
            mask.insert(.mode)
        } else if fix.altHAE.isFinite || fix.altMSL.isFinite {
            newData.mode = 3
            mask.insert(.mode)
        }
        newData.status = newStatus
        mask.insert(.status)
        return mask
    }

    // MARK: GLL

    mutating func decodeGLL(_ f: NMEAFields) -> Mask? {
        guard let time = Self.optionalTimeOfDay(f, 5) else { return nil }
        let position = Self.latLon(f, 1)
        if case .invalid = position { return nil }

        var mask: Mask = []
        if let time {
            applyHeaderDateIfNeeded()
            mergeTime(time)
            registerFractionalTime(time)
            if year != 0 { mask = .time }
        }
        let flag = f.first(6)
        if flag == 0 || flag == UInt8(ascii: "V") {
            newData.status = 0
            newData.mode = 1
            mask.formUnion([.status, .mode])
        } else if flag == UInt8(ascii: "A"), f.count < 8 || f.first(7) != UInt8(ascii: "N"),
                  case .value(let lat, let lon) = position {
            newData.latitude = lat
            newData.longitude = lon
            mask.insert(.latLon)
            var newStatus = 1
            if f.count >= 8 { newStatus = Self.faaStatus(f.first(7)) }
            if fix.altHAE.isFinite || fix.altMSL.isFinite {
                newData.mode = 3
                mask.insert(.mode)
            } else if satellitesUsed > 3 {
                newData.mode = 3
                mask.insert(.mode)
            } else if fix.mode < 2 || (!oldFix.altHAE.isFinite && !oldFix.altMSL.isFinite) {
                newData.mode = 2
                mask.insert(.mode)
            }
            newData.status = newStatus
            mask.insert(.status)
        } else {
            newData.status = 0
            newData.mode = 1
            mask.formUnion([.status, .mode])
        }
        return mask
    }

    // MARK: GNS

    mutating func decodeGNS(_ f: NMEAFields) -> Mask? {
        guard let time = Self.optionalTimeOfDay(f, 1) else { return nil }
        let position = Self.latLon(f, 2)
        if case .invalid = position { return nil }
        guard let hdopValue = f.number(8), let altitude = f.number(9), let separation = f.number(10),
              hdopValue.isNaN || hdopValue >= 0,
              altitude.isNaN || abs(altitude) < 1e6, separation.isNaN || abs(separation) < 1e3
        else { return nil }

        var mask: Mask = []
        if let time {
            applyHeaderDateIfNeeded()
            mergeTime(time)
            registerFractionalTime(time)
            if year != 0 { mask = .time }
        }
        let modeLetter = f.first(6)
        if modeLetter == 0 || modeLetter == UInt8(ascii: "N") {
            newData.mode = 1
            mask.insert(.mode)
            return mask
        }
        let navigation = f.first(13)
        if navigation == UInt8(ascii: "U") || navigation == UInt8(ascii: "V") { return mask }
        let used = f.atoi(7)
        if case .value(let lat, let lon) = position {
            newData.latitude = lat
            newData.longitude = lon
            mask.insert(.latLon)
            newData.mode = 2
            if !f.isEmpty(9) {
                newData.altMSL = altitude
                mask.insert(.altitude)
                if used > 3 { newData.mode = 3 }
                if !f.isEmpty(10) { newData.geoidSeparation = separation }
            }
        } else {
            newData.mode = 1
            mask.insert(.mode)
        }
        if !f.isEmpty(8) { hdop = hdopValue }
        newData.status = Self.faaStatus(modeLetter)
        mask.formUnion([.mode, .status])
        return mask
    }

    /// gpsd's answer to a sentence that says there is no fix and gives no time or date: the
    /// date and time of day are cleared (time-only sentences give no time until a date comes
    /// again), and the fix is reported at once, with no time.
    mutating func forgetDate() -> Mask {
        year = 0
        month = 1
        day = 0
        hour = 0
        minute = 0
        second = 0
        return [.report, .time]
    }

    // MARK: GGA

    mutating func decodeGGA(_ f: NMEAFields) -> Mask? {
        guard let time = Self.optionalTimeOfDay(f, 1) else { return nil }
        let position = Self.latLon(f, 2)
        if case .invalid = position { return nil }
        guard let hdopValue = f.number(8), let altitude = f.number(9), let separation = f.number(11),
              hdopValue.isNaN || hdopValue >= 0,
              altitude.isNaN || abs(altitude) < 1e6, separation.isNaN || abs(separation) < 1e3
        else { return nil }

        var mask: Mask = []
        let previousTalker = lastGGATalker
        lastGGATalker = f.byte(0, 1)
        let quality = f.isEmpty(6) ? -1 : f.atoi(6)
        let newStatus: Int = switch quality {
        case 0: 0
        case 1, 3: 1
        case 2: 2
        case 4: 3
        case 5: 4
        case 6: 5
        case 7: 7
        case 8: 8
        default: -1
        }
        if newStatus >= 0 {
            newData.status = newStatus
            mask = .status
        }
        // No fix and no time (Quectel's $GPGGA,,,,,,0,,,,,,,,): gpsd forgets the date. It means
        // to report at once too, but sets the status bit over its report and time bits, so
        // the report waits for the cycle's end as any other.
        if quality == 0 && f.isEmpty(1) { _ = forgetDate() }
        let timestamp = FieldPrefix(f, 1)
        if previousTalker != 0 && previousTalker != lastGGATalker {
            latchMode = false
        } else {
            latchMode = timestamp == lastGGATimestamp
        }
        if latchMode {
            newData.status = 0
            newData.mode = 1
            mask.insert(.status)
        } else {
            lastGGATimestamp = timestamp
        }
        let visible = f.atoi(7)
        if let time {
            applyHeaderDateIfNeeded()
            mergeTime(time)
            registerFractionalTime(time)
            if year != 0 { mask.insert(.time) }
        }
        if case .value(let lat, let lon) = position {
            newData.mode = 2
            newData.latitude = lat
            newData.longitude = lon
            mask.insert(.latLon)
            if !f.isEmpty(11) { newData.geoidSeparation = separation }
            if !f.isEmpty(9) {
                newData.altMSL = altitude
                mask.insert(.altitude)
                if visible >= 4 { newData.mode = 3 }
            }
            if visible < 3 { newData.mode = 1 }
        } else {
            newData.mode = 1
        }
        mask.insert(.mode)
        if !f.isEmpty(8) { hdop = hdopValue }
        // The differential age and station come both or not at all; gpsd ignores two zeros.
        if !f.isEmpty(13) && !f.isEmpty(14), let age = f.number(13), age.isFinite {
            let station = f.atoi(14)
            if age > 0.09 || station > 0 {
                newData.dgpsAge = age
                newData.dgpsStation = station
            }
        }
        return mask
    }

    // MARK: GSA

    mutating func decodeGSA(_ f: NMEAFields) -> Mask? {
        let talker = f.byte(0, 1)
        let previousTalker = lastGSATalker
        var mask: Mask = []
        if latchMode {
            mask = []
        } else {
            guard let p = f.number(15), let h = f.number(16), let v = f.number(17) else { return nil }
            let modeByte = f.first(2)
            newData.mode = f.atoi(2)
            guard (0...3).contains(newData.mode) else { return nil }
            mask = modeByte == UInt8(ascii: "E") ? [] : .mode
            if f.count <= 19 {
                if !f.isEmpty(15) { pdop = p }
                if !f.isEmpty(16) { hdop = h }
                if !f.isEmpty(17) { vdop = v }
            }
            if lastGSATalker == 0 || (talker == lastGSATalker && talker != UInt8(ascii: "N")) {
                satellitesUsed = 0
                usedPRNs.removeAll()
            }
            lastGSATalker = talker
            switch talker {
            case UInt8(ascii: "B"), UInt8(ascii: "D"), UInt8(ascii: "Q"): seenBDGSA = true
            case UInt8(ascii: "L"): seenGLGSA = true
            case UInt8(ascii: "N"): seenGNGSA = true
            case UInt8(ascii: "A"): seenGAGSA = true
            default: break
            }
            if f.count > 6 {
                // Satellites 1 to 32 are numbered from an offset that depends on the talker
                // alone (prn(talker0:talker1:satnum:)): found once, not for every field.
                let talker0 = f.byte(0, 0)
                let lowOffset = Self.prn(talker0: talker0, talker1: talker, satnum: 1).prn - 1
                // Fields 3 to count - 4; a wrapping count, as a sentence has at most a hundred
                // fields: a checked one tested for overflow at every field, mostly empty ones.
                var field = 3
                let end = f.count - 3
                while field < end {
                    let satnum = f.shortAtoi(field)
                    field &+= 1
                    if satnum < 1 { continue }
                    let prn = satnum <= 32 ? lowOffset + satnum : Self.prn(talker0: talker0, talker1: talker, satnum: satnum).prn
                    if prn > 0 {
                        if satellitesUsed >= Self.maximumChannels { break }
                        usedPRNs.append(prn)
                        satellitesUsed += 1
                    }
                }
            }
            mask.formUnion([.dop, .used])
        }
        if (seenGLGSA || seenBDGSA || seenGAGSA) && talker == UInt8(ascii: "P") {
            mask = []
        } else if previousTalker != UInt8(ascii: "N") && talker == UInt8(ascii: "N") {
            mask = .mode
        }
        return mask
    }

    // MARK: GSV

    mutating func decodeGSV(_ f: NMEAFields) -> Mask? {
        let count = f.count
        let talker = f.byte(0, 1)
        if count <= 3 {
            clearSky()
            return []
        }
        switch count % 4 {
        case 0, 1: break
        default:
            clearSky()
            return []
        }
        // NMEA 4.10's signal id, as gpsd 3.22 keeps it: a byte, turned into u-blox numbering.
        let signal = count % 4 == 1 ? Self.ubxSignal(nmea: Int(UInt8(truncatingIfNeeded: f.atoi(count - 1)))) : 0
        gsvAwait = f.atoi(1)
        gsvPart = f.atoi(2)
        if gsvPart < 1 {
            clearSky()
            return []
        }
        if gsvPart == 1 {
            if lastGSVTalker == 0 || (talker == UInt8(ascii: "P") && signal == 0) {
                clearSky()
            }
            lastGSVTalker = talker
            switch talker {
            case UInt8(ascii: "A"): seenGAGSV = true
            case UInt8(ascii: "B"), UInt8(ascii: "D"), UInt8(ascii: "Q"): seenBDGSV = true
            case UInt8(ascii: "L"): seenGLGSV = true
            case UInt8(ascii: "P"): seenGPGSV = true
            case UInt8(ascii: "Z"): seenQZSS = true
            default: break
            }
        }
        // gpsd 3.22 reads the constellation from the talker in the first sentence of a set only,
        // and numbers that sentence's satellites by it; later sentences go by the talker alone.
        let constellation = gsvPart == 1 ? Self.gsvConstellation(talker) : 0
        // Satellites 1 to 32 of a sentence numbered by its talker alone are numbered from an
        // offset that depends on the talker only (prn(talker0:talker1:satnum:)), as in GSA.
        let talker0 = f.byte(0, 0)
        let lowOffset = Self.prn(talker0: talker0, talker1: talker, satnum: 1).prn - 1
        var field = 4
        while field < count / 4 * 4 {
            if sky.count + skyCount >= Self.maximumChannels {
                clearSky()
                break
            }
            let svid = f.shortAtoi(field)
            field += 1
            if svid == 0 { continue }
            // gpsd reads an empty elevation, azimuth or signal as 0.
            if !wantsSky {
                // Without a sky view to build, only the count, the all-azimuths-zero check and
                // the used satellites' directions (for the DOPs) matter: each field is read only
                // when one of them needs it.
                if !skyHasAzimuth && f.shortAtoi(field + 1) != 0 { skyHasAzimuth = true }
                if f.shortAtoi(field + 2) > 0 {
                    let prn = constellation == 0 && svid >= 1 && svid <= 32 ? lowOffset + svid
                        : Self.gsvPRN(talker0: talker0, talker1: talker, constellation: constellation, satnum: svid).prn
                    if prn > 0 && usedPRNs.contains(prn) {
                        geometry.addUsedSatellite(azimuth: f.shortAtoi(field + 1), elevation: f.shortAtoi(field))
                    }
                }
                field += 3
                skyCount += 1
                continue
            }
            let elevationValue = f.shortAtoi(field), azimuthValue = f.shortAtoi(field + 1), snrValue = f.shortAtoi(field + 2)
            let id = Self.gsvPRN(talker0: f.byte(0, 0), talker1: talker, constellation: constellation, satnum: svid)
            field += 3
            var used = false
            if id.prn > 0, snrValue > 0 { used = usedPRNs.contains(id.prn) }
            if used { geometry.addUsedSatellite(azimuth: azimuthValue, elevation: elevationValue) }
            // An empty elevation, azimuth or signal is 0 to gpsd, and its SKY prints it so.
            // gps.h: a gnssid means nothing with a svid of 0 (a satellite gpsd could not number).
            sky.append(Satellite(prn: id.prn, gnssID: id.svID == 0 ? nil : id.gnssID, svID: id.svID == 0 ? nil : id.svID,
                                 signalID: signal == 0 ? nil : signal,
                                 elevation: Double(elevationValue),
                                 azimuth: Double(azimuthValue), signalStrength: Double(snrValue), used: used))
        }
        if gsvPart < gsvAwait { return [] }
        if !skyHasAzimuth && !sky.contains(where: { ($0.azimuth ?? 0) != 0 }) {
            clearSky()
            return []
        }
        if (seenGLGSV || seenBDGSV || seenQZSS || seenGAGSV) && talker == UInt8(ascii: "P") { return [] }
        // The caller then fills in the DOPs (``fillDilutions(_:)``), with the workspace's memo.
        return .satellite
    }

    /// gpsd's DOPs at the end of a sky view: the X, Y, time and geometric DOPs from the used
    /// satellites' geometry (unknown when it gives none), and HDOP, VDOP and PDOP from it only
    /// where no sentence gave them.
    mutating func fillDilutions(_ memo: inout SatelliteGeometry.Memo) {
        xdop = .nan
        ydop = .nan
        tdop = .nan
        gdop = .nan
        guard let d = memo.dilutions(of: geometry) else { return }
        xdop = d.x
        ydop = d.y
        tdop = d.time
        gdop = d.geometric
        if !hdop.isFinite { hdop = d.horizontal }
        if !vdop.isFinite { vdop = d.vertical }
        if !pdop.isFinite { pdop = d.position }
    }

    /// gpsd 3.22's u-blox signal id for an NMEA 4.10 one (its nmea_sigid_to_ubx): 0 for L1,
    /// E1 and anything it does not know.
    static func ubxSignal(nmea: Int) -> Int {
        switch nmea {
        case 2: 5
        case 3: 2
        case 5: 4
        case 6: 3
        default: 0
        }
    }

    /// gpsd_zero_satellites: forgets the satellites seen.
    mutating func clearSky() {
        sky.removeAll(keepingCapacity: true)
        geometry.removeAll()
        skyCount = 0
        skyHasAzimuth = false
    }

    /// The NMEA 4.10 constellation gpsd 3.22 takes from a GSV talker (0 for GPS, GN and unknown).
    static func gsvConstellation(_ talker: UInt8) -> Int {
        switch talker {
        case UInt8(ascii: "A"): 3
        case UInt8(ascii: "B"), UInt8(ascii: "D"): 4
        case UInt8(ascii: "I"): 6
        case UInt8(ascii: "L"): 2
        case UInt8(ascii: "Q"), UInt8(ascii: "Z"): 5
        default: 0
        }
    }

    /// A GSV satellite's PRN: by its constellation when the sentence gave one (see
    /// ``gsvConstellation(_:)``), else by the talker as in ``prn(talker0:talker1:satnum:)``
    /// for 1 to 32 and by the number alone above.
    @inline(__always)
    static func gsvPRN(talker0: UInt8, talker1: UInt8, constellation: Int, satnum: Int) -> (prn: Int, gnssID: Int, svID: Int) {
        guard constellation > 0, satnum >= 1 else {
            // gpsd 3.22 gives no talker's constellation to a set's later sentences, so Quectel's
            // Galileo 101 to 136 there are not Galileo: 101 to 119 are no satellite (PRN 0),
            // 120 and up SBAS. No talker (0) makes prn(…) go by the number alone.
            if satnum > 32 { return prn(talker0: 0, talker1: 0, satnum: satnum) }
            return prn(talker0: talker0, talker1: talker1, satnum: satnum)
        }
        // gpsd keeps the satellite's number in a byte, which wraps.
        func byte(_ value: Int) -> Int { Int(UInt8(truncatingIfNeeded: value)) }
        switch constellation {
        case 2:
            let sv = byte(satnum < 64 ? satnum : satnum - 64)
            return (64 + sv, 6, sv)
        case 3:
            let sv = byte(satnum < 100 ? satnum : satnum - 100)
            return (300 + sv, 2, sv)
        case 4:
            let sv = byte(satnum < 100 ? satnum : satnum - 200)
            return (400 + sv, 3, sv)
        case 5:
            let sv = byte(satnum < 100 ? satnum : satnum - 192)
            return (192 + sv, 5, sv)
        default:
            return (satnum &+ 500, 7, byte(satnum))
        }
    }

    /// gpsd's mapping of an NMEA satellite number to its PRN numbering, with the u-blox GNSS id.
    static func prn(talker0: UInt8, talker1: UInt8, satnum: Int) -> (prn: Int, gnssID: Int, svID: Int) {
        if satnum < 1 { return (0, 0, 0) }
        if satnum <= 32 {
            switch (talker0, talker1) {
            case (UInt8(ascii: "G"), UInt8(ascii: "A")): return (300 + satnum, 2, satnum)
            case (UInt8(ascii: "G"), UInt8(ascii: "B")), (UInt8(ascii: "B"), UInt8(ascii: "D")),
                 (UInt8(ascii: "P"), UInt8(ascii: "Q")), (UInt8(ascii: "G"), UInt8(ascii: "Q")):
                return (400 + satnum, 3, satnum)
            case (UInt8(ascii: "G"), UInt8(ascii: "L")): return (64 + satnum, 6, satnum)
            case (UInt8(ascii: "Q"), UInt8(ascii: "Z")): return (192 + satnum, 5, satnum)
            default: return (satnum, 0, satnum)
            }
        }
        // Some receivers (Quectel LC79D) number Galileo from 101 in GAGSV; gpsd takes that as 300 + (n - 100).
        if talker0 == UInt8(ascii: "G"), talker1 == UInt8(ascii: "A"), (101...136).contains(satnum) {
            return (200 + satnum, 2, satnum - 100)
        }
        switch satnum {
        case 33...64: return (satnum, 1, satnum + 87)
        case 65...96: return (satnum, 6, satnum - 64)
        case 120...158: return (satnum, 1, satnum)
        case 173...182: return (satnum, 4, satnum - 172)
        case 193...197: return (satnum, 5, satnum - 192)
        case 201...237: return (satnum + 200, 3, satnum - 200)
        case 301...356: return (satnum, 2, satnum - 300)
        case 401...437: return (satnum, 3, satnum - 400)
        default: return (0, 0, 0)
        }
    }

    // MARK: VTG

    mutating func decodeVTG(_ f: NMEAFields) -> Mask? {
        if f.isEmpty(1) || f.isEmpty(5) { return [] }
        guard let track = f.number(1), let magnetic = f.number(3), let knots = f.number(5),
              (0...360).contains(track), magnetic.isNaN || (0...360).contains(magnetic), knots >= 0
        else { return nil }
        if f.count > 9 {
            let m = f.first(9)
            if m == UInt8(ascii: "E") || m == UInt8(ascii: "N") { return [] }
        }
        var mask: Mask = [.track, .speed]
        newData.track = track
        if !magnetic.isNaN {
            newData.magneticTrack = magnetic
            mask.insert(.magneticTrack)
        }
        newData.speed = knots * Self.knotsToMetresPerSecond
        return mask
    }

    // MARK: ZDA

    mutating func decodeZDA(_ f: NMEAFields) -> Mask? {
        if f.isEmpty(1) || f.isEmpty(2) || f.isEmpty(3) || f.isEmpty(4) { return [] }
        guard let time = Self.timeOfDay(f, 1), let dd = f.integer(2), let mm = f.integer(3), let yyyy = f.integer(4),
              (1900...2200).contains(yyyy), (1...12).contains(mm), (1...31).contains(dd)
        else { return nil }
        noteDateSentence()
        // Like gpsd, ZDA stays out of end-of-cycle detection: some receivers send it only with a fix.
        mergeTime(time)
        century = yyyy - yyyy % 100
        year = yyyy
        month = mm
        day = dd
        return .time
    }

    // MARK: GST, GBS

    /// GST: the receiver's error statistics. gpsd 3.22 folds none of them into the TPV, and
    /// refuses no GST: what it reports of one is ``noiseReport(_:)``'s.
    mutating func decodeGST(_ f: NMEAFields) -> Mask? {
        .gst
    }

    /// A GST as gpsd reports it (its GST class): each field read as gpsd reads it
    /// (``NMEANumber/gpsdPrefix(_:_:_:)``), one that is no number unknown, and the
    /// time is the GST's time of day on the receiver's date, none before a date is known or
    /// when the field holds no time. That time names the fix the statistics describe, not the
    /// present: the day does not turn over at it, nor does the cycle end.
    func noiseReport(_ f: NMEAFields) -> PseudorangeNoise {
        var time: Date?
        if year != 0, !f.isEmpty(1), let t = Self.timeOfDay(f, 1) {
            let days = CivilDate(year: year, month: month, day: 1).daysSince1970 + day - 1
            time = Date(timeIntervalSince1970: Self.seconds(days: days, hour: t.hour, minute: t.minute, second: t.second,
                                                            subseconds: t.subseconds))
        }
        func value(_ i: Int) -> Double? {
            guard i < f.stored else { return nil }
            let number = NMEANumber.gpsdPrefix(f.base, f.start(i), f.end(i))
            return number.isFinite ? number : nil
        }
        var noise = PseudorangeNoise(device: device, time: time)
        noise.rangeRMS = value(2)
        noise.semiMajor = value(3)
        noise.semiMinor = value(4)
        noise.orientation = value(5)
        noise.latitudeError = value(6)
        noise.longitudeError = value(7)
        noise.altitudeError = value(8)
        return noise
    }

    mutating func decodeGBS(_ f: NMEAFields) -> Mask? {
        guard let t = Self.timeOfDay(f, 1), let latError = f.number(2), let lonError = f.number(3),
              let altError = f.number(4)
        else { return f.isEmpty(1) ? [] : nil }
        // GBS's time is the fix's: gpsd counts it in the end-of-cycle detection, so a receiver
        // that sends GBS last reports its fix with GBS's errors in it.
        registerFractionalTime(t)
        guard t.hour == hour, t.minute == minute, t.second == second else { return [] }
        newData.epy = latError
        newData.epx = lonError
        newData.epv = altError
        return .errors
    }

    // MARK: PGRME

    /// Garmin's estimated horizontal, vertical and spherical errors, in metres at 50%: gpsd
    /// scales them to its 95% confidence (2.45 / 1.18 sigma) and splits the horizontal one
    /// evenly between longitude and latitude.
    mutating func decodePGRME(_ f: NMEAFields) -> Mask? {
        guard f.first(2) == UInt8(ascii: "M"), f.first(4) == UInt8(ascii: "M"), f.first(6) == UInt8(ascii: "M")
        else { return [] }
        guard let horizontal = f.number(1), let vertical = f.number(3), let spherical = f.number(5),
              horizontal.isNaN || horizontal >= 0, vertical.isNaN || vertical >= 0, spherical.isNaN || spherical >= 0
        else { return nil }
        let confidence = 2.45 / 1.18
        newData.epx = horizontal * (1 / Double(2).squareRoot()) * confidence
        newData.epy = newData.epx
        newData.epv = vertical * confidence
        newData.sep = spherical * confidence
        return .errors
    }

    /// Garmin's altitude above mean sea level in whole feet, and its fix mode (1 to 3).
    // MARK: DBT

    /// An echo sounder's depth: metres, else feet, else fathoms, as gpsd reads them. Like gpsd,
    /// the first DBT makes every later sentence without a time end a cycle.
    mutating func decodeDBT(_ f: NMEAFields) -> Mask? {
        defer { cycleContinues = true }
        let units: [(field: Int, metres: Double)] = [(3, 1), (1, 0.3048), (5, 1.8288)]
        for unit in units where !f.isEmpty(unit.field) {
            guard let value = f.number(unit.field), value.isFinite, abs(value) < 1e6 else { return nil }
            newData.depth = value * unit.metres
            return .altitude
        }
        return []
    }

    // MARK: MWV, MWD

    /// Relative wind angle and speed, read (as gpsd 3.22 does) only when relative, in knots and valid.
    mutating func decodeMWV(_ f: NMEAFields) -> Mask? {
        guard f.first(2) == UInt8(ascii: "R"), f.first(4) == UInt8(ascii: "N"), f.first(5) == UInt8(ascii: "A")
        else { return [] }
        guard let angle = f.number(1), let speed = f.number(3), Self.plausibleWind(angle), Self.plausibleWind(speed)
        else { return nil }
        newData.windAngleRelative = angle
        newData.windSpeedRelative = speed * Self.knotsToMetresPerSecond
        return .wind
    }

    /// True and magnetic wind direction and the speed in m/s; an empty field is unknown.
    mutating func decodeMWD(_ f: NMEAFields) -> Mask? {
        guard let trueAngle = f.number(1), let magneticAngle = f.number(3), let speed = f.number(7),
              Self.plausibleWind(trueAngle), Self.plausibleWind(magneticAngle), Self.plausibleWind(speed)
        else { return nil }
        newData.windAngleTrue = trueAngle
        newData.windAngleMagnetic = magneticAngle
        newData.windSpeedTrue = speed
        return .wind
    }

    /// Unknown (NaN), or a number small enough to print: no instrument gives more.
    private static func plausibleWind(_ value: Double) -> Bool { value.isNaN || abs(value) < 1e6 }

    mutating func decodePGRMZ(_ f: NMEAFields) -> Mask? {
        var mask: Mask = []
        if f.first(2) == UInt8(ascii: "f") && !f.isEmpty(1) {
            // gpsd reads the feet as C's atoi does.
            let metres = Double(f.atoi(1)) * 0.3048
            guard abs(metres) < 1e6 else { return nil }
            newData.altMSL = metres
            mask.insert(.altitude)
        }
        switch f.first(3) {
        case UInt8(ascii: "1"), UInt8(ascii: "2"), UInt8(ascii: "3"):
            newData.mode = Int(f.first(3) - UInt8(ascii: "0"))
            mask.insert(.mode)
        default:
            break
        }
        return mask
    }

    /// SiRF's estimated errors (metres, m/s, degrees) with HDOP, and a time that counts in the
    /// end-of-cycle detection; gpsd reads the values only when the sentence says they are valid.
    mutating func decodePSRFEPE(_ f: NMEAFields) -> Mask? {
        guard let time = Self.optionalTimeOfDay(f, 1) else { return nil }
        guard let h = f.number(3), let horizontal = f.number(4), let vertical = f.number(5),
              let speed = f.number(6), let track = f.number(7)
        else { return nil }
        // gpsd sets the status bit with no status: it raises nothing.
        var mask: Mask = .status
        if let time {
            applyHeaderDateIfNeeded()
            mergeTime(time)
            registerFractionalTime(time)
            if year != 0 { mask.insert(.time) }
        }
        guard f.first(2) == UInt8(ascii: "A") else { return mask }
        if !f.isEmpty(3) { hdop = h }
        newData.eph = horizontal
        newData.epv = vertical
        newData.eps = speed
        newData.epd = track
        return mask
    }

    // MARK: Heading sensors

    mutating func decodeHDT(_ f: NMEAFields) -> Mask? {
        if f.isEmpty(1) { return [] }
        guard let heading = f.number(1), (0...360).contains(heading) else { return nil }
        attitude.heading = heading
        attitude.source = "HDT"
        attitudeChanged = true
        return .attitude
    }

    mutating func decodeHDG(_ f: NMEAFields) -> Mask? {
        guard let heading = f.number(1), let deviation = f.number(2), let variation = f.number(4) else { return nil }
        if heading.isNaN { return [] }
        guard (0...360).contains(heading), deviation.isNaN || abs(deviation) <= 180,
              variation.isNaN || abs(variation) <= 180 else { return nil }
        attitude.magneticHeading = heading
        if !deviation.isNaN {
            attitude.magneticDeviation = f.first(3) == UInt8(ascii: "W") ? -deviation : deviation
        }
        if !variation.isNaN {
            attitude.magneticVariation = f.first(5) == UInt8(ascii: "W") ? -variation : variation
        }
        attitude.source = "HDG"
        attitudeChanged = true
        // gpsd 3.22 also prints the sensor's reading as the fix's magtrack (the deviation left
        // out, its variation not taken), in place of the course's: its TPVs do, so replay's do.
        newData.magneticTrack = heading
        return [.attitude, .magneticTrack]
    }

    mutating func decodeTHS(_ f: NMEAFields) -> Mask? {
        if f.isEmpty(1) { return [] }
        guard let heading = f.number(1), (0...360).contains(heading) else { return nil }
        let mode = f.first(2)
        if mode == UInt8(ascii: "V") || mode == 0 { return [] }
        attitude.heading = heading
        attitude.source = "THS"
        attitudeChanged = true
        return .attitude
    }
}
