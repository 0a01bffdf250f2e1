import Foundation
import Testing
@testable import GeoTrackCLI

@Suite("Configuration layers")
struct ConfigurationTests {
    static let defaultsFile = TestSupport.packageRoot.appendingPathComponent("config/geotrack.yaml").path

    static func load(overrides: SettingsOverrides = SettingsOverrides(), environment: [String: String] = [:], file: String? = nil,
                     yaml: String? = nil) async throws -> (Settings, [String]) {
        var path = file
        if let yaml {
            let directory = try TestSupport.temporaryDirectory()
            path = directory.appendingPathComponent("config.yaml").path
            try yaml.write(toFile: path ?? "", atomically: true, encoding: .utf8)
        }
        var env = environment
        env["HOME"] = env["HOME"] ?? "/nonexistent-home"
        var warnings: [String] = []
        let settings = try await ConfigurationLoader(overrides: overrides, environment: env, explicitFile: path)
            .load(warn: { warnings.append($0) })
        return (settings, warnings)
    }

    @Test("config/geotrack.yaml documents exactly the built-in defaults, and every key is known")
    func defaultsFileMatches() async throws {
        let (settings, warnings) = try await Self.load(file: Self.defaultsFile)
        #expect(settings == Settings())
        #expect(warnings.isEmpty)
        let text = try String(contentsOfFile: Self.defaultsFile, encoding: .utf8)
        for key in ConfigKeys.all {
            let leaf = String(key.split(separator: ".").last ?? "")
            #expect(text.contains("\(leaf):"), "config/geotrack.yaml does not document \(key)")
        }
    }

    @Test("flags override the environment, which overrides the file")
    func precedence() async throws {
        let yaml = "gpsd:\n  host: filehost\n  port: 3000\ndisplay:\n  units: imperial\n  format: dms\n"
        let (fileOnly, _) = try await Self.load(yaml: yaml)
        #expect(fileOnly.gpsdHost == "filehost")
        #expect(fileOnly.gpsdPort == 3000)
        #expect(fileOnly.units == .imperial)
        let (withEnvironment, _) = try await Self.load(environment: ["GEOTRACK_GPSD_HOST": "envhost", "GEOTRACK_DISPLAY_UNITS": "nautical"], yaml: yaml)
        #expect(withEnvironment.gpsdHost == "envhost")
        #expect(withEnvironment.units == .nautical)
        #expect(withEnvironment.gpsdPort == 3000)
        var units = SettingsOverrides()
        units.units = .metric
        let (withFlags, _) = try await Self.load(overrides: units, environment: ["GEOTRACK_DISPLAY_UNITS": "nautical"], yaml: yaml)
        #expect(withFlags.units == .metric)
        #expect(withFlags.format == .dms)
    }

    @Test("the command line's typed values replace the layers below without their being read: a bad value there is no error")
    func overridesReplaceUnread() async throws {
        let yaml = "gpsd:\n  port: [1, 2]\ndisplay:\n  format: dms\ngpx:\n  min_move: -3\n"
        let environment = ["GEOTRACK_DISPLAY_UNITS": "furlongs", "GEOTRACK_GPSD_HOST": "envhost"]
        // Without the command line, each bad value is an error (exit 78).
        await #expect(throws: CLIError.self) { _ = try await Self.load(environment: environment, yaml: yaml) }
        let watch = try GeoTrack.Watch.parse(["--units", "nautical", "--gpsd", ":3000", "--gpx-min-move", "2.5",
                                              "--visits", "--device", "/dev/ttyUSB1"])
        let (settings, _) = try await Self.load(overrides: watch.settingsOverrides, environment: environment, yaml: yaml)
        #expect(settings.units == .nautical)
        #expect(settings.gpsdPort == 3000)
        #expect(settings.gpsdHost == "envhost")
        #expect(settings.format == .dms)
        #expect(settings.gpx.minimumMove == 2.5)
        #expect(settings.visits.enabled)
        #expect(settings.device == "/dev/ttyUSB1")
    }

    @Test("the user file is found through XDG_CONFIG_HOME, and a missing one is no error")
    func userFile() async throws {
        let home = try TestSupport.temporaryDirectory()
        let (missing, _) = try await Self.load(environment: ["XDG_CONFIG_HOME": home.path])
        #expect(missing == Settings())
        try FileManager.default.createDirectory(at: home.appendingPathComponent("geotrack"), withIntermediateDirectories: true)
        try "gpsd:\n  port: 4000\n".write(to: home.appendingPathComponent("geotrack/config.yaml"), atomically: true, encoding: .utf8)
        let (found, _) = try await Self.load(environment: ["XDG_CONFIG_HOME": home.path])
        #expect(found.gpsdPort == 4000)
    }

