import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The real OwnTracks Recorder (`ot-recorder` 1.0.1), subscribed to `owntracks/#` on a test's
/// broker, with its HTTP API on a free loopback port: the reference consumer of what GeoTrack
/// publishes.
///
/// Not packaged in Debian: `make test-recorder` builds it from its source tarball and names the
/// binary in ``environmentVariable``. Without it the test fails, saying so.
public final class OwnTracksRecorder {
    /// The variable that names the `ot-recorder` binary.
    public static let environmentVariable = "GEOTRACK_TEST_RECORDER"

    /// One line of the store's `.rec` files: what the Recorder received for a device.
    public struct Record {
        /// `*` for a location, `event` for a transition, or the message's type.
        public var tag: String
        /// The message as stored.
        public var object: [String: Any]
    }

    /// The port of the Recorder's HTTP API.
    public let httpPort: Int
    /// The Recorder's store (`rec/USER/DEVICE/YYYY-MM.rec`, `last/…`).
    public var storage: String { folder.path + "/store" }
    /// What the Recorder logged (it logs to stderr under `DOCKER_RUNNING=1`).
    public var logPath: String { folder.path + "/recorder.log" }
    private let folder: TemporaryDirectory
    private let process: ChildProcess
    private static let readyUser = "geotrack-test"
    private static let readyDevice = "ready"

