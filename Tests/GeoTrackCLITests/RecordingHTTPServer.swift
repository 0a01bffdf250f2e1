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
    /// With `tls`: the CA certificate (PEM) that signed the server's, for 127.0.0.1.
    let caFile: String?
    /// With `tls`: a client certificate (PEM) the same CA signed, and its key.
    let clientCertificate: (certificate: String, key: String)?
    private let process: ChildProcess
    private let log: URL

    /// Starts the server on a free loopback port; `answers` is the script of statuses. With
    /// `tls` it speaks HTTPS, with a certificate for 127.0.0.1 that a CA of its own signed; with
    /// `requireClientCertificate` too, it takes only clients presenting one that CA signed.
    init(answers: [Int], tls: Bool = false, requireClientCertificate: Bool = false) async throws {
        let directory = try TestSupport.temporaryDirectory()
        let script = directory.appendingPathComponent("server.py")
        try Self.script.write(to: script, atomically: true, encoding: .utf8)
        log = directory.appendingPathComponent("requests.jsonl")
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else {
            throw HarnessError("python3 is missing: run make deps")
        }
        if tls {
            try await Self.makeCertificates(directory: directory.path)
            caFile = directory.appendingPathComponent("ca.crt").path
            clientCertificate = (directory.appendingPathComponent("client.crt").path, directory.appendingPathComponent("client.key").path)
        } else {
            caFile = nil
            clientCertificate = nil
        }
        process = try ChildProcess("/usr/bin/python3", [script.path, log.path, tls ? directory.path : "-",
                                                        requireClientCertificate ? "require" : "-"] + answers.map(String.init))
        let deadline = Date().addingTimeInterval(30)
        var port: Int?
        while port == nil, Date() < deadline {
            port = Int(process.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
            if port == nil { try await Task.sleep(for: .milliseconds(20)) }
        }
        guard let port else {
            throw HarnessError("the test HTTP server did not start: \(process.stderr)")
        }
        self.port = port
    }

    deinit {
        process.signal(SIGKILL)
        // A deinit cannot await; SIGKILL ends the server at once, so this only reaps it.
        _ = process.wait(timeout: 5)
    }

    /// A CA, a certificate for 127.0.0.1 and a client certificate that it signs (EC keys: quick to make).
    static func makeCertificates(directory: String) async throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl") else {
            throw HarnessError("openssl is missing: run make deps")
        }
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try "subjectAltName=IP:127.0.0.1,DNS:localhost\n".write(toFile: directory + "/san.ext", atomically: true, encoding: .utf8)
        let d = directory + "/"
        let steps: [[String]] = [
            ["req", "-x509"] + ec + ["-keyout", d + "ca.key", "-out", d + "ca.crt", "-days", "2", "-subj", "/CN=GeoTrack test CA"],
            ["req"] + ec + ["-keyout", d + "server.key", "-out", d + "server.csr", "-subj", "/CN=127.0.0.1"],
            ["x509", "-req", "-in", d + "server.csr", "-CA", d + "ca.crt", "-CAkey", d + "ca.key", "-CAcreateserial",
             "-out", d + "server.crt", "-days", "2", "-extfile", d + "san.ext"],
            ["req"] + ec + ["-keyout", d + "client.key", "-out", d + "client.csr", "-subj", "/CN=geotrack client"],
            ["x509", "-req", "-in", d + "client.csr", "-CA", d + "ca.crt", "-CAkey", d + "ca.key", "-CAcreateserial",
             "-out", d + "client.crt", "-days", "2"],
        ]
        for step in steps {
            let run = try await TestSupport.run("/usr/bin/openssl", step)
            guard run.status == 0 else { throw HarnessError("openssl \(step[0]) failed: \(run.stderr)") }
        }
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
    from base64 import b64encode
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
    from json import dumps
    from ssl import CERT_REQUIRED, PROTOCOL_TLS_SERVER, SSLContext
    from sys import argv
    from threading import Lock
    from urllib.parse import parse_qsl, urlsplit

    log_path = argv[1]
    certificates = argv[2]
    client_certificates = argv[3] == "require"
    answers = [int(a) for a in argv[4:]] or [200]
    lock = Lock()
    count = [0]
    # What OwnTracks' Recorder answers a /pub with: commands and cards, which a client may ignore.
    commands = b'[{"_type":"cmd","action":"reportLocation"},{"_type":"card","name":"x\\u0007"}]'

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def handle_any(self):
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            with lock:
                status = answers[min(count[0], len(answers) - 1)]
                count[0] += 1
                parts = urlsplit(self.path)
                record = {
                    "method": self.command,
                    "path": parts.path,
                    "query": [list(p) for p in parse_qsl(parts.query, keep_blank_values=True)],
                    "headers": {k.lower(): v for k, v in self.headers.items()},
                    "body": b64encode(body).decode(),
                    "status": status,
                }
                with open(log_path, "a") as log:
                    log.write(dumps(record) + "\n")
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

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    if certificates != "-":
        context = SSLContext(PROTOCOL_TLS_SERVER)
        context.load_cert_chain(certificates + "/server.crt", certificates + "/server.key")
        if client_certificates:
            context.verify_mode = CERT_REQUIRED
            context.load_verify_locations(certificates + "/ca.crt")
        server.socket = context.wrap_socket(server.socket, server_side=True)
    print(server.server_address[1], flush=True)
    server.serve_forever()
    """#
}