    @Test("a bad value names the key, the value, what is allowed and where it was set; exit 78", arguments: [
        ("gpsd:\n  port: 70000\n", [String: String](), "gpsd.port = '70000'", "1 to 65535"),
        ("display:\n  units: furlongs\n", [:], "display.units = 'furlongs'", "metric, imperial, nautical"),
        ("gpx:\n  min_move: -3\n", [:], "gpx.min_move = '-3'", "at least 0"),
        ("gpx:\n  segment_after: 0\n", [:], "gpx.segment_after = '0'", "more than 0"),
        ("", ["GEOTRACK_DISPLAY_FORMAT": "utm"], "display.format = 'utm' in GEOTRACK_DISPLAY_FORMAT", "dd, dms, ddm"),
        ("regions:\n  home:\n    latitude: 95\n    longitude: 0\n    radius: 10\n", [:], "regions.home.latitude = '95'", "-90 to 90"),
        // Values of the wrong type were read as "not set" and ignored, with exit 0.
        ("gpsd:\n  port: [1, 2]\n", [:], "gpsd.port in ", "1 to 65535"),
        ("display:\n  units: [metric]\n", [:], "display.units in ", "metric, imperial, nautical"),
        ("display:\n  format:\n    dd: true\n", [:], "display.format in ", "dd, dms, ddm"),
        ("gpx:\n  min_move: [3]\n", [:], "gpx.min_move in ", "at least 0"),
        ("location:\n  visits: [true]\n", [:], "location.visits in ", "true or false"),
        ("regions:\n  home:\n    latitude: [1]\n    longitude: 0\n    radius: 10\n", [:], "regions.home.latitude in ", "-90 to 90"),
        ("regions: [home, work]\n", [:], "regions in ", "mapping of names"),
        // A section written as one value was an unknown key, ignored: geotrack ran on the defaults.
        ("gpsd: localhost\n", [:], "gpsd in ", "indented: host, port, device"),
        ("location: [visits]\n", [:], "location in ", "distance_filter, accuracy_filter, visits"),
        // A region without fields, or written as one value, was an unknown key and never monitored.
        ("regions:\n  home:\n", [:], "region 'home' has no latitude, longitude or radius", "latitude, longitude and radius"),
        ("regions:\n  home: {}\n", [:], "region 'home' has no latitude, longitude or radius", "latitude, longitude and radius"),
        // Every field missing is named, not only the last checked.
        ("regions:\n  home:\n    latitude: 1\n", [:], "region 'home' has no longitude or radius (in ", "latitude, longitude and radius"),
        ("regions:\n  home:\n    latitude: 1\n    longitude: 2\n", [:], "region 'home' has no radius (in ", "latitude, longitude and radius"),
        ("regions:\n  home: 51.5\n", [:], "region 'home' in ", "latitude, longitude and radius"),
        // The bounds are said, not only the lower one.
        ("regions:\n  home:\n    latitude: 0\n    longitude: 0\n    radius: 30000000\n", [:],
         "regions.home.radius = '30000000'", "more than 0 and at most 20000000"),
        ("location:\n  visit_dwell: 1e18\n", [:], "location.visit_dwell = '1e18'", "more than 0 and at most 31622400"),
        // HOST:PORT, as --gpsd takes it, was looked up as a host name that "does not resolve".
        ("gpsd:\n  host: localhost:29470\n", [:], "gpsd.host = 'localhost:29470' in ", "without a port, such as localhost or ::1 (the port is gpsd.port)"),
        ("", ["GEOTRACK_GPSD_HOST": "pi.local:2947"], "gpsd.host = 'pi.local:2947' in GEOTRACK_GPSD_HOST", "(the port is gpsd.port)"),
        ("gpsd:\n  host: \"[::1]:2947\"\n", [:], "gpsd.host = '[::1]:2947' in ", "(the port is gpsd.port)"),
        // An empty variable looks cleared but is set: the line says how to clear it.
        ("gpsd:\n  port: 3000\n", ["GEOTRACK_GPSD_PORT": ""], "gpsd.port = '' in GEOTRACK_GPSD_PORT",
         "1 to 65535, or 'unset GEOTRACK_GPSD_PORT' for the file's value or the default"),
    ])
    func badValues(yaml: String, environment: [String: String], mentions: String, allowed: String) async throws {
        do {
            _ = try await Self.load(environment: environment, yaml: yaml)
            Issue.record("no error for \(mentions)")
        } catch let error as CLIError {
            #expect(error.status == .config)
            #expect(error.message.contains(mentions), "\(error.message)")
            #expect(error.message.contains(allowed), "\(error.message)")
            #expect(!error.message.contains("\n"))
        }
    }

