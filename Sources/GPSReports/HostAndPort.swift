/// A host and a port as a person writes them: `localhost:2947`, and an IPv6 address in
/// brackets (`[::1]:2947`), so that its own colons do not read as the port's.
public enum HostAndPort {
    /// `host:port`, or `[host]:port` for an IPv6 address.
    public static func text(_ host: String, _ port: Int) -> String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
