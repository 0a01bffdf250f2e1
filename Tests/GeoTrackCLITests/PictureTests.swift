import Foundation
import Testing

/// `--svg`: a picture of the track that validates, renders, and shows what the statistics say.
@Suite("The track picture")
struct PictureTests {
    static let loop = TestSupport.packageRoot.appendingPathComponent("Tests/GeoTrackCLITests/Logs/loop.nmea").path

    /// Every `attribute="…"` number of the elements of `kind` in `svg`.
    static func values(_ attribute: String, of kind: String, in svg: String) -> [Double] {
        svg.components(separatedBy: "<" + kind + " ").dropFirst().compactMap { element in
            element.components(separatedBy: attribute + "=\"").dropFirst().first.flatMap { Double($0.prefix { $0 != "\"" }) }
        }
    }

    @Test("replay --svg: valid SVG (xmllint), rendered by rsvg-convert, with the track, markers, stop, scale, legend and caption")
    func validatesAndRenders() async throws {
        let home = try TestSupport.temporaryDirectory()
        let svg = home.appendingPathComponent("loop.svg").path
        let run = try await TestSupport.geotrack(["replay", Self.loop, "--svg", svg], home: home)
        #expect(run.status == 0, "\(run.stderr)")
        let lint = try await TestSupport.run("/usr/bin/xmllint", ["--noout", svg])
        #expect(lint.status == 0, "\(lint.stderr)")
        let png = home.appendingPathComponent("loop.png").path
        let render = try await TestSupport.run("/usr/bin/rsvg-convert", ["-o", png, svg])
        #expect(render.status == 0, "\(render.stderr)")
        let image = try Data(contentsOf: URL(fileURLWithPath: png))
        #expect(image.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        // The IHDR width, big-endian at byte 16: the picture is 800 pixels wide.
        #expect(image.count > 24 && image[16..<20].reduce(0) { $0 << 8 | Int($1) } == 800)

        let text = try String(contentsOfFile: svg, encoding: .utf8)
        let tracks = text.components(separatedBy: "<polyline class=\"track\"").count - 1
        #expect(tracks >= 5, "a track coloured by speed has several runs of colour")
        let colours = Set(text.components(separatedBy: "<polyline class=\"track\"").dropFirst().compactMap {
            $0.components(separatedBy: "stroke=\"").dropFirst().first?.prefix(7)
        })
        #expect(colours.count >= 4)
        for piece in ["class=\"start\"", "class=\"end\"", "class=\"stop\"", "class=\"north\"", "class=\"scale\"",
                      "class=\"legend\"", "class=\"caption\"", "url(#speed)", "Web Mercator", "<title>loop.nmea</title>"] {
            #expect(text.contains(piece), "\(piece) is missing")
        }
        // The caption's figures are the statistics'.
        let stats = try await TestSupport.geotrack(["stats", Self.loop], home: home)
        let distance = stats.stdout.split(separator: "\n").first { $0.hasPrefix("distance") }?.split(separator: " ").dropFirst().joined(separator: " ")
        #expect(distance == "3.812 km")
        #expect(text.contains("3.812 km  ·  15 min 46 s  ·  moving 9 min 48 s"))
        // Everything drawn lies inside the picture.
        let points = text.components(separatedBy: "points=\"").dropFirst().flatMap { list in
            list.prefix { $0 != "\"" }.split(separator: " ").compactMap { pair -> (Double, Double)? in
                let xy = pair.split(separator: ",").compactMap { Double($0) }
                return xy.count == 2 ? (xy[0], xy[1]) : nil
            }
        }
        let height = Self.values("height", of: "svg", in: text).first ?? 0
        #expect(!points.isEmpty && points.allSatisfy { $0.0 >= 30 && $0.0 <= 770 && $0.1 >= 30 && $0.1 <= height - 120 })
    }

    @Test("regions from the configuration are drawn as dashed circles with their names")
    func regions() async throws {
        let home = try TestSupport.temporaryDirectory()
        let config = home.appendingPathComponent("geotrack.yaml")
        try "regions:\n  cafe:\n    latitude: 46.20752\n    longitude: 6.14623\n    radius: 120\n".write(to: config, atomically: true, encoding: .utf8)
        let svg = home.appendingPathComponent("regions.svg").path
        let run = try await TestSupport.geotrack(["stats", Self.loop, "--svg", svg, "--config", config.path], home: home)
        #expect(run.status == 0, "\(run.stderr)")
        let text = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(text.contains("<circle class=\"region\"") && text.contains(">cafe</text>"))
        #expect(try await TestSupport.run("/usr/bin/xmllint", ["--noout", svg]).status == 0)
    }

    @Test("an existing file is kept unless --overwrite, a link is never followed, and a hostile name is escaped")
    func fileSafety() async throws {
        let home = try TestSupport.temporaryDirectory()
        let existing = home.appendingPathComponent("kept.svg").path
        try "mine\n".write(toFile: existing, atomically: true, encoding: .utf8)
        let refused = try await TestSupport.geotrack(["replay", Self.loop, "--svg", existing], home: home)
        #expect(refused.status == 73)
        #expect(refused.stderr.contains("already exists") && refused.stderr.contains("--overwrite"), "\(refused.stderr)")
        #expect(try String(contentsOfFile: existing, encoding: .utf8) == "mine\n")
        let replaced = try await TestSupport.geotrack(["replay", Self.loop, "--svg", existing, "--overwrite"], home: home)
        #expect(replaced.status == 0, "\(replaced.stderr)")
        #expect(try String(contentsOfFile: existing, encoding: .utf8).hasPrefix("<?xml"))

        let target = home.appendingPathComponent("target.txt").path
        try "target\n".write(toFile: target, atomically: true, encoding: .utf8)
        let link = home.appendingPathComponent("link.svg").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let linked = try await TestSupport.geotrack(["replay", Self.loop, "--svg", link, "--overwrite"], home: home)
        #expect(linked.status == 73)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "target\n")

        let hostile = home.appendingPathComponent("a<b&c>\u{1b}[2J.nmea").path
        try FileManager.default.copyItem(atPath: Self.loop, toPath: hostile)
        let escaped = home.appendingPathComponent("escaped.svg").path
        let run = try await TestSupport.geotrack(["replay", hostile, "--svg", escaped], home: home)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try await TestSupport.run("/usr/bin/xmllint", ["--noout", escaped]).status == 0)
        #expect(try String(contentsOfFile: escaped, encoding: .utf8).contains("<title>a&lt;b&amp;c&gt;\u{FFFD}[2J.nmea</title>"))
    }

    @Test("the picture in the README is what geotrack draws for loop.nmea today")
    func readmePicture() async throws {
        let home = try TestSupport.temporaryDirectory()
        let svg = home.appendingPathComponent("loop.svg").path
        #expect(try await TestSupport.geotrack(["stats", Self.loop, "--svg", svg], home: home).status == 0)
        let committed = try String(contentsOf: TestSupport.packageRoot.appendingPathComponent("docs/loop.svg"), encoding: .utf8)
        #expect(try String(contentsOfFile: svg, encoding: .utf8) == committed,
                "regenerate it: geotrack stats Tests/GeoTrackCLITests/Logs/loop.nmea --svg docs/loop.svg --overwrite")
        #expect(ReadmeTests.readme.contains("![A loop ridden in 16 minutes, drawn by geotrack stats --svg](docs/loop.svg)"))
    }
}
