import CGPS
import FoundationEssentials
import GPSReports
#if canImport(Glibc)
import Glibc
#endif

extension GPSDMessageDecoder {
    /// The GPS epoch (1980-01-06), in Unix seconds: no receiver reports a time before it.
    static let earliestTime: Int64 = 315_964_800
    /// 2100-01-01: a time after it is garbage, not a fix from the future.
    static let latestTime: Int64 = 4_102_444_800

    /// Turns one message, as the shim copied it, into a report, checking what it can.
    static func makeReport(from raw: geotrack_report, data: OpaquePointer) -> Outcome {
        switch raw.kind {
        case GEOTRACK_KIND_TPV:
            return makeFix(raw, device: nonEmpty(geotrack_report_device(data)))
        case GEOTRACK_KIND_SKY:
            guard let time = checkedTime(raw.time) else { return .rejected(reason: "a SKY message with an impossible time") }
            return .report(.sky(makeSky(raw, time: time, data: data)))
        case GEOTRACK_KIND_ATT:
            guard let time = checkedTime(raw.time) else { return .rejected(reason: "an ATT message with an impossible time") }
            var attitude = Attitude(device: nonEmpty(geotrack_report_device(data)), time: time.date,
                                    heading: angle(raw.heading), magneticHeading: angle(raw.magnetic_heading))
            attitude.pitch = finite(raw.pitch)
            attitude.roll = finite(raw.roll)
            attitude.yaw = finite(raw.yaw)
            attitude.source = "ATT"
            return .report(.attitude(attitude))
        case GEOTRACK_KIND_GST:
            guard let time = checkedTime(raw.time) else { return .rejected(reason: "a GST message with an impossible time") }
            var noise = PseudorangeNoise(device: nonEmpty(geotrack_report_device(data)), time: time.date)
            // Standard deviations cannot be negative, nor can an orientation pass a full turn.
            noise.rangeRMS = estimate(raw.gst_rms)
            noise.semiMajor = estimate(raw.gst_major)
            noise.semiMinor = estimate(raw.gst_minor)
            noise.orientation = finite(raw.gst_orient).flatMap { abs($0) <= 360 ? $0 : nil }
            noise.latitudeError = estimate(raw.gst_lat)
            noise.longitudeError = estimate(raw.gst_lon)
            noise.altitudeError = estimate(raw.gst_alt)
            return .report(.noise(noise))
        case GEOTRACK_KIND_DEVICES:
            let devices = (0..<raw.device_count).compactMap { makeDevice(geotrack_device_at(data, $0)) }
            return .report(.devices(devices))
        case GEOTRACK_KIND_DEVICE:
            guard let device = makeDevice(geotrack_device_current(data)) else { return .ignored }
            return .report(device.activated == nil ? .deviceRemoved(device) : .deviceAdded(device))
        case GEOTRACK_KIND_VERSION:
            return .report(.version(Version(release: String(cString: geotrack_version_release(data)),
                                            revision: String(cString: geotrack_version_revision(data)),
                                            protocolMajor: Int(raw.proto_major), protocolMinor: Int(raw.proto_minor))))
        default:
            return .ignored
        }
    }

    /// A time as sent: absent, or checked.
    private enum CheckedTime {
        case absent
        case valid(Date)

        var date: Date? {
            if case .valid(let date) = self { date } else { nil }
        }
    }

    /// `nil` when a time is present but impossible (libgps reads `"time":"not-a-time"` as 1899).
    private static func checkedTime(_ time: geotrack_time) -> CheckedTime? {
        guard time.present else { return .absent }
        guard (earliestTime...latestTime).contains(time.seconds), (0..<1_000_000_000).contains(time.nanoseconds) else {
            return nil
        }
        return .valid(Date(timeIntervalSince1970: Double(time.seconds) + Double(time.nanoseconds) / 1_000_000_000))
    }

