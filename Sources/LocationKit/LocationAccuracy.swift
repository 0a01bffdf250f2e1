/// Accuracy constants for ``LocationManager/desiredAccuracy``, in metres.
public enum LocationAccuracy {
    /// Every location, whatever its accuracy.
    public static let best: Double = -1
    /// CoreLocation's `kCLLocationAccuracyBestForNavigation`: here the same as ``best`` (a
    /// receiver cannot do better on request), so that navigation code ports unchanged.
    public static let bestForNavigation: Double = -2
    /// Within 10 m.
    public static let nearestTenMeters: Double = 10
    /// Within 100 m.
    public static let hundredMeters: Double = 100
    /// Within 1 km.
    public static let kilometer: Double = 1000
    /// Within 3 km.
    public static let threeKilometers: Double = 3000
}
