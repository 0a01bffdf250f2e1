// swift-tools-version: 6.2
// GeoTrack: CoreLocation's programming model for Linux machines with a GPS receiver.
//
// The folders follow the data flow:
//   gpsd → CGPS → GPSD ─┐  (each a GPSReports.LocationSource)
//   NMEA log / GPX → NMEA ┴→ LocationKit (manager, delegate, proxy; knows only GPSReports and GeoTrackReactive)
//   (NMEA → TPVJSONBulk: `replay FILE --json`'s bulk path, straight to GeoTrackCLI)
//     → GeoTrackService (status, heading, events, Drivers) → GeoTrackCLI's outputs → geotrack
// GeoTrackKit re-exports them all, for one import.
import PackageDescription

/// Every target of ours: Swift 6 mode (the tools default) with warnings as errors.
let strict: [SwiftSetting] = [
    .treatAllWarnings(as: .error),
]

let package = Package(
    name: "GeoTrack",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "GPSReports", targets: ["GPSReports"]),
        .library(name: "Executors", targets: ["Executors"]),
        .library(name: "GPSD", targets: ["GPSD"]),
        .library(name: "NMEA", targets: ["NMEA"]),
        .library(name: "GeoTrackReactive", targets: ["GeoTrackReactive"]),
        .library(name: "LocationKit", targets: ["LocationKit"]),
        .library(name: "GeoTrackService", targets: ["GeoTrackService"]),
        .library(name: "GeoTrackKit", targets: ["GeoTrackKit"]),
        .library(name: "MQTT", targets: ["MQTT"]),
        .library(name: "OwnTracks", targets: ["OwnTracks"]),
        .library(name: "Outbox", targets: ["Outbox"]),
        .library(name: "HTTP", targets: ["HTTP"]),
        .library(name: "Publishing", targets: ["Publishing"]),
        .library(name: "WebServe", targets: ["WebServe"]),
        .library(name: "GeoTrackTesting", targets: ["GeoTrackTesting"]),
        .executable(name: "geotrack", targets: ["geotrack"]),
        .executable(name: "geotrack-example", targets: ["geotrack-example"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-configuration.git", from: "1.4.0", traits: []),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-system.git", from: "1.8.1"),
        // `geotrack serve`'s HTTP server: NIO's channels, whose write-buffer water marks bound
        // what a browser that stops reading can hold.
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.0"),
        // `swift package generate-documentation` for the DocC catalogs (no target depends on it).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // MARK: Report types shared by every source (no C, no I/O).
        .target(name: "GPSReports", swiftSettings: strict),

        // MARK: Where code runs: main loop, worker pool, signal and descriptor watches, no Dispatch.
        // CExecutors is compiled C (not a header-only system library): the signal handler's
        // pipe is one variable per process, which a header's `static` would not be.
        .target(name: "CExecutors"),
        .target(name: "Executors", dependencies: ["CExecutors"], swiftSettings: strict),

        // MARK: gpsd, through libgps. Only <gps.h> (libgps-dev) at build time, and only for
        // CGPS.c: the library is opened when the first connection to gpsd is made, so other
        // commands never load it.
        .target(name: "CGPS", linkerSettings: [.linkedLibrary("dl")]),
        .target(
            name: "GPSD",
            dependencies: [
                "CGPS", "GPSReports", "Executors",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),

        // MARK: NMEA logs and GPX tracks, decoded the way gpsd would.
        // Their framing kernel is C: clang's vector extensions turn a byte comparison into a
        // bit mask, which Swift's SIMD types cannot.
        .systemLibrary(name: "CNMEA"),
        .target(name: "NMEA", dependencies: ["CNMEA", "GPSReports", "Executors"], swiftSettings: strict),
        // `geotrack replay FILE --json`'s bulk path: a log decoded in chunks on every core, or by one
        // decoder with the JSON on a second thread, through NMEA's small package API for it.
        .target(name: "TPVJSONBulk", dependencies: ["NMEA", "GPSReports", "Executors"], swiftSettings: strict),

        // MARK: Delegate proxies and traits (generic, no location knowledge).
        .target(name: "GeoTrackReactive", swiftSettings: strict),

        // MARK: The CLLocationManager-like layer.
        .target(
            name: "LocationKit",
            dependencies: [
                "GPSReports", "GeoTrackReactive", "Executors",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "GeoTrackService",
            dependencies: ["LocationKit", "GeoTrackReactive", "GPSReports"],
            swiftSettings: strict
        ),
        // MARK: Fleet: the MQTT transport (libmosquitto), OwnTracks' messages, the durable outbox.
        // Only <mosquitto.h> (libmosquitto-dev) at build time: the library itself is opened
        // when the first client is made, so starts that do not publish never load it.
        .target(name: "CMosquitto", linkerSettings: [.linkedLibrary("dl")]),
        .target(
            name: "MQTT",
            dependencies: ["CMosquitto", "Executors", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        .target(name: "OwnTracks", dependencies: ["GPSReports", "LocationKit"], swiftSettings: strict),
        // SQLite for the outbox. Only <sqlite3.h> (libsqlite3-dev) at build time: the library is
        // opened when the first outbox is opened, so starts that do not publish never load it.
        // Compiled C (csqlite.c), so that SwiftPM rebuilds what changes.
        .target(name: "CSQLite", linkerSettings: [.linkedLibrary("dl")]),
        .target(
            name: "Outbox",
            dependencies: [
                "CSQLite", "Executors",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // MARK: HTTP destinations (OwnTracks' HTTP mode, Traccar's OsmAnd) over libcurl. Only
        // <curl/curl.h> (libcurl4-openssl-dev) at build time: the library is opened when the
        // first HTTP client is made, as libmosquitto is.
        .target(name: "CCurl", linkerSettings: [.linkedLibrary("dl")]),
        .target(name: "HTTP", dependencies: ["CCurl", "Executors"], swiftSettings: strict),
        .target(
            name: "Publishing",
            dependencies: ["MQTT", "HTTP", "Outbox", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),

        // MARK: A small HTTP server for `geotrack serve`: fixed assets and one Server-Sent-Events
        // stream to many clients, each bounded by its channel's write-buffer water marks.
        .target(
            name: "WebServe",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),

        // MARK: One import for programs: every layer above, re-exported.
        .target(
            name: "GeoTrackKit",
            dependencies: [
                "GPSReports", "GPSD", "NMEA", "GeoTrackReactive", "LocationKit", "GeoTrackService",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),

        // MARK: An example program: liveUpdates, Monitor and ServiceSession on a replay, with one import.
        .executableTarget(name: "geotrack-example", dependencies: ["GeoTrackKit"], path: "Examples/LiveMonitor",
                          swiftSettings: strict),

        // MARK: Public testing support: manual clock, replay-driven sources.
        // The harness's children inherit no descriptor of the test process but their own three:
        // glibc's close-from action, which Swift's Glibc module does not declare.
        .target(name: "CSpawn"),
        .target(name: "GeoTrackTesting", dependencies: ["GPSReports", "LocationKit", "NMEA", "Executors", "CSpawn"], swiftSettings: strict),

        // MARK: The command-line tool.
        .executableTarget(
            name: "geotrack",
            dependencies: ["GeoTrackCLI", "Executors"],
            swiftSettings: strict
        ),
        // The CLI's commands, renderer, GPX writer and configuration, as a library so tests can reach them.
        .target(
            name: "GeoTrackCLI",
            dependencies: [
                "GPSReports", "GPSD", "NMEA", "TPVJSONBulk", "LocationKit", "GeoTrackService", "GeoTrackReactive",
                "Executors", "MQTT", "HTTP", "OwnTracks", "Outbox", "Publishing", "WebServe",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: strict
        ),

        // MARK: Tests
        .testTarget(name: "GPSReportsTests", dependencies: ["GPSReports", "GeoTrackTesting"], swiftSettings: strict),
        .testTarget(name: "ExecutorsTests", dependencies: ["Executors"], swiftSettings: strict),
        .testTarget(
            name: "GPSDTests",
            dependencies: ["GPSD", "CGPS", "GPSReports", "GeoTrackTesting", .product(name: "Logging", package: "swift-log")],
            resources: [.copy("Logs")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "NMEATests",
            dependencies: ["NMEA", "CNMEA", "GPSReports", "GeoTrackTesting"],
            resources: [.copy("Logs")],
            swiftSettings: strict
        ),
        // Reads NMEATests' logs from the source tree, as GeoTrackCLITests reads its fixtures.
        .testTarget(name: "TPVJSONBulkTests", dependencies: ["TPVJSONBulk", "NMEA", "GeoTrackTesting"], swiftSettings: strict),
        .testTarget(name: "GeoTrackReactiveTests", dependencies: ["GeoTrackReactive", "GeoTrackTesting"], swiftSettings: strict),
        .testTarget(
            name: "LocationKitTests",
            dependencies: [
                "LocationKit", "GeoTrackTesting", "GPSReports", "GPSD", "GeoTrackReactive", "GeoTrackKit",
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.copy("Logs")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "GeoTrackServiceTests",
            dependencies: [
                "GeoTrackService", "LocationKit", "GeoTrackTesting", "GPSReports",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .testTarget(name: "MQTTTests", dependencies: ["MQTT", "GeoTrackTesting"], swiftSettings: strict),
        .testTarget(name: "OwnTracksTests", dependencies: ["OwnTracks", "LocationKit", "GPSReports"], swiftSettings: strict),
        .testTarget(name: "OutboxTests", dependencies: ["Outbox", "CSQLite", "GeoTrackTesting"], swiftSettings: strict),
        .testTarget(name: "PublishingTests", dependencies: ["Publishing", "Outbox", "MQTT", "HTTP", "GeoTrackTesting"],
                    swiftSettings: strict),
        .testTarget(name: "WebServeTests", dependencies: ["WebServe", "GeoTrackTesting"], swiftSettings: strict),
        .testTarget(name: "GeoTrackTestingTests", dependencies: ["GeoTrackTesting", "GPSReports", "Executors"], swiftSettings: strict),
        .testTarget(
            name: "GeoTrackCLITests",
            dependencies: [
                "GPSReports", "GPSD", "NMEA", "TPVJSONBulk", "GeoTrackCLI", "GeoTrackTesting", "LocationKit", "GeoTrackReactive", "GeoTrackService", "OwnTracks",
                "Publishing", "Outbox", "MQTT",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["Logs", "Oracles", "Browser"],
            swiftSettings: strict
        ),
    ]
)
