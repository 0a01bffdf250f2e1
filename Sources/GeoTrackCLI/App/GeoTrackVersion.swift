/// The version `--version` prints.
package enum GeoTrackVersion {
    /// The release.
    package static let string = "0.1.0"
}
