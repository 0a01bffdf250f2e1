import Foundation
import GeoTrackTesting

/// A small HTTP server (python3's http.server, in a child process) that records every request
/// it gets and answers each with the next status of a script, the last one repeated.
///
/// It stands in for the servers that cannot run here: Traccar (Java, not packaged by Debian)
/// and, for the failures the real one never gives on demand (a 500, a 400), OwnTracks' Recorder.
/// The Recorder itself is checked over HTTP by its own harness. It speaks HTTP/1.1 with
/// keep-alive, as both do, and answers a 2xx with a body as the Recorder does (a JSON array of
/// commands and cards), which the client must ignore.
final class RecordingHTTPServer {
    /// One request, as the server read it.
    struct Request {
        var method: String
        var path: String
        /// The query's parameters, decoded, in order.
        var query: [(name: String, value: String)]
        /// Header names in lower case.
        var headers: [String: String]
        var body: Data
        /// The status it was answered with.
        var status: Int

        /// The query's value for `name`, when given once.
        func parameter(_ name: String) -> String? {
            let values = query.filter { $0.name == name }
            return values.count == 1 ? values[0].value : nil
        }
    }

    let port: Int
    private let process: ChildProcess
    private let log: URL

    /// Starts the server on a free loopback port; `answers` is the script of statuses.
    init(answers: [Int]) throws {
        let directory = try TestSupport.temporaryDirectory()
        let script = directory.appendingPathComponent("server.py")
        try Self.script.write(to: script, atomically: true, encoding: .utf8)
        log = directory.appendingPathComponent("requests.jsonl")
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else {
            throw HarnessError("python3 is missing: run make deps")
        }
        process = try ChildProcess("/usr/bin/python3", [script.path, log.path] + answers.map(String.init))
        let deadline = Date().addingTimeInterval(30)
        var port: Int?
        while port == nil, Date() < deadline {
            port = Int(process.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
            if port == nil { usleep(20_000) }
        }
        guard let port else {
            throw HarnessError("the test HTTP server did not start: \(process.stderr)")
        }
        self.port = port
    }

    deinit {
        process.signal(SIGKILL)
        _ = process.wait(timeout: 5)
    }

    /// The requests recorded so far, in order.
    func requests() throws -> [Request] {
        guard let text = try? String(contentsOf: log, encoding: .utf8) else { return [] }
        return try text.split(separator: "\n").map { line in
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let method = object["method"] as? String, let path = object["path"] as? String,
                  let query = object["query"] as? [[String]], let headers = object["headers"] as? [String: String],
                  let body = (object["body"] as? String).flatMap({ Data(base64Encoded: $0) }),
                  let status = object["status"] as? Int else {
                throw HarnessError("unreadable request record: \(line)")
            }
            return Request(method: method, path: path, query: query.map { ($0[0], $0[1]) }, headers: headers, body: body,
                           status: status)
        }
    }

    /// Waits until `count` requests were answered with a 2xx (or `timeout` passes); true when they were.
    func waitForDelivered(_ count: Int, timeout: Duration = .seconds(30)) async -> Bool {
        await waitUntil(timeout: timeout) {
            ((try? requests()) ?? []).filter { (200..<300).contains($0.status) }.count >= count
        }
    }

    private static let script = #"""
    import base64, http.server, json, sys, threading, urllib.parse

    log_path = sys.argv[1]
    answers = [int(a) for a in sys.argv[2:]] or [200]
    lock = threading.Lock()
    count = [0]
    # What OwnTracks' Recorder answers a /pub with: commands and cards, which a client may ignore.
    commands = b'[{"_type":"cmd","action":"reportLocation"},{"_type":"card","name":"x\\u0007"}]'

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def handle_any(self):
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            with lock:
                status = answers[min(count[0], len(answers) - 1)]
                count[0] += 1
                parts = urllib.parse.urlsplit(self.path)
                record = {
                    "method": self.command,
                    "path": parts.path,
                    "query": [list(p) for p in urllib.parse.parse_qsl(parts.query, keep_blank_values=True)],
                    "headers": {k.lower(): v for k, v in self.headers.items()},
                    "body": base64.b64encode(body).decode(),
                    "status": status,
                }
                with open(log_path, "a") as log:
                    log.write(json.dumps(record) + "\n")
            reply = commands if 200 <= status < 300 else b"no"
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(reply)))
            self.end_headers()
            self.wfile.write(reply)

        do_GET = handle_any
        do_POST = handle_any

        def log_message(self, *arguments):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    server.serve_forever()
    """#
}
