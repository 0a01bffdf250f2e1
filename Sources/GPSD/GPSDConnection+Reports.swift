import CGPS
import Foundation
import GPSReports

extension GPSDConnection {
    /// Turns one message, as the shim copied it, into a report.
    static func makeReport(from raw: geotrack_report, data: UnsafePointer<gps_data_t>) -> Report? {
        switch raw.kind {
        case GEOTRACK_KIND_TPV:
            return .fix(makeFix(raw, device: nonEmpty(geotrack_report_device(data))))
        case GEOTRACK_KIND_SKY:
            return .sky(makeSky(raw, data: data))
        case GEOTRACK_KIND_ATT:
            var attitude = Attitude(device: nonEmpty(geotrack_report_device(data)), time: date(raw.time),
                                    heading: finite(raw.heading), magneticHeading: finite(raw.magnetic_heading))
            attitude.pitch = finite(raw.pitch)
            attitude.roll = finite(raw.roll)
            attitude.yaw = finite(raw.yaw)
            attitude.source = "ATT"
            return .attitude(attitude)
        case GEOTRACK_KIND_DEVICES:
            let devices = (0..<raw.device_count).compactMap { makeDevice(geotrack_device_at(data, $0)) }
            return .devices(devices)
        case GEOTRACK_KIND_DEVICE:
            guard let device = makeDevice(geotrack_device_current(data)) else { return nil }
            return device.activated == nil ? .deviceRemoved(device) : .deviceAdded(device)
        case GEOTRACK_KIND_VERSION:
            return .version(Version(release: String(cString: geotrack_version_release(data)),
                                    revision: String(cString: geotrack_version_revision(data)),
                                    protocolMajor: Int(raw.proto_major), protocolMinor: Int(raw.proto_minor)))
        default:
            return nil
        }
    }

    private static func makeFix(_ raw: geotrack_report, device: String?) -> Fix {
        var fix = Fix(mode: FixMode(rawValue: Int(raw.mode)) ?? .unknown, time: date(raw.time), device: device)
        // libgps reads an absent status as 0 (unknown): either way there is nothing to report.
        fix.status = raw.status == 0 ? nil : FixStatus(rawValue: Int(raw.status))
        fix.latitude = finite(raw.latitude)
        fix.longitude = finite(raw.longitude)
        fix.altitudeHAE = finite(raw.alt_hae)
        fix.altitudeMSL = finite(raw.alt_msl)
        fix.geoidSeparation = finite(raw.geoid_sep)
        fix.eph = finite(raw.eph)
        fix.sep = finite(raw.sep)
        fix.epx = finite(raw.epx)
        fix.epy = finite(raw.epy)
        fix.epv = finite(raw.epv)
        fix.ept = finite(raw.ept)
        fix.speed = finite(raw.speed)
        fix.track = finite(raw.track)
        fix.magneticTrack = finite(raw.magnetic_track)
        fix.magneticVariation = finite(raw.magnetic_var)
        fix.climb = finite(raw.climb)
        fix.eps = finite(raw.eps)
        fix.epd = finite(raw.epd)
        fix.epc = finite(raw.epc)
        return fix
    }

    private static func makeSky(_ raw: geotrack_report, data: UnsafePointer<gps_data_t>) -> SkyView {
        var satellites: [Satellite] = []
        var slot = geotrack_satellite()
        for index in 0..<geotrack_satellite_capacity(data) where geotrack_satellite_at(data, index, &slot) {
            satellites.append(Satellite(
                prn: Int(slot.prn),
                // gps.h: gnssid and sigid mean nothing when svid is 0.
                gnssID: slot.sv_id == 0 ? nil : Int(slot.gnss_id),
                svID: slot.sv_id == 0 ? nil : Int(slot.sv_id),
                elevation: finite(slot.elevation),
                azimuth: finite(slot.azimuth),
                signalStrength: finite(slot.signal_strength),
                used: slot.used))
        }
        var sky = SkyView(device: nonEmpty(geotrack_report_device(data)), time: date(raw.time), satellites: satellites)
        sky.xdop = finite(raw.xdop)
        sky.ydop = finite(raw.ydop)
        sky.vdop = finite(raw.vdop)
        sky.tdop = finite(raw.tdop)
        sky.hdop = finite(raw.hdop)
        sky.pdop = finite(raw.pdop)
        sky.gdop = finite(raw.gdop)
        return sky
    }

    private static func makeDevice(_ raw: geotrack_device) -> Device? {
        guard let path = nonEmpty(raw.path) else { return nil }
        return Device(path: path, driver: nonEmpty(raw.driver), subtype: nonEmpty(raw.subtype),
                      activated: date(raw.activated),
                      bitsPerSecond: raw.bits_per_second == 0 ? nil : Int(raw.bits_per_second),
                      cycle: finite(raw.cycle))
    }

    private static func finite(_ value: Double) -> Double? {
        value.isFinite ? value : nil
    }

    private static func date(_ time: geotrack_time) -> Date? {
        guard time.present else { return nil }
        return Date(timeIntervalSince1970: Double(time.seconds) + Double(time.nanoseconds) / 1_000_000_000)
    }

    private static func nonEmpty(_ string: UnsafePointer<CChar>?) -> String? {
        guard let string, string.pointee != 0 else { return nil }
        return String(cString: string)
    }
}
