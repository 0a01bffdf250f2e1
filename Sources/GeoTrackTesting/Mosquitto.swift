import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real MQTT broker (Debian's `mosquitto`) on a free loopback port, which a test can stop and
/// start again on the same port to play a network outage.
public final class Mosquitto {
    /// Where Debian installs the broker.
    public static let path = "/usr/sbin/mosquitto"
    /// Where Debian installs the subscriber client.
    public static let subscriberPath = "/usr/bin/mosquitto_sub"
    /// Where Debian installs the publisher client.
    public static let publisherPath = "/usr/bin/mosquitto_pub"

    /// Whether the broker and its clients are installed.
    public static var isInstalled: Bool {
        [path, subscriberPath, publisherPath].allSatisfy(FileManager.default.isExecutableFile(atPath:))
    }

    /// The loopback port the broker listens on.
    public let port: Int
    /// With `tls`, a second port that speaks MQTT over TLS, with a certificate for 127.0.0.1.
    public let tlsPort: Int?
    /// With `tls`, the CA (PEM) that signed the broker's certificate.
    public var caFile: String? { tlsPort == nil ? nil : directory + "/ca.crt" }
    /// With `clientCertificates`, a client certificate (PEM) the same CA signed, which the TLS
    /// listener accepts.
    public var clientCertificateFile: String? { requiresClientCertificate ? directory + "/client.crt" : nil }
    /// With `clientCertificates`, the key of ``clientCertificateFile`` (PEM, unencrypted).
    public var clientKeyFile: String? { requiresClientCertificate ? directory + "/client.key" : nil }
    /// Whether the TLS listener refuses clients without a certificate its CA signed.
    public let requiresClientCertificate: Bool
    /// The folder holding the broker's configuration (and the password file, if any).
    public var directory: String { folder.path }
    private let folder: TemporaryDirectory
    private var process: ChildProcess?

    /// Starts a broker on a free port. With `users`, only those may connect (user → password),
    /// through a password file made with `mosquitto_passwd`. With `tls`, it also listens for
    /// MQTT over TLS on ``tlsPort``, with a certificate signed by a CA made for it (``caFile``).
    /// With `clientCertificates` (which implies `tls`), that listener also requires a client
    /// certificate the CA signed (`require_certificate true`), and one is made for the test
    /// (``clientCertificateFile``, ``clientKeyFile``).
    public init(users: [String: String] = [:], tls: Bool = false, clientCertificates: Bool = false) async throws {
        guard Self.isInstalled else {
            throw HarnessError("mosquitto is not installed: make deps installs what the tests need (or sudo apt-get install mosquitto mosquitto-clients)")
        }
        folder = try TemporaryDirectory()
        requiresClientCertificate = clientCertificates
        let tls = tls || clientCertificates
        let directory = folder.path
        if tls { try Self.makeCertificates(directory: directory, client: clientCertificates) }
        var lastError: (any Error)?
        // A free port is only free when chosen; another test may take it first: try three.
        for _ in 0..<3 {
            let chosen = try GPSFake.freePort()
            let chosenTLS = tls ? try GPSFake.freePort() : nil
            do {
                try Self.writeConfiguration(directory: directory, port: chosen, tlsPort: chosenTLS, users: users,
                                            requireCertificate: clientCertificates)
                process = try await Self.start(directory: directory, ports: [chosen] + (chosenTLS.map { [$0] } ?? []))
                port = chosen
                tlsPort = chosenTLS
                return
            } catch {
                lastError = error
            }
        }
        throw lastError ?? HarnessError("mosquitto did not start")
    }

    deinit {
        process?.signalGroup(SIGKILL)
    }

    /// A CA, and a certificate for 127.0.0.1 and localhost that it signs (EC keys: quick to make);
    /// with `client`, a client certificate it signs too.
    private static func makeCertificates(directory: String, client: Bool) throws {
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try "subjectAltName=IP:127.0.0.1,DNS:localhost\n".write(toFile: directory + "/san.ext", atomically: true, encoding: .utf8)
        try "extendedKeyUsage=clientAuth\n".write(toFile: directory + "/client.ext", atomically: true, encoding: .utf8)
        let d = directory + "/"
        var steps: [[String]] = [
            ["req", "-x509"] + ec + ["-keyout", d + "ca.key", "-out", d + "ca.crt", "-days", "2", "-subj", "/CN=GeoTrack test CA"],
            ["req"] + ec + ["-keyout", d + "server.key", "-out", d + "server.csr", "-subj", "/CN=127.0.0.1"],
            ["x509", "-req", "-in", d + "server.csr", "-CA", d + "ca.crt", "-CAkey", d + "ca.key", "-CAcreateserial",
             "-out", d + "server.crt", "-days", "2", "-extfile", d + "san.ext"],
        ]
        if client {
            steps += [
                ["req"] + ec + ["-keyout", d + "client.key", "-out", d + "client.csr", "-subj", "/CN=geotrack test client"],
                ["x509", "-req", "-in", d + "client.csr", "-CA", d + "ca.crt", "-CAkey", d + "ca.key", "-CAcreateserial",
                 "-out", d + "client.crt", "-days", "2", "-extfile", d + "client.ext"],
            ]
        }
        for step in steps {
            let tool = try ChildProcess(path: "/usr/bin/openssl", arguments: step)
            guard tool.waitForExitBlocking(), tool.exitCode == 0 else {
                throw HarnessError("openssl \(step[0]) failed: is openssl installed?")
            }
        }
        // Started as root, mosquitto reads its key after dropping to its own user.
        chmod(directory, 0o755)
        chmod(directory + "/server.key", 0o644)
    }

    private static func writeConfiguration(directory: String, port: Int, tlsPort: Int?, users: [String: String],
                                           requireCertificate: Bool) throws {
        var lines = ["listener \(port) 127.0.0.1", "persistence false", "log_dest none"]
        if let tlsPort {
            // These are the TLS listener's own settings: the plain listener above stays open to
            // the test's subscriber.
            lines += ["listener \(tlsPort) 127.0.0.1", "cafile \(directory)/ca.crt",
                      "certfile \(directory)/server.crt", "keyfile \(directory)/server.key"]
            if requireCertificate { lines.append("require_certificate true") }
        }
        if users.isEmpty {
            lines.append("allow_anonymous true")
        } else {
            let passwords = directory + "/passwords"
            _ = FileManager.default.createFile(atPath: passwords, contents: Data())
            for (user, password) in users.sorted(by: { $0.key < $1.key }) {
                let tool = try ChildProcess(path: "/usr/bin/mosquitto_passwd", arguments: ["-b", passwords, user, password])
                guard tool.waitForExitBlocking(), tool.exitCode == 0 else {
                    throw HarnessError("mosquitto_passwd failed for \(user)")
                }
            }
            // Started as root, mosquitto reads the password file after dropping to its own user.
            chmod(directory, 0o755)
            chmod(passwords, 0o644)
            lines += ["allow_anonymous false", "password_file \(passwords)"]
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: directory + "/mosquitto.conf", atomically: true, encoding: .utf8)
    }

    private static func start(directory: String, ports: [Int]) async throws -> ChildProcess {
        let process = try ChildProcess(path: path, arguments: ["-c", directory + "/mosquitto.conf"])
        let listening = await waitUntil(timeout: .seconds(15)) { [process] in
            process.hasExited || ports.allSatisfy(GPSFake.accepts(port:))
        }
        guard listening, !process.hasExited else {
            process.signalGroup(SIGKILL)
            throw HarnessError("mosquitto did not listen on ports \(ports)")
        }
        return process
    }

    /// Stops the broker (SIGKILL plays a crash) and waits until the port refuses connections.
    public func stop(signal: Int32 = SIGTERM) async throws {
        guard let process else { return }
        process.signalGroup(signal)
        if await !process.waitForExit(timeout: .seconds(5)) {
            process.signalGroup(SIGKILL)
            _ = await process.waitForExit(timeout: .seconds(5))
        }
        self.process = nil
        let closed = await waitUntil(timeout: .seconds(10)) { [port] in !GPSFake.accepts(port: port) }
        guard closed else { throw HarnessError("mosquitto still listens on port \(port) after it stopped") }
    }

    /// Starts the broker again on the same port, after ``stop(signal:)``.
    public func restart() async throws {
        guard process == nil else { return }
        process = try await Self.start(directory: directory, ports: [port] + (tlsPort.map { [$0] } ?? []))
    }

    /// Publishes one message with `mosquitto_pub` (QoS 1), as another client would.
    public func publish(topic: String, message: String, retain: Bool = false, user: (String, String)? = nil) throws {
        var arguments = ["-h", "127.0.0.1", "-p", String(port), "-q", "1", "-t", topic, "-m", message]
        if retain { arguments.append("-r") }
        if let user { arguments += ["-u", user.0, "-P", user.1] }
        let tool = try ChildProcess(path: Self.publisherPath, arguments: arguments)
        guard tool.waitForExitBlocking(), tool.exitCode == 0 else {
            throw HarnessError("mosquitto_pub to \(topic) on port \(port) failed")
        }
    }
}

/// `mosquitto_sub` writing every message it receives (`-v`: the topic, a space, the payload) to a
/// file, one per line: what a real subscriber saw.
public final class MosquittoSubscriber {
    /// The file the messages are written to.
    public var outputPath: String { folder.path + "/messages" }
    private let folder: TemporaryDirectory
    private let process: ChildProcess
    private let broker: Mosquitto
    private static let readyTopic = "geotrack-test/ready"

    /// Subscribes to `topics` (and a topic of its own for the handshake), and returns once the
    /// subscription is in place: a message published to the handshake topic has come back.
    public init(broker: Mosquitto, topics: [String], user: (String, String)? = nil) async throws {
        self.broker = broker
        folder = try TemporaryDirectory()
        var arguments = ["-h", "127.0.0.1", "-p", String(broker.port), "-q", "1", "-v", "-t", Self.readyTopic]
        for topic in topics { arguments += ["-t", topic] }
        if let user { arguments += ["-u", user.0, "-P", user.1] }
        process = try ChildProcess(path: Mosquitto.subscriberPath, arguments: arguments, stdoutPath: folder.path + "/messages")
        // Published until seen: the subscriber's SUBACK is not visible from outside. The deadline
        // only bounds a broker that never answers: on a 2-core machine the test run's other
        // tests, blocked in processes they wait for, can hold every cooperative thread for
        // seconds, and this wait is not resumed meanwhile (CI saw a 15 s deadline pass so).
        let deadline = ContinuousClock.now.advanced(by: .seconds(60))
        while ContinuousClock.now < deadline {
            if process.hasExited { throw HarnessError("mosquitto_sub exited; is the broker up?") }
            try broker.publish(topic: Self.readyTopic, message: "ready", user: user)
            if await waitUntil(timeout: .milliseconds(300), { lines().contains { $0.hasPrefix(Self.readyTopic + " ") } }) {
                return
            }
        }
        throw HarnessError("mosquitto_sub did not receive its handshake within 60 s")
    }

    deinit {
        process.signalGroup(SIGKILL)
    }

    /// Every line received so far, the handshake's left out.
    public func messages() -> [(topic: String, payload: String)] {
        lines().compactMap { line in
            guard let space = line.firstIndex(of: " ") else { return nil }
            let topic = String(line[..<space])
            guard topic != Self.readyTopic else { return nil }
            return (topic, String(line[line.index(after: space)...]))
        }
    }

    /// Waits until `count` messages arrived (checking the file; the subscriber is another process).
    @discardableResult
    public func waitForMessages(_ count: Int, timeout: Duration = .seconds(30)) async -> Bool {
        await waitUntil(timeout: timeout) { messages().count >= count }
    }

    private func lines() -> [String] {
        guard let text = try? String(contentsOfFile: outputPath, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").map(String.init)
    }

    /// Stops the subscriber.
    public func stop() async {
        process.signalGroup(SIGTERM)
        _ = await process.waitForExit(timeout: .seconds(5))
    }
}
