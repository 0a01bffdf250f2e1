import FoundationEssentials
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Where the user's location-access decision lives: one small file under
/// `$XDG_STATE_HOME/geotrack` (by default `~/.local/state/geotrack/authorization`).
///
/// The file is written atomically (temporary file, fsync, rename) with mode 0600, so a
/// reader never sees half a decision. The `geotrack auth grant|deny|reset` commands and
/// any running ``LocationManager`` share it: managers notice changes at once through
/// ``changes()`` (inotify, no polling).
///
/// An administrator can forbid location use for everyone with a policy file (by default
/// `/etc/geotrack/policy`) containing `deny`; ``read()`` then answers
/// ``AuthorizationStatus/restricted`` whatever the user decided.
public final class AuthorizationStore: Sendable {
    /// The directory holding the decision file.
    public let directory: String
    /// The administrator's policy file.
    public let policyPath: String
    /// The decision of a store made with ``inMemory(_:)``, which touches no file.
    let memory: MemoryDecision?

    /// The decision file's name within ``directory``.
    public static let fileName = "authorization"
    /// The default policy file.
    public static let defaultPolicyPath = "/etc/geotrack/policy"

    /// Creates a store.
    /// - Parameters:
    ///   - directory: where to keep the decision; `nil` means ``defaultDirectory(environment:)``.
    ///   - policyPath: the administrator's policy file.
    ///   - environment: the environment to read `XDG_STATE_HOME` and `HOME` from.
    public init(directory: String? = nil, policyPath: String = AuthorizationStore.defaultPolicyPath,
                environment: [String: String] = ProcessEnvironment.stateDirectoryVariables) {
        self.directory = directory ?? Self.defaultDirectory(environment: environment)
        self.policyPath = policyPath
        self.memory = nil
    }

    private init(memory: MemoryDecision) {
        directory = ""
        policyPath = ""
        self.memory = memory
    }

    /// A store that keeps `status` in memory, for data that is the user's already (a replayed
    /// log or track): no file, and no administrator policy. ``write(_:accuracy:)`` changes it for this
    /// process only, and ``changes()`` reports those writes.
    public static func inMemory(_ status: AuthorizationStatus,
                                accuracy: AccuracyAuthorization = .fullAccuracy) -> AuthorizationStore {
        AuthorizationStore(memory: MemoryDecision(StoredAuthorization(status, accuracy: accuracy)))
    }

    /// `$XDG_STATE_HOME/geotrack` when that variable holds an absolute path, else `$HOME/.local/state/geotrack`.
    public static func defaultDirectory(environment: [String: String]) -> String {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return state + "/geotrack"
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? passwordDatabaseHome()
        return home + "/.local/state/geotrack"
    }

    /// The decision file's full path.
    public var path: String { memory == nil ? directory + "/" + Self.fileName : "(in memory)" }

    /// The current status: ``AuthorizationStatus/restricted`` under an administrator's
    /// `deny` policy, else the stored decision, else ``AuthorizationStatus/notDetermined``.
    public func read() throws(LocationError) -> AuthorizationStatus {
        try readAuthorization().status
    }

    /// The current status and, when access is granted, how precise it is (see ``read()``).
    public func readAuthorization() throws(LocationError) -> StoredAuthorization {
        if let memory { return memory.status }
        if isRestrictedByPolicy() { return StoredAuthorization(.restricted) }
        // A decision in a folder others can write to, or another user's, is no one's to trust.
        if let problem = StateDirectory.problem(directory) { throw .stateFolder(path: directory, reason: problem) }
        let text: String
        // A link is never followed: the decision is the file in the user's own folder, nothing else.
        switch Self.readSmallFile(path, followingLinks: false) {
        case .missing:
            return StoredAuthorization(.notDetermined)
        case .unreadable(let reason):
            throw .authorizationStore(path: path, reason: Self.isLink(path) ? "it is a symbolic link, which is not followed there"
                                                                             : "it cannot be read (\(reason))")
        case .text(let content, _):
            text = content
        }
        // What the file holds is not repeated: it may be anything, of any length.
        let unreadable = LocationError.authorizationStore(
            path: path, reason: "it does not hold a decision")
        // One word, the status; a grant may add a second, its accuracy (none means full, as
        // files written before accuracy existed say).
        let words = text.split(whereSeparator: { $0.isWhitespace || $0.isNewline })
        guard (1...2).contains(words.count), let status = AuthorizationStatus(rawValue: String(words[0])),
              status != .restricted else { throw unreadable }
        guard words.count == 2 else { return StoredAuthorization(status) }
        guard status.isAuthorized, let accuracy = AccuracyAuthorization(rawValue: String(words[1])) else { throw unreadable }
        return StoredAuthorization(status, accuracy: accuracy)
    }

