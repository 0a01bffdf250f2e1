import Foundation
import GeoTrackTesting
import Testing

/// The release binary, linked on this machine's libgps (3.22), follows newer gpsd releases:
/// what it relies on is gpsd's protocol, not libgps's ABI. The versions are those make
/// test-gpsd-versions built into .build/gpsd/VERSION, named by GEOTRACK_TEST_GPSD_VERSIONS.
@Suite("the release binary against newer gpsd", .serialized)
struct ReleaseFollowsGPSDTests {
    /// The gpsd versions to follow.
    static let versions: [String] = (ProcessInfo.processInfo.environment["GEOTRACK_TEST_GPSD_VERSIONS"] ?? "")
        .split(separator: " ").map(String.init)

    static let release = TestSupport.packageRoot.appendingPathComponent(".build/release/geotrack").path

    /// The installation of `version`, or why there is none (saying how to build it).
    static func installation(_ version: String) throws -> GPSDInstallation {
        let installation = GPSDInstallation(prefix: TestSupport.packageRoot.appendingPathComponent(".build/gpsd/\(version)").path)
        if let problem = installation.problem {
            throw HarnessError("gpsd \(version) is not built: \(problem)")
        }
        guard FileManager.default.isExecutableFile(atPath: release) else {
            throw HarnessError("\(release) is missing: make release-geotrack builds it (make test-gpsd-versions does)")
        }
        return installation
    }

    @Test("the versions to follow are named (make test-gpsd-versions sets GEOTRACK_TEST_GPSD_VERSIONS)")
    func versionsNamed() {
        #expect(!Self.versions.isEmpty,
                "GEOTRACK_TEST_GPSD_VERSIONS is empty: run make test-gpsd-versions, which builds gpsd 3.25 and 3.27.5 and sets it")
    }

    @Test("the release binary built on 3.22 follows a newer gpsd: every TPV key and value, SKY and devices as its gpspipe -w",
          arguments: versions)
    func follows(version: String) async throws {
        let installation = try Self.installation(version)
        let label = "release geotrack with gpsd \(version)"
        try await GPSDAgreement.watchAgrees(binary: Self.release, installation: installation, label: label)
        try await GPSDAgreement.devicesAgree(binary: Self.release, installation: installation, label: label)
    }
}