    @Test("unknown keys and GEOTRACK_ variables get a warning and are ignored")
    func unknownKeys() async throws {
        let (settings, warnings) = try await Self.load(environment: ["GEOTRACK_GPSD_HOTS": "x"],
                                                       yaml: "gpsd:\n  hots: x\n  port: 2950\ncolour: red\n")
        #expect(settings.gpsdPort == 2950)
        #expect(warnings.count == 3)
        #expect(warnings.contains { $0.contains("'gpsd.hots'") })
        #expect(warnings.contains { $0.contains("'colour'") })
        #expect(warnings.contains { $0.contains("GEOTRACK_GPSD_HOTS") })
    }

    @Test("an unknown key's warning says what to write instead", arguments: [
        ("gpsd:\n  hots: x\n", "'gpsd.hots'", "; gpsd takes host, port, device"),
        ("units: imperial\n", "'units'", "; did you mean display.units?"),
        ("gpxx:\n  min_move: 3\n", "'gpxx.min_move'", "; did you mean gpx.min_move?"),
        ("colour: red\n", "'colour'", "; the sections are gpsd, display, location, gpx, publish, regions"),
        ("regions:\n  home:\n    lat: 1\n    latitude: 1\n    longitude: 1\n    radius: 5\n", "'regions.home.lat'",
         "; a region is NAME: {latitude, longitude, radius}, its name without '.'"),
    ])
    func unknownKeyHints(yaml: String, key: String, hint: String) async throws {
        let (_, warnings) = try await Self.load(yaml: yaml)
        #expect(warnings.count == 1, "\(warnings)")
        #expect(warnings.first?.contains("unknown configuration key \(key) in ") == true, "\(warnings)")
        #expect(warnings.first?.hasSuffix(" (ignored)" + hint) == true, "\(warnings)")
    }

    @Test("an unknown variable's warning names the variable meant", arguments: [
        ("GEOTRACK_UNITS", "; did you mean GEOTRACK_DISPLAY_UNITS?"),
        ("GEOTRACK_DEVICE", "; did you mean GEOTRACK_GPSD_DEVICE or GEOTRACK_PUBLISH_DEVICE?"),
        ("GEOTRACK_GPSD_HOTS", "; the gpsd variables are GEOTRACK_GPSD_HOST, GEOTRACK_GPSD_PORT, GEOTRACK_GPSD_DEVICE"),
        ("GEOTRACK_FOO", "; a variable is GEOTRACK_ and a key of the configuration file, dots as underscores (GEOTRACK_GPSD_HOST)"),
    ])
    func unknownVariableHints(name: String, hint: String) async throws {
        let (_, warnings) = try await Self.load(environment: [name: "1"])
        #expect(warnings == ["geotrack: warning: unknown environment variable \(name) (ignored)" + hint])
    }

    @Test("an unknown key or variable is shown with its control characters escaped, never obeyed")
    func unknownKeysShownSafely() async throws {
        let (_, warnings) = try await Self.load(environment: ["GEOTRACK_\u{1b}]0;title\u{7}": "1"],
                                                yaml: "\"\\u001b[2Jcolour\": red\n")
        #expect(warnings.count == 2, "\(warnings)")
        // The key's escape reached the terminal as it was: a file could clear the screen.
        #expect(!warnings.contains { $0.unicodeScalars.contains { $0.value < 0x20 } }, "\(warnings)")
        #expect(warnings.contains { $0.contains("'\\u{1b}[2Jcolour'") }, "\(warnings)")
        #expect(warnings.contains { $0.contains("GEOTRACK_\\u{1b}]0;title\\u{7}") }, "\(warnings)")
    }