    /// Saves `status` as the user's decision; ``AuthorizationStatus/notDetermined`` forgets it.
    ///
    /// `accuracy` counts only for a grant: a refusal has nothing to be precise about.
    /// ``AuthorizationStatus/restricted`` cannot be stored: it comes from the administrator's policy.
    public func write(_ status: AuthorizationStatus, accuracy: AccuracyAuthorization = .fullAccuracy) throws(LocationError) {
        switch status {
        case .notDetermined:
            try reset()
        case .restricted:
            throw .authorizationStore(path: path, reason: "'restricted' is set by the administrator policy in \(policyPath), not stored per user")
        case .denied, .authorizedWhenInUse, .authorizedAlways:
            let stored = StoredAuthorization(status, accuracy: accuracy)
            if let memory { return memory.set(stored) }
            try ensureDirectory()
            if let problem = StateDirectory.problem(directory) { throw .stateFolder(path: directory, reason: problem) }
            try writeAtomically(stored.fileText)
        }
    }

    /// Forgets the user's decision, so the next request asks again.
    public func reset() throws(LocationError) {
        if let memory { return memory.set(StoredAuthorization(.notDetermined)) }
        if unlink(path) != 0 && errno != ENOENT {
            throw .authorizationStore(path: path, reason: String(cString: strerror(errno)))
        }
    }

    /// Whether the administrator's policy forbids location access. It fails closed: only a
    /// missing file, or a root-owned regular file that no one else may write and whose one word
    /// is `allow`, leaves access to the user (see ``PolicyFile``).
    func isRestrictedByPolicy() -> Bool {
        PolicyFile.read(policyPath) != .allow
    }

    /// The longest decision or policy file read; anything longer is not one.
    static let maximumFileSize = 4096

    enum SmallFile {
        case missing
        case unreadable(String)
        /// The text, and the file's owner and mode.
        case text(String, stat)
    }

    /// Reads at most `maximumSize` bytes of a regular file, never more; with `followingLinks`
    /// false, a symbolic link is refused rather than followed.
    static func readSmallFile(_ path: String, maximumSize: Int = maximumFileSize, followingLinks: Bool = true) -> SmallFile {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | (followingLinks ? 0 : O_NOFOLLOW))
        guard descriptor >= 0 else {
            return errno == ENOENT ? .missing : .unreadable(String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return .unreadable("not a regular file") }
        guard info.st_size <= maximumSize else { return .unreadable("larger than \(maximumSize) bytes") }
        // One byte more than allowed: a file that grew since fstat is still caught.
        var data = [UInt8](repeating: 0, count: maximumSize + 1)
        var count = 0
        while count < data.count {
            let read = data.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress.map { $0 + count }, $0.count - count) }
            if read < 0 && errno == EINTR { continue }
            if read < 0 { return .unreadable(String(cString: strerror(errno))) }
            if read == 0 { break }
            count += read
        }
        guard count <= maximumSize, let text = String(validating: data.prefix(count), as: UTF8.self) else {
            return .unreadable("not a short text file")
        }
        return .text(text, info)
    }

    /// Whether `path` is a symbolic link.
    static func isLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
    }

    /// Creates the directory (mode 0700) when missing.
    func ensureDirectory() throws(LocationError) {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw .stateFolder(path: directory, reason: "the folder cannot be created" + Self.creationObstacle(directory))
        }
    }

    /// Why a folder could not be made, as far as can be told: the nearest existing folder above
    /// it that this user may not write to (a service's state folder not made yet, under a
    /// /var/lib that root owns), or a file where a folder should be.
    static func creationObstacle(_ directory: String) -> String {
        var path = directory
        var missing = directory
        while path != "/", let slash = path.lastIndex(of: "/") {
            // Up to the root itself: a system user's HOME (/nonexistent) leaves only / above it.
            path = slash == path.startIndex ? "/" : String(path[..<slash])
            var info = stat()
            guard stat(path, &info) == 0 else {
                missing = path
                continue
            }
            if (info.st_mode & S_IFMT) != S_IFDIR { return ": \(path) is not a folder" }
            guard access(path, W_OK | X_OK) != 0 else { return "" }
            let uid = getuid()
            if path == "/" {
                // A HOME that does not exist, as a system user's: no folder should be made there.
                return ": \(missing) does not exist, and this user (uid \(uid)) may not make it; set XDG_STATE_HOME to a folder it may "
                    + "write to (a service: StateDirectory=geotrack and XDG_STATE_HOME=/var/lib)"
            }
            return ": this user (uid \(uid)) may not write to \(path); make the folder for it first (`sudo install -d -m 700 -o \(uid) \(directory)`)"
        }
        return ""
    }

    private func writeAtomically(_ text: String) throws(LocationError) {
        if let reason = StateFile.writeAtomically(text, to: path, directory: directory) {
            throw .authorizationStore(path: path, reason: reason)
        }
    }
}

