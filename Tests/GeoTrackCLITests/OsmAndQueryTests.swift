import Foundation
import GPSReports
import LocationKit
import Testing
@testable import GeoTrackCLI

/// The OsmAnd query a location becomes, as Traccar's OsmAndProtocolDecoder reads it.
struct OsmAndQueryTests {
    @Test("a position alone: id, timestamp, lat and lon, nothing the receiver did not report")
    func positionOnly() throws {
        let location = Location(coordinate: try #require(Coordinate(latitude: 0.00001, longitude: -122.3263935)),
                                timestamp: Date(timeIntervalSince1970: 1_754_373_154.9))
        #expect(OsmAndQuery.make(location, id: "boat") == "id=boat&timestamp=1754373154&lat=0.00001&lon=-122.3263935")
    }

    @Test("speed in knots, bearing, altitude, accuracy and hdop when reported; the id percent-encoded")
    func everything() throws {
        let location = Location(coordinate: try #require(Coordinate(latitude: 47.661981667, longitude: -122.326393667)), altitude: -3.25,
                                horizontalAccuracy: 17.1, speed: 1852.0 / 3600.0 * 12.5, course: 286.35,
                                timestamp: Date(timeIntervalSince1970: 1_754_373_154), gnss: GNSSDetail(hdop: 0.9))
        #expect(OsmAndQuery.make(location, id: "ann's boat")
            == "id=ann%27s%20boat&timestamp=1754373154&lat=47.661981667&lon=-122.326393667&speed=12.5&bearing=286.4&altitude=-3.25&accuracy=17.1&hdop=0.9")
    }

    @Test("a standstill the receiver reported is a speed of 0, not left out")
    func standstill() throws {
        let location = Location(coordinate: try #require(Coordinate(latitude: 1, longitude: 2)), speed: 0,
                                timestamp: Date(timeIntervalSince1970: 10))
        #expect(OsmAndQuery.make(location, id: "x") == "id=x&timestamp=10&lat=1&lon=2&speed=0")
    }
}
