import LocationKit
#if canImport(Glibc)
import Glibc
#endif

/// What a user of the geotrack command can do about a location error: LocationKit says what
/// failed; the command knows how access is decided here (`geotrack auth`).
extension LocationError {
    /// The error's description followed by what to do, as one line.
    package var advisedMessage: String {
        switch self {
        case .denied, .notDetermined:
            description + ". Run `geotrack auth grant` to allow it."
        case .restricted:
            description + "; ask your administrator to change it."
        case .locationUnknown:
            description + ". Check that the receiver has a clear view of the sky (try `cgps`)."
        case .authorizationStore(let path, _) where Self.isFolder(path):
            // A reset removes a file, never a folder and what it holds: that is the user's to do.
            description + ". That is a folder where the decision file belongs: move it away, then run `geotrack auth grant`."
        case .authorizationStore:
            // Resetting removes the file whatever it holds (a link, text that is no decision, a
            // file no one may read), and the folder is the user's own.
            description + ". Run `geotrack auth reset` and decide again."
        case .stateFolder:
            // The reason says what to do with the folder; a reset cannot help.
            description
        case .source(let error):
            error.advisedMessage
        case .regionMonitoringFailed, .monitorFailed, .monitorInUse:
            description
        }
    }

    /// Whether `path` is a folder (not followed if it is a link).
    private static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }
}