    private static func makeFix(_ raw: geotrack_report, device: String?) -> Outcome {
        guard let time = checkedTime(raw.time) else { return .rejected(reason: "a TPV with an impossible time") }
        // A position outside the globe is not a position: the whole report goes, not just the
        // field, since whatever produced it cannot be trusted for the rest either.
        if raw.latitude.isFinite, !(-90...90).contains(raw.latitude) {
            return .rejected(reason: "a TPV with a latitude beyond ±90°")
        }
        if raw.longitude.isFinite, !(-180...180).contains(raw.longitude) {
            return .rejected(reason: "a TPV with a longitude beyond ±180°")
        }
        var fix = Fix(mode: FixMode(rawValue: Int(raw.mode)) ?? .unknown, time: time.date, device: device)
        // libgps reads an absent status as 0 (unknown): either way there is nothing to report.
        fix.status = raw.status == 0 ? nil : FixStatus(rawValue: Int(raw.status))
        fix.latitude = finite(raw.latitude)
        fix.longitude = finite(raw.longitude)
        fix.altitudeHAE = finite(raw.alt_hae)
        fix.altitudeMSL = finite(raw.alt_msl)
        fix.geoidSeparation = finite(raw.geoid_sep)
        fix.eph = estimate(raw.eph)
        fix.sep = estimate(raw.sep)
        fix.epx = estimate(raw.epx)
        fix.epy = estimate(raw.epy)
        fix.epv = estimate(raw.epv)
        fix.ept = estimate(raw.ept)
        fix.speed = estimate(raw.speed)
        fix.track = angle(raw.track)
        fix.magneticTrack = angle(raw.magnetic_track)
        fix.magneticVariation = finite(raw.magnetic_var).flatMap { abs($0) <= 180 ? $0 : nil }
        fix.climb = finite(raw.climb)
        fix.eps = estimate(raw.eps)
        fix.epd = estimate(raw.epd)
        fix.epc = estimate(raw.epc)
        fix.depth = estimate(raw.depth)
        // gpsd prints the two together, and only with a station: so does the TPV GeoTrack writes.
        if let age = estimate(raw.dgps_age), (0...65_535).contains(raw.dgps_station) {
            fix.dgpsAge = age
            fix.dgpsStation = Int(raw.dgps_station)
        }
        // A relative wind angle is signed (off the bow, port negative); the others are bearings.
        let wind = Wind(magneticAngle: angle(raw.wind_angle_magnetic),
                        relativeAngle: finite(raw.wind_angle_relative).flatMap { abs($0) <= 360 ? $0 : nil },
                        trueAngle: angle(raw.wind_angle_true), relativeSpeed: estimate(raw.wind_speed_relative),
                        trueSpeed: estimate(raw.wind_speed_true))
        if wind != Wind() { fix.wind = wind }
        return .report(.fix(fix))
    }

    private static func makeSky(_ raw: geotrack_report, time: CheckedTime, data: OpaquePointer) -> SkyView {
        var satellites: [Satellite] = []
        var slot = geotrack_satellite()
        for index in 0..<geotrack_satellite_capacity(data) where geotrack_satellite_at(data, index, &slot) {
            satellites.append(Satellite(
                prn: Int(slot.prn),
                // gps.h: gnssid and sigid mean nothing when svid is 0.
                gnssID: slot.sv_id == 0 ? nil : Int(slot.gnss_id),
                svID: slot.sv_id == 0 ? nil : Int(slot.sv_id),
                signalID: slot.sv_id == 0 || slot.sig_id == 0 ? nil : Int(slot.sig_id),
                elevation: finite(slot.elevation).flatMap { abs($0) <= 90 ? $0 : nil },
                azimuth: angle(slot.azimuth),
                signalStrength: estimate(slot.signal_strength),
                used: slot.used,
                health: SatelliteHealth(rawValue: Int(slot.health))))
        }
        var sky = SkyView(device: nonEmpty(geotrack_report_device(data)), time: time.date, satellites: satellites)
        sky.xdop = estimate(raw.xdop)
        sky.ydop = estimate(raw.ydop)
        sky.vdop = estimate(raw.vdop)
        sky.tdop = estimate(raw.tdop)
        sky.hdop = estimate(raw.hdop)
        sky.pdop = estimate(raw.pdop)
        sky.gdop = estimate(raw.gdop)
        return sky
    }

    private static func makeDevice(_ raw: geotrack_device) -> Device? {
        guard let path = nonEmpty(raw.path) else { return nil }
        let activated: Date? = if case .valid(let date)? = checkedTime(raw.activated) { date } else { nil }
        return Device(path: path, driver: nonEmpty(raw.driver), subtype: nonEmpty(raw.subtype),
                      activated: activated,
                      bitsPerSecond: raw.bits_per_second == 0 ? nil : Int(raw.bits_per_second),
                      cycle: estimate(raw.cycle))
    }

    private static func finite(_ value: Double) -> Double? {
        value.isFinite ? value : nil
    }

    /// A magnitude that cannot be negative: an error estimate, a speed, a dilution, a signal strength.
    private static func estimate(_ value: Double) -> Double? {
        value.isFinite && value >= 0 ? value : nil
    }

    /// A direction in degrees from north.
    private static func angle(_ value: Double) -> Double? {
        value.isFinite && value >= 0 && value <= 360 ? value : nil
    }

    private static func nonEmpty(_ string: UnsafePointer<CChar>?) -> String? {
        guard let string, string.pointee != 0 else { return nil }
        return String(cString: string)
    }
}
