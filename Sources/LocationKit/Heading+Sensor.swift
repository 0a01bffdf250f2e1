import FoundationEssentials
import GPSReports

extension Heading {
    /// A heading sensor's reading with both of CoreLocation's headings where they can be worked
    /// out, or nil when it holds no valid heading.
    ///
    /// A magnetic compass (NMEA HDG) gives the sensor's reading and perhaps its deviation: the
    /// magnetic heading is the reading plus the deviation (east positive). The true heading is
    /// the magnetic heading plus the magnetic variation, and a true-north sensor's (HDT, THS,
    /// gpsd's ATT `heading`) magnetic heading is its true heading minus it. `variation` is the
    /// sensor's own when it gave one, else the caller's for the place (gpsd's `magvar`, or its
    /// model); without one, only the heading the sensor measured is known.
    init?(sensor attitude: Attitude, variation: Double?, timestamp: Date) {
        let variation = MeasuredValue.finite(attitude.magneticVariation) ?? MeasuredValue.finite(variation)
        let measuredTrue = MeasuredValue.finite(attitude.heading)
        let magnetic = MeasuredValue.finite(attitude.magneticHeading).map { $0 + (MeasuredValue.finite(attitude.magneticDeviation) ?? 0) }
        let trueHeading = measuredTrue ?? magnetic.flatMap { magnetic in variation.map { magnetic + $0 } }
        let magneticHeading = magnetic ?? measuredTrue.flatMap { heading in variation.map { heading - $0 } }
        self.init(trueHeading: trueHeading, magneticHeading: magneticHeading, timestamp: timestamp,
                  source: .sensor(attitude.source))
    }
}
