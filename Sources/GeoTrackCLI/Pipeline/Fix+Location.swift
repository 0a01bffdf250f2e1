import GPSReports
import LocationKit

extension Fix {
    /// The TPV a delivered location stands for, for JSON and GPX output.
    package init(location: Location) {
        self.init(mode: location.gnss.fixMode, time: location.timestamp, device: location.gnss.device)
        status = location.gnss.status
        latitude = location.coordinate.latitude
        longitude = location.coordinate.longitude
        altitudeMSL = location.altitude
        altitudeHAE = location.ellipsoidalAltitude
        eph = location.horizontalAccuracy
        epv = location.verticalAccuracy
        speed = location.speed
        eps = location.speedAccuracy
        track = location.course
        epd = location.courseAccuracy
    }
}