    @Test("regions are read by name")
    func regions() async throws {
        let yaml = """
        regions:
          home:
            latitude: 51.5
            longitude: -0.12
            radius: 100
          work:
            latitude: 48.85
            longitude: 2.35
            radius: 250
        """
        let (settings, warnings) = try await Self.load(yaml: yaml)
        #expect(warnings.isEmpty)
        #expect(settings.regions.sorted { $0.name < $1.name } == [
            RegionSetting(name: "home", latitude: 51.5, longitude: -0.12, radius: 100),
            RegionSetting(name: "work", latitude: 48.85, longitude: 2.35, radius: 250),
        ])
    }

    @Test("a region's fields can be set in the environment, for a region the file names, without a warning")
    func regionFromEnvironment() async throws {
        let yaml = "regions:\n  home:\n    latitude: 51.5\n    longitude: -0.12\n    radius: 100\n"
        let (settings, warnings) = try await Self.load(environment: ["GEOTRACK_REGIONS_HOME_RADIUS": "250"], yaml: yaml)
        #expect(settings.regions == [RegionSetting(name: "home", latitude: 51.5, longitude: -0.12, radius: 250)])
        // It said "unknown environment variable ... (ignored)" while using the value.
        #expect(warnings.isEmpty, "\(warnings)")
        let (_, unnamed) = try await Self.load(environment: ["GEOTRACK_REGIONS_WORK_RADIUS": "250"], yaml: yaml)
        #expect(unnamed == ["geotrack: warning: unknown environment variable GEOTRACK_REGIONS_WORK_RADIUS (ignored); "
                + "a region's variables (GEOTRACK_REGIONS_HOME_RADIUS) are read for a region the file names"])
    }

    @Test("a malformed file or a missing --config is a config error naming the line")
    func malformed() async throws {
        await #expect(throws: CLIError(.config, "config: file /nonexistent/geotrack.yaml does not exist. Check the path given with --config or GEOTRACK_CONFIG.")) {
            _ = try await Self.load(file: "/nonexistent/geotrack.yaml")
        }
        do {
            _ = try await Self.load(yaml: "gpsd:\n  host: x\n  port: [1, {a: 2}]\n")
            Issue.record("no error for malformed YAML")
        } catch let error as CLIError {
            #expect(error.status == .config)
            #expect(error.message.hasPrefix("config: cannot read /"), "\(error.message)")
            #expect(error.message.hasSuffix(": line 3: a list may only hold plain values. Fix the YAML or move the file away."),
                    "\(error.message)")
        }
        // A directory is there but cannot be read as a file: the system's reason, not "does not exist".
        let directory = try TestSupport.temporaryDirectory()
        do {
            _ = try await Self.load(file: directory.path)
            Issue.record("no error for a directory")
        } catch let error as CLIError {
            #expect(error.message == "config: cannot read \(directory.path): Is a directory. Give a readable YAML file, or move this one away.")
        }
    }

    @Test("a configuration file others could have written (its mode, its folder's, its owner) is refused with 78, as ssh refuses one; a named pipe nobody writes is an error, not a hang")
    func refusedWhenOthersCouldWriteIt() async throws {
        let folder = try TestSupport.temporaryDirectory()
        let path = folder.appendingPathComponent("config.yaml").path
        try "publish:\n  destinations: [mqtt://127.0.0.1:1883]\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(chmod(path, 0o644) == 0)
        _ = try await Self.load(file: path)
        for (fileMode, folderMode, says) in [(0o666, 0o700, "others can change it (mode 666)"),
                                             (0o644, 0o777, "others can change its folder (mode 777)")] {
            #expect(chmod(path, mode_t(fileMode)) == 0 && chmod(folder.path, mode_t(folderMode)) == 0)
            do {
                _ = try await Self.load(file: path)
                Issue.record("no error for file mode \(String(fileMode, radix: 8)), folder \(String(folderMode, radix: 8))")
            } catch let error as CLIError {
                #expect(error.status == .config)
                #expect(error.message == "config: cannot read \(path): \(says), and with it where your position goes; chmod go-w it. Give a readable YAML file, or move this one away.")
            }
        }
        #expect(chmod(path, 0o644) == 0 && chmod(folder.path, 0o700) == 0)
        // Another user's file. Only root can give a file away; CI's machines run the tests as
        // root, and elsewhere the expectation says it was not checked.
        let owner = chown(path, 65_534, 65_534)
        #expect(owner == 0, "not root: the refusal of another user's file was not checked")
        if owner == 0 {
            let run = try await TestSupport.geotrack(["replay", try PublishTests.log, "--config", path, "--count", "1"], home: folder)
            #expect(run.status == 78, "\(run.stderr)")
            #expect(run.stderr.contains("belongs to another user (65534), who could change where your position goes"), "\(run.stderr)")
        }
        let fifo = folder.appendingPathComponent("fifo.yaml").path
        #expect(mkfifo(fifo, 0o600) == 0)
        do {
            _ = try await Self.load(file: fifo)
            Issue.record("no error for a named pipe")
        } catch let error as CLIError {
            #expect(error.message == "config: cannot read \(fifo): a named pipe that nothing writes to; name the configuration file itself. Give a readable YAML file, or move this one away.")
        }
    }

    @Test("empty and null values: device \"\" means all devices, a null value is not set, an empty section is no unknown key")
    func emptyValues() async throws {
        let (quoted, _) = try await Self.load(yaml: "gpsd:\n  device: \"/dev/ttyACM0\"\n")
        #expect(quoted.device == "/dev/ttyACM0")
        let (empty, _) = try await Self.load(environment: ["GEOTRACK_GPSD_DEVICE": "/dev/ttyUSB0"], yaml: "gpsd:\n  device: \"\"\n")
        #expect(empty.device == "/dev/ttyUSB0", "the environment still wins over the file")
        let (allDevices, _) = try await Self.load(yaml: "gpsd:\n  device: \"\"\n")
        #expect(allDevices == Settings())
        let (nulls, warnings) = try await Self.load(yaml: "gpsd:\n  port: ~\n  device:\n  host: null\ndisplay: {}\ngpx:\nregions:\n")
        #expect(nulls == Settings())
        #expect(warnings.isEmpty, "\(warnings)")
        let (commentsOnly, commentWarnings) = try await Self.load(yaml: "# nothing yet\n---\n\n  # still nothing\n")
        #expect(commentsOnly == Settings())
        #expect(commentWarnings.isEmpty)
    }

    @Test("gpsd.host takes a name, an IPv4 or IPv6 address, and an IPv6 address in brackets as --gpsd writes it", arguments: [
        ("pi.local", "pi.local"), ("192.168.1.20", "192.168.1.20"), ("::1", "::1"), ("\"[::1]\"", "::1"), ("fe80::1%eth0", "fe80::1%eth0"),
    ])
    func gpsdHosts(written: String, host: String) async throws {
        let (settings, warnings) = try await Self.load(yaml: "gpsd:\n  host: \(written)\n")
        #expect(settings.gpsdHost == host)
        #expect(warnings.isEmpty)
    }

    @Test("configuration keys map to GEOTRACK_ names")
    func environmentNames() {
        #expect(ConfigKeys.environmentName("gpx.min_move") == "GEOTRACK_GPX_MIN_MOVE")
        #expect(ConfigKeys.environmentName("gpsd.host") == "GEOTRACK_GPSD_HOST")
    }
}