    /// The binary `make test-recorder` built, or why there is none.
    public static func binary() throws -> String {
        guard let path = ProcessInfo.processInfo.environment[environmentVariable], !path.isEmpty else {
            throw HarnessError("\(environmentVariable) is not set: run make test-recorder, which builds the OwnTracks Recorder and runs these tests with it")
        }
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw HarnessError("\(environmentVariable)=\(path) is not an executable ot-recorder: run make test-recorder")
        }
        return path
    }

    /// Starts the Recorder on `broker`'s plain port and returns once it stores what is published
    /// there: a location published to a topic of its own until it shows in the store.
    public init(broker: Mosquitto) async throws {
        let binary = try Self.binary()
        folder = try TemporaryDirectory()
        let store = folder.path + "/store"
        let documents = folder.path + "/docroot"
        try FileManager.default.createDirectory(atPath: store, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: documents, withIntermediateDirectories: true)
        let initialize = try ChildProcess(path: binary, arguments: ["--storage", store, "--initialize"])
        guard initialize.waitForExitBlocking(), initialize.exitCode == 0 else {
            throw HarnessError("ot-recorder --initialize failed for \(store)")
        }
        var started: (ChildProcess, Int)?
        // A free port is only free when chosen; another test may take it first: try three.
        for _ in 0..<3 {
            let port = try GPSFake.freePort()
            let process = try ChildProcess(
                path: binary,
                arguments: ["--storage", store, "--norevgeo", "--host", "127.0.0.1", "--port", String(broker.port),
                            "--http-host", "127.0.0.1", "--http-port", String(port), "--doc-root", documents, "owntracks/#"],
                stderrPath: folder.path + "/recorder.log", environment: ["DOCKER_RUNNING": "1"])
            let listening = await waitUntil(timeout: .seconds(15)) { process.hasExited || GPSFake.accepts(port: port) }
            if listening, !process.hasExited {
                started = (process, port)
                break
            }
            process.signalGroup(SIGKILL)
        }
        guard let (process, port) = started else {
            throw HarnessError("ot-recorder did not listen for HTTP; its log: \(folder.path)/recorder.log")
        }
        self.process = process
        httpPort = port
        // Published until stored: the Recorder's subscription is not visible from outside.
        let topic = "owntracks/\(Self.readyUser)/\(Self.readyDevice)"
        let deadline = ContinuousClock.now.advanced(by: .seconds(30))
        var tst = 1_000_000_000
        while ContinuousClock.now < deadline {
            if process.hasExited { throw HarnessError("ot-recorder exited; its log: \(logPath)") }
            try broker.publish(topic: topic, message: #"{"_type":"location","lat":0,"lon":0,"tst":\#(tst)}"#)
            tst += 1
            if await waitUntil(timeout: .seconds(1), { !records(user: Self.readyUser, device: Self.readyDevice).isEmpty }) {
                return
            }
        }
        throw HarnessError("ot-recorder stored nothing published to \(topic) within 30 s; its log: \(logPath)")
    }

    deinit {
        process.signalGroup(SIGKILL)
    }

    /// Every message stored for a device, in the order of its `.rec` files (one per month) and
    /// their lines. The Recorder lower-cases device folders.
    public func records(user: String, device: String) -> [Record] {
        let folder = "\(storage)/rec/\(user.lowercased())/\(device.lowercased())"
        guard let files = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
        return files.filter { $0.hasSuffix(".rec") }.sorted().flatMap { file -> [Record] in
            guard let text = try? String(contentsOfFile: folder + "/" + file, encoding: .utf8) else { return [] }
            // ISO time, a tab, the tag padded with spaces, a tab, the JSON. A line still being
            // written has no closing brace yet, and is left for the next look.
            return text.split(separator: "\n").compactMap { line -> Record? in
                let fields = line.split(separator: "\t", maxSplits: 2)
                guard fields.count == 3,
                      let object = try? JSONSerialization.jsonObject(with: Data(fields[2].utf8)) as? [String: Any] else { return nil }
                return Record(tag: fields[1].trimmingCharacters(in: .whitespaces), object: object)
            }
        }
    }

    /// The locations the Recorder serves for a device from its HTTP API (`/api/0/locations`,
    /// every one from 1970 to 2100), in its order.
    public func locations(user: String, device: String) throws -> [[String: Any]] {
        let path = "/api/0/locations?user=\(user)&device=\(device)&from=1970-01-01T00:00:00&to=2100-01-01T00:00:00"
        let body = try Self.get(port: httpPort, path: path)
        guard let object = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any],
              let data = object["data"] as? [[String: Any]] else {
            throw HarnessError("ot-recorder's \(path) answered no location list: \(body.prefix(300))")
        }
        return data
    }

    /// An HTTP/1.0 GET on loopback: the body, once the Recorder closed the connection.
    private static func get(port: Int, path: String) throws -> String {
        // A generous timeout: the Recorder answers between its MQTT packets.
        guard let socket = Loopback.connect(port: port, receiveTimeout: 20) else {
            throw HarnessError("cannot connect to ot-recorder's HTTP port \(port)")
        }
        defer { close(socket) }
        let request = Array("GET \(path) HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        guard request.withUnsafeBytes({ send(socket, $0.baseAddress, $0.count, 0) }) == request.count else {
            throw HarnessError("cannot send a request to ot-recorder")
        }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count == 0 { break }
            guard count > 0 else { throw HarnessError("ot-recorder did not finish its answer to GET \(path)") }
            response += buffer[0..<count]
        }
        let text = String(decoding: response, as: UTF8.self)
        guard let headerEnd = text.range(of: "\r\n\r\n") else { throw HarnessError("ot-recorder's answer has no header: \(text.prefix(200))") }
        guard text.hasPrefix("HTTP/1.1 200") || text.hasPrefix("HTTP/1.0 200") else {
            throw HarnessError("ot-recorder answered GET \(path) with \(text.prefix { $0 != "\r" })")
        }
        let header = text[..<headerEnd.lowerBound].lowercased()
        let body = text[headerEnd.upperBound...]
        // Its web server (mongoose) answers in chunks even to HTTP/1.0.
        return header.contains("transfer-encoding: chunked") ? try Self.unchunked(body) : String(body)
    }

    /// A chunked body's data: each chunk is its size in hex, CRLF, the bytes, CRLF; size 0 ends it.
    private static func unchunked(_ body: Substring) throws -> String {
        var bytes = Array(body.utf8)[...]
        var data: [UInt8] = []
        while true {
            guard let lineEnd = bytes.firstIndex(of: UInt8(ascii: "\r")),
                  let size = Int(String(decoding: bytes[..<lineEnd], as: UTF8.self).split(separator: ";").first ?? "", radix: 16),
                  bytes.count >= lineEnd - bytes.startIndex + 2 + size else {
                throw HarnessError("ot-recorder's chunked answer is cut short")
            }
            if size == 0 { break }
            let start = lineEnd + 2
            data += bytes[start..<start + size]
            bytes = bytes[min(start + size + 2, bytes.endIndex)...]
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// Stops the Recorder.
    public func stop() async {
        process.signalGroup(SIGTERM)
        _ = await process.waitForExit(timeout: .seconds(5))
    }
}
