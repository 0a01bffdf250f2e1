import Foundation

/// The gpsd whose programs (gpsd, gpsfake, gpspipe, gpsdecode) the tests run: the system's
/// (Debian's, in /usr), or the one installed under `GEOTRACK_TEST_GPSD_PREFIX` (make
/// test-gpsd-versions builds gpsd 3.25 and 3.27.5 into .build/gpsd/VERSION and sets it).
public struct GPSDInstallation: Sendable, Equatable {
    /// Where it is installed: its programs are in `prefix/bin` and `prefix/sbin`; nil for the
    /// system's, in /usr/bin and /usr/sbin.
    public let prefix: String?

    /// The system's gpsd.
    public static let system = GPSDInstallation(prefix: nil)

    /// The one the tests use: `GEOTRACK_TEST_GPSD_PREFIX` when set and not empty, else the system's.
    public static let current: GPSDInstallation = {
        guard let prefix = ProcessInfo.processInfo.environment["GEOTRACK_TEST_GPSD_PREFIX"], !prefix.isEmpty else {
            return .system
        }
        return GPSDInstallation(prefix: prefix)
    }()

    /// The installation under `prefix` (nil: the system's).
    public init(prefix: String?) {
        self.prefix = prefix
    }

    /// The path of one of its programs (`gpsfake`, `gpspipe`, `gpsdecode`; `gpsd` is in sbin).
    public func path(of program: String) -> String {
        let folder = program == "gpsd" ? "sbin" : "bin"
        return "\(prefix ?? "/usr")/\(folder)/\(program)"
    }

    /// What its programs need in their environment: gpsfake's Python module, and the gpsd it
    /// starts (gpsfake runs the first gpsd on GPSD_HOME, else on PATH, which finds the
    /// system's). Empty for the system's.
    public var environment: [String: String] {
        guard let prefix else { return [:] }
        return ["PYTHONPATH": "\(prefix)/lib/python", "GPSD_HOME": "\(prefix)/sbin",
                "LD_LIBRARY_PATH": "\(prefix)/lib"]
    }

    /// How to start `program` with `arguments` and this installation's environment: through
    /// /usr/bin/env, which sets it and then runs the program in its own place (same process,
    /// so signals sent to it reach the program).
    public func command(_ program: String, _ arguments: [String]) -> (executable: String, arguments: [String]) {
        let settings = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        if settings.isEmpty { return (path(of: program), arguments) }
        return ("/usr/bin/env", settings + [path(of: program)] + arguments)
    }

    /// Why it cannot be used, or nil when its gpsd and gpsfake are installed: one line, saying
    /// how to install them.
    public var problem: String? {
        let fileManager = FileManager.default
        for program in ["gpsd", "gpsfake", "gpspipe"] where !fileManager.isExecutableFile(atPath: path(of: program)) {
            if let prefix {
                return "\(path(of: program)) is missing: GEOTRACK_TEST_GPSD_PREFIX=\(prefix) names no gpsd installation (make test-gpsd-versions builds them into .build/gpsd/VERSION; or scripts/build-gpsd.sh TARBALL \(prefix))"
            }
            return "\(program) is not installed at \(path(of: program)): make deps installs what the tests need (or sudo apt-get install gpsd gpsd-clients)"
        }
        return nil
    }
}
