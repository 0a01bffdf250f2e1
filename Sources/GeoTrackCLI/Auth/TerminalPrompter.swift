import Executors
import FoundationEssentials
import LocationKit
#if canImport(Glibc)
import Glibc
#endif

/// Asks at the terminal whether geotrack may use the location: once, always, approximately, or
/// deny; and, when only approximate locations are allowed, whether one run may have precise ones.
///
/// It is LocationKit's terminal ``AuthorizationPrompter``; `watch` asks through it before
/// anything is shown, so that "once" can stay out of the stored decision.
package struct TerminalPrompter: AuthorizationPrompter {
    let input: Int32
    let output: Int32

    /// A prompter on the given descriptors (stdin and stdout by default).
    package init(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) {
        self.input = input
        self.output = output
    }

    /// The question.
    package static let question = "geotrack wants your location. Allow [o]nce, [a]lways, a[p]proximately, [d]eny? "

    /// Asks until the answer is understood; end of input is a refusal to answer.
    package func ask() throws(CLIError) -> AuthorizationAnswer {
        while true {
            Terminal.write(Self.question, to: output)
            guard let line = readLine(from: input) else {
                Terminal.write("\n", to: output)
                throw CLIError(.authorizationRequired, "no answer to the location prompt: run 'geotrack auth grant' or 'geotrack auth deny'")
            }
            if let choice = Self.parse(line) { return choice }
            Terminal.write("Please answer o (once), a (always), p (approximately) or d (deny).\n", to: output)
        }
    }

    /// Understands o/once, a/always/y/yes, p/approximate/approximately, d/deny/n/no, in any case.
    package static func parse(_ answer: String) -> AuthorizationAnswer? {
        switch Self.trimmed(answer).lowercased() {
        case "o", "once": .once
        case "a", "always", "y", "yes": .always
        case "p", "approximate", "approximately": .approximate
        case "d", "deny", "n", "no": .deny
        default: nil
        }
    }

    /// The question for precise locations in one run, when only approximate ones are allowed.
    package static func fullAccuracyQuestion(purpose: String) -> String {
        "geotrack has your approximate location only. Allow your precise location for this run (\(Terminal.safe(purpose)))? [y/N] "
    }

    /// Asks once whether this run may have precise locations; anything but yes, and end of
    /// input, is no.
    package func askFullAccuracy(purpose: String) -> Bool {
        Terminal.write(Self.fullAccuracyQuestion(purpose: purpose), to: output)
        guard let line = readLine(from: input) else {
            Terminal.write("\n", to: output)
            return false
        }
        return ["y", "yes"].contains(Self.trimmed(line).lowercased())
    }

    /// Reads up to a newline byte by byte, so nothing after it is consumed from a shared descriptor.
    private func readLine(from descriptor: Int32) -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = read(descriptor, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            guard count == 1 else { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
    }
}

extension TerminalPrompter {
    /// LocationKit's question: once and always grant, approximately grants approximate
    /// locations, deny denies, no answer dismisses.
    package func requestAuthorization(for level: AuthorizationLevel) async -> AuthorizationDecision {
        await onPromptThread {
            do {
                switch try ask() {
                case .once, .always: return .granted
                case .approximate: return .grantedApproximate
                case .deny: return .denied
                }
            } catch {
                return .dismissed
            }
        }
    }

    /// LocationKit's question for precise locations in this run.
    package func requestTemporaryFullAccuracy(purpose: String) async -> Bool {
        await onPromptThread { askFullAccuracy(purpose: purpose) }
    }

    /// Runs `question` on a thread of its own: reading the terminal blocks, and must not block
    /// the cooperative pool.
    private func onPromptThread<Answer: Sendable>(_ question: @escaping @Sendable () -> Answer) async -> Answer {
        await DetachedThread.value(name: "geotrack prompt", question)
    }

    /// An answer without the spaces around it.
    private static func trimmed(_ answer: String) -> Substring {
        let start = answer.drop { $0.isWhitespace }
        return start[..<(start.lastIndex { !$0.isWhitespace }.map(start.index(after:)) ?? start.startIndex)]
    }
}
