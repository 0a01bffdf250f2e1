import FoundationEssentials
import GeoTrackService
import GPSReports
import LocationKit
import Synchronization
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// `--svg FILE`: the run's track, drawn once at the end (``TrackPicture``).
///
/// The file is checked when the run starts, so a name that cannot be used is refused before
/// anything runs: an existing file unless `replacing` (`--overwrite`), a symbolic link always,
/// and the file being replayed always. At the end the picture is written to a file without a
/// name yet (``PendingFile``), synced, and then named: a reader sees no half picture, and without
/// `--overwrite` a file that appeared meanwhile is not replaced.
package final class PictureOutput: Sendable {
    private let path: String
    private let replacing: Bool
    private let units: Units
    private let title: String
    private let state: Mutex<(picture: TrackPicture, statistics: TrackStatistics)>

    /// Checks `path` and prepares the picture; `regions` are drawn as dashed circles.
    package init(path: String, replacing: Bool, input: String?, units: Units, title: String,
                 regions: [RegionSetting]) throws(CLIError) {
        if let input, OutputFile.same(input, path) {
            throw CLIError(.cannotCreate, "refusing to write the SVG picture over \(path), the file being replayed; choose another name")
        }
        if let refusal = OutputFile.refusal("SVG", path: path, replacing: replacing) { throw refusal }
        let directory = FilePath(path).removingLastComponent().string
        guard access(directory.isEmpty ? "." : directory, W_OK) == 0 else {
            throw CLIError(.cannotCreate, "cannot create SVG file \(path): its directory is missing or not writable")
        }
        self.path = path
        self.replacing = replacing
        self.units = units
        self.title = title
        var picture = TrackPicture()
        for region in regions {
            if let center = Coordinate(latitude: region.latitude, longitude: region.longitude) {
                picture.addRegion(name: region.name, center: center, radius: region.radius)
            }
        }
        state = Mutex((picture, TrackStatistics()))
    }

    /// Adds a location the run delivered.
    package func add(_ location: Location) {
        state.withLock { state in
            state.picture.add(location)
            state.statistics.add(location)
        }
    }

    /// Draws the picture and puts it in place; with no position to draw, writes nothing, as
    /// `--gpx` leaves no track without a point: no picture of nothing that the same command
    /// would then refuse as existing, and an old one under `--overwrite` kept.
    package func write() throws(CLIError) {
        guard let text = state.withLock({ $0.picture.svg(statistics: $0.statistics, units: units, title: title) }) else { return }
        // A new picture gets the mode open(2) would give it under the umask; a replaced one keeps its own.
        let keeping = replacing ? OutputFile.regularFileMode(path) : nil
        guard let pending = PendingFile.create(for: path, prefix: ".geotrack-svg", keepingMode: keeping) else {
            throw failure("cannot create a temporary file beside it")
        }
        defer { close(pending.descriptor) }
        var reason: Int32 = 0
        do {
            _ = try FileDescriptor(rawValue: pending.descriptor).writeAll(text.utf8)
            if fsync(pending.descriptor) != 0 { reason = errno }
        } catch {
            reason = (error as? Errno)?.rawValue ?? EIO
        }
        // A full disk (or `ulimit -f`) is a write that failed midway, 74, as for --gpx: the
        // directory is writable, so the advice to check it would mislead.
        guard reason == 0 else {
            pending.abandon()
            throw CLIError(.ioError, "cannot write SVG file \(path): \(String(cString: strerror(reason))); make room and run again")
        }
        switch pending.place(replacing: replacing) {
        case .placed:
            return
        case .appeared:
            throw CLIError(.cannotCreate, "SVG file \(path) appeared during the run; it was left alone (pass --overwrite to replace it)")
        case .failed(let code):
            errno = code
            throw failure(replacing ? "cannot move it into place" : "cannot put it in place")
        }
    }

    private func failure(_ what: String) -> CLIError {
        CLIError(.cannotCreate, "SVG file \(path): \(what) (\(String(cString: strerror(errno)))). Check the directory is writable.")
    }
}
