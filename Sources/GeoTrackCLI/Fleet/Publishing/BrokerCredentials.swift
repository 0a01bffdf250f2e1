import ArgumentParser
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// What a broker may ask for that never goes in a URL: the password and TLS files.
///
/// The password comes from a file (`--publish-password-file`) or the environment
/// (`GEOTRACK_PUBLISH_PASSWORD`), never from the command line, where `ps` would show it.
package struct BrokerCredentials: Sendable, Equatable {
    /// The password, if any.
    package var password: String?
    /// The CA certificates (PEM) for `mqtts://`; the system's bundle when nil.
    package var caFile: String?
    /// A client certificate (PEM).
    package var certificateFile: String?
    /// The client certificate's key (PEM).
    package var keyFile: String?

    /// No password, the system's CA certificates.
    package init(password: String? = nil, caFile: String? = nil, certificateFile: String? = nil, keyFile: String? = nil) {
        self.password = password
        self.caFile = caFile
        self.certificateFile = certificateFile
        self.keyFile = keyFile
    }
}
