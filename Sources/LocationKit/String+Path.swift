#if canImport(Glibc)
import Glibc
#endif

// Path text without Foundation's NSString: LocationKit only splits paths it built itself.
extension String {
    /// The part after the last `/` (trailing slashes ignored), as NSString's `lastPathComponent`.
    var lastPathComponent: String {
        var path = Substring(self)
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        guard let slash = path.lastIndex(of: "/"), path != "/" else { return String(path) }
        return String(path[path.index(after: slash)...])
    }

    /// The path without its last component: `/a/b` → `/a`, `/a` → `/`, `a` → empty, as
    /// NSString's `deletingLastPathComponent`.
    var deletingLastPathComponent: String {
        var path = Substring(self)
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        guard let slash = path.lastIndex(of: "/") else { return "" }
        if slash == path.startIndex { return "/" }
        return String(path[..<slash])
    }
}

/// The user's home directory from the password database, for when `HOME` is unset or empty.
package func passwordDatabaseHome() -> String {
    guard let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir else { return "/" }
    return String(cString: directory)
}
