import ArgumentParser
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The flags for a broker's password and TLS files, shared by `watch`, `replay` and `outbox flush`.
package struct BrokerOptions: ParsableArguments {
    @Option(name: .customLong("publish-password-file"), help: ArgumentHelp(
        "Read the broker's or server's password from this file (or set GEOTRACK_PUBLISH_PASSWORD); the user goes in the URL.",
        valueName: "file"), completion: .file())
    package var passwordFile: String?

    @Option(name: .customLong("publish-ca"), help: ArgumentHelp(
        "mqtts://, https://: trust the broker's or server's certificate if it chains to these CA certificates (PEM; default: the system's).",
        valueName: "file"), completion: .file())
    package var caFile: String?

    @Option(name: .customLong("publish-cert"), help: ArgumentHelp(
        "mqtts://, https://: present this client certificate (PEM); needs --publish-key.", valueName: "file"), completion: .file())
    package var certificateFile: String?

    @Option(name: .customLong("publish-key"), help: ArgumentHelp(
        "mqtts://, https://: the client certificate's key (PEM, unencrypted).", valueName: "file"), completion: .file())
    package var keyFile: String?

    package init() {}

    package func validate() throws {
        if (certificateFile == nil) != (keyFile == nil) {
            throw ValidationError("--publish-cert and --publish-key go together; give both or neither.")
        }
    }

    /// Checks that a password file has a user to log in: only a URL names one (`mqtt://USER@HOST`),
    /// and without any the file would be read and never sent, the broker or server seeing an
    /// anonymous client.
    package func checkPasswordHasUser(_ destinations: [PublishDestination], option: String) throws(ValidationError) {
        guard passwordFile != nil, !destinations.isEmpty, !destinations.contains(where: { $0.username != nil }) else { return }
        throw ValidationError("--publish-password-file logs in the user the URL names, and no \(option) URL names one: write mqtt://USER@HOST (or http://USER@HOST).")
    }

    /// Checks that TLS files go with a TLS destination: given beside `mqtt://` or `http://` alone,
    /// they would be read and never used, and the user would believe the link encrypted.
    package func checkTLSHasSecureDestination(_ destinations: [PublishDestination], option: String) throws(CLIError) {
        guard caFile != nil || certificateFile != nil || keyFile != nil, !destinations.isEmpty,
              !destinations.contains(where: \.isSecure) else { return }
        throw CLIError(.usage, "--publish-ca, --publish-cert and --publish-key are for TLS, and no \(option) URL uses it: "
                       + "write mqtts://HOST (port 8883) or https://HOST, or leave the files out")
    }

    /// Whether any of these options was given.
    package var isSet: Bool {
        passwordFile != nil || caFile != nil || certificateFile != nil || keyFile != nil
    }

    /// Whether `data` holds a PEM block whose label ends in `marker` (`-----BEGIN CERTIFICATE-----`,
    /// `-----BEGIN RSA PRIVATE KEY-----`, `-----BEGIN TRUSTED CERTIFICATE-----`).
    static func containsPEM(_ data: Data, marker: String) -> Bool {
        let text = String(decoding: data, as: UTF8.self)
        var rest = Substring(text)
        while let begin = rest.firstRange(of: "-----BEGIN ") {
            let line = rest[begin.upperBound...].prefix { $0 != "\n" && $0 != "\r" }
            if line.hasSuffix(marker) { return true }
            rest = rest[begin.upperBound...]
        }
        return false
    }

    /// The environment variable a password may come from.
    package static let passwordVariable = "GEOTRACK_PUBLISH_PASSWORD"

    /// Reads the password (file first, then the environment) and checks the TLS files exist.
    package func credentials(environment: [String: String] = ProcessInfo.processInfo.environment) throws(CLIError) -> BrokerCredentials {
        var password = environment[Self.passwordVariable].flatMap { $0.isEmpty ? nil : $0 }
        if let passwordFile {
            guard let data = FileManager.default.contents(atPath: passwordFile) else {
                throw CLIError(.noInput, "--publish-password-file \(Terminal.safe(passwordFile)): cannot read it; check the path and its permissions")
            }
            // One line: a trailing newline (as `echo` writes) is not part of the password.
            let text = String(decoding: data, as: UTF8.self)
            password = String(text.prefix { $0 != "\n" && $0 != "\r" })
        }
        // libmosquitto and libcurl (OpenSSL) read PEM only. A file of another kind is told here,
        // naming the option, not later as a TLS handshake that failed "check the CA file".
        let files = [("--publish-ca", caFile, "CERTIFICATE-----", "certificates"),
                     ("--publish-cert", certificateFile, "CERTIFICATE-----", "certificate"),
                     ("--publish-key", keyFile, "PRIVATE KEY-----", "private key")]
        for (flag, file, marker, kind) in files {
            guard let file else { continue }
            guard FileManager.default.isReadableFile(atPath: file), let data = FileManager.default.contents(atPath: file) else {
                throw CLIError(.noInput, "\(flag) \(Terminal.safe(file)): cannot read it; check the path")
            }
            guard Self.containsPEM(data, marker: marker) else {
                throw CLIError(.usage, "\(flag) \(Terminal.safe(file)): not a PEM file (no -----BEGIN …\(marker)); give the \(kind) in PEM")
            }
        }
        return BrokerCredentials(password: password, caFile: caFile, certificateFile: certificateFile, keyFile: keyFile)
    }
}
