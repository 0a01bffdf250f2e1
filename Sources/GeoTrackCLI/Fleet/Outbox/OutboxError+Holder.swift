import FoundationEssentials
import Outbox

extension OutboxError {
    /// The run that holds a claimed destination (``OutboxError/Code/claimed``), as the CLI's
    /// messages name it: "geotrack (process 1234: outbox flush)", with the command it runs when
    /// the system says (a service's `watch`, or a flush typed by hand, call for different
    /// steps), "geotrack (process 1234)" when it does not, or "geotrack" without a process.
    var holderName: String {
        guard let holder else { return "geotrack" }
        guard let command = Self.command(of: holder) else { return "geotrack (process \(holder))" }
        return "geotrack (process \(holder): \(command))"
    }

    /// The subcommand process `pid` runs (`watch`, `replay`, `outbox flush`), from its command
    /// line, made safe for the terminal; nil when it cannot be read.
    private static func command(of pid: Int32) -> String? {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return nil }
        let words = data.split(separator: 0).dropFirst().map { String(decoding: $0, as: UTF8.self) }
        guard let first = words.first, !first.hasPrefix("-") else { return nil }
        // `outbox` names its action; any other subcommand's next word is a file or an option.
        let command = first == "outbox" && words.count > 1 && !words[1].hasPrefix("-") ? first + " " + words[1] : first
        return Terminal.safe(command)
    }
}