/// The decision of an in-memory ``AuthorizationStore``, and who listens for its changes.
final class MemoryDecision: Sendable {
    private struct State {
        var status: StoredAuthorization
        var listeners: [UInt64: AsyncStream<StoredAuthorization>.Continuation] = [:]
        var nextListener: UInt64 = 0
    }

    private let state: Mutex<State>

    init(_ status: StoredAuthorization) {
        state = Mutex(State(status: status))
    }

    var status: StoredAuthorization { state.withLock { $0.status } }

    func set(_ status: StoredAuthorization) {
        let listeners = state.withLock { state -> [AsyncStream<StoredAuthorization>.Continuation] in
            guard state.status != status else { return [] }
            state.status = status
            return Array(state.listeners.values)
        }
        for listener in listeners { listener.yield(status) }
    }

    func changes() -> AsyncStream<StoredAuthorization> {
        let (stream, continuation) = AsyncStream.makeStream(of: StoredAuthorization.self, bufferingPolicy: .bufferingNewest(8))
        let id = state.withLock { state in
            state.nextListener += 1
            state.listeners[state.nextListener] = continuation
            return state.nextListener
        }
        // A manager that goes away stops listening; its continuation is not kept for ever.
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.listeners.removeValue(forKey: id) }
        }
        return stream
    }
}

/// The administrator's policy file (by default `/etc/geotrack/policy`), as geotrack reads it.
///
/// Its format: one word, `allow` or `deny`, in any case; `#` starts a comment that runs to the
/// end of the line; blank lines are ignored. Anything else counts as `deny`: another word or
/// more than one, a file that cannot be read (a dangling symbolic link included), is not a regular file, is larger than 4 KiB, is
/// not owned by root, or may be written by its group or by others (anyone could then lift it).
/// Only a missing file leaves the decision to each user.
enum PolicyFile: Equatable {
    case allow
    case deny

    static func read(_ path: String) -> PolicyFile {
        switch AuthorizationStore.readSmallFile(path) {
        case .missing:
            // Only nothing at all there allows: a symbolic link whose target is gone (open
            // says ENOENT through it) is a policy that cannot be read, which denies.
            var info = stat()
            return lstat(path, &info) == 0 ? .deny : .allow
        case .unreadable:
            return .deny
        case .text(let text, let info):
            guard info.st_uid == 0, info.st_mode & (S_IWGRP | S_IWOTH) == 0 else { return .deny }
            let words = text.split(whereSeparator: \.isNewline).flatMap { line in
                line.prefix { $0 != "#" }.split(whereSeparator: \.isWhitespace)
            }
            return words.count == 1 && words[0].lowercased() == "allow" ? .allow : .deny
        }
    }
}
