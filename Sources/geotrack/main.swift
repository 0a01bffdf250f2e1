// The geotrack command. Dispatches on the first argument so each subcommand stays separate.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "replay":
    exit(ReplayCommand.run(Array(arguments.dropFirst())))
default:
    let usage = "usage: geotrack replay FILE|- [--json] [--count-only] [--stats]\n"
    standardError(usage)
    exit(64)
}