@Suite("the publish: section")
struct PublishConfigurationTests {
    @Test("destinations, user, device and Home Assistant from the file; destinations from the environment, comma-separated")
    func read() async throws {
        let yaml = """
            publish:
              destinations:
                - mqtt://broker.lan
                - osmand://traccar.lan:5055
              user: ann
              device: boat
              home_assistant: true
            """
        let (settings, warnings) = try await ConfigurationTests.load(yaml: yaml)
        #expect(warnings.isEmpty)
        #expect(settings.publish == PublishSettings(destinations: ["mqtt://broker.lan", "osmand://traccar.lan:5055"],
                                                    user: "ann", device: "boat", homeAssistant: true))
        let (fromEnvironment, _) = try await ConfigurationTests.load(
            environment: ["GEOTRACK_PUBLISH_DESTINATIONS": "mqtt://a.lan, http://b.lan:8083/pub"], yaml: yaml)
        #expect(fromEnvironment.publish.destinations == ["mqtt://a.lan", "http://b.lan:8083/pub"])
    }

    @Test("a destination --publish would refuse, or a name with a slash, is a configuration error naming the key", arguments: [
        ("publish:\n  destinations:\n    - ftp://x\n", "publish.destinations"),
        ("publish:\n  destinations: [mqtt://user:secret@x]\n", "publish.destinations"),
        ("publish:\n  user: a/b\n", "publish.user"),
        ("publish:\n  home_assistant: maybe\n", "publish.home_assistant"),
    ])
    func refused(yaml: String, key: String) async throws {
        do {
            _ = try await ConfigurationTests.load(yaml: yaml)
            Issue.record("accepted: \(yaml)")
        } catch let error as CLIError {
            #expect(error.status == .config)
            #expect(error.message.contains(key), "\(error.message)")
            #expect(!error.message.contains("secret"), "a password is never repeated: \(error.message)")
        }
    }

    @Test("a destination refused in the environment names the variable, not a file that may not exist")
    func refusedFromEnvironment() async throws {
        do {
            _ = try await ConfigurationTests.load(environment: ["GEOTRACK_PUBLISH_DESTINATIONS": "mqtt://a.lan, bogus://x"], yaml: "")
            Issue.record("accepted bogus://x")
        } catch let error as CLIError {
            #expect(error.status == .config)
            #expect(error.message.hasPrefix("config: publish.destinations in GEOTRACK_PUBLISH_DESTINATIONS: --publish bogus://x: unknown scheme"),
                    "\(error.message)")
        }
    }
}
