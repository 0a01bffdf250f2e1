import Foundation
import Testing

/// Paths and helpers shared by the CLI tests.
enum TestSupport {
    /// The package's root folder.
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The built `geotrack` binary, beside the test bundle.
    static var binary: String {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [
            bundle.appendingPathComponent("geotrack").path,
            bundle.deletingLastPathComponent().appendingPathComponent("geotrack").path,
            packageRoot.appendingPathComponent(".build/debug/geotrack").path,
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates[2]
    }

    /// A fresh temporary directory.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("geotrack-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The result of running a program.
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs a program to the end, with stdin from /dev/null unless `input` is given.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                    input: String? = nil) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = nil
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        if let input {
            let pipe = Pipe()
            process.standardInput = pipe
            try process.run()
            pipe.fileHandleForWriting.write(Data(input.utf8))
            try pipe.fileHandleForWriting.close()
        } else {
            process.standardInput = FileHandle.nullDevice
            try process.run()
        }
        // Read both pipes before waiting, so a chatty child never blocks on a full pipe.
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                   stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Runs `geotrack` with a private state and config home, so no test sees another's decision.
    static func geotrack(_ arguments: [String], home: URL, environment: [String: String] = [:], input: String? = nil) throws -> Run {
        var env = ["XDG_STATE_HOME": home.appendingPathComponent("state").path,
                   "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
                   "HOME": home.path]
        for (key, value) in environment { env[key] = value }
        return try run(binary, arguments, environment: env, input: input)
    }

    /// Whether a program is on this machine.
    static func installed(_ path: String) -> Bool {
        FileManager.default.isExecutableFile(atPath: path)
    }
}
