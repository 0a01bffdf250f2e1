import Foundation
import Testing
@testable import GeoTrackCLI

@Suite("Configuration file reader")
struct ConfigFileTests {
    typealias Entry = ConfigFile.Entry

    static func entries(_ yaml: String) throws -> [String] {
        try ConfigFile(text: yaml).entries.map { entry in
            switch entry.value {
            case .scalar(let text): "\(entry.key)=\(text)"
            case .list(let items): "\(entry.key)=[\(items.joined(separator: "|"))]"
            case .null: "\(entry.key)=null"
            }
        }
    }

    static func problem(_ yaml: String) -> String? {
        do {
            _ = try ConfigFile(text: yaml)
            return nil
        } catch {
            return error.description
        }
    }

    @Test("nested mappings flatten to dotted keys in file order, and a dedent closes every deeper mapping")
    func nesting() throws {
        let yaml = """
        zeta:
          b:
            c: 1
              # a comment at any indentation is no dedent
            d: 2
          e: 3
        alpha: 4
        """
        #expect(try Self.entries(yaml) == ["zeta.b.c=1", "zeta.b.d=2", "zeta.e=3", "alpha=4"])
        #expect(try Self.entries("  a: 1\n  b:\n      c: 2\n") == ["a=1", "b.c=2"], "the first line sets the indentation")
        #expect(try Self.entries("gpsd.port: 1\n") == ["gpsd.port=1"], "a dotted key is the same as nesting")
    }

    @Test("values are text as written: numbers, booleans and colons without a following space stay as they are")
    func plainScalars() throws {
        let yaml = "port: 2947\nvisits: false\nx: 0x10\nurl: http://host:80/p\ntime: 12:30\nneg: -5\nspaced: a  b   \n"
        #expect(try Self.entries(yaml) == ["port=2947", "visits=false", "x=0x10", "url=http://host:80/p", "time=12:30",
                                           "neg=-5", "spaced=a  b"])
    }

    @Test("comments: whole lines, after a blank, never inside quotes or a word")
    func comments() throws {
        let yaml = """
        # heading
        a: 1 # after a space
        b: 2\t# after a tab
        c: "x # y" # quoted
        d: 'p#q'
        e: f#g
        g:   # a section's own comment
          h: 3
        """
        #expect(try Self.entries(yaml) == ["a=1", "b=2", "c=x # y", "d=p#q", "e=f#g", "g.h=3"])
    }

    @Test("single and double quotes, with their escapes, for values and keys")
    func quoting() throws {
        #expect(try ConfigFile(text: #"a: 'it''s'"#)["a"] == .scalar("it's"))
        #expect(try ConfigFile(text: #"a: 'no \n escape'"#)["a"] == .scalar(#"no \n escape"#))
        #expect(try ConfigFile(text: #"a: "q\" b\\ s\/ n\n t\t""#)["a"] == .scalar("q\" b\\ s/ n\n t\t"))
        #expect(try ConfigFile(text: #"a: "\u00e9\u20AC\ud83d\ude00""#)["a"] == .scalar("é€😀"))
        #expect(try ConfigFile(text: #"a: " padded ""#)["a"] == .scalar(" padded "))
        #expect(try Self.entries("\"a b\": 1\n'c:d': 2\n") == ["a b=1", "c:d=2"])
    }

    @Test("flow mappings nest and may be empty; flow lists hold plain values and may span lines")
    func flow() throws {
        #expect(try Self.entries(#"r: {home: {lat: 1, name: "x, y"}, work: {}, z: ~}"#)
                == ["r.home.lat=1", "r.home.name=x, y", "r.work=null", "r.z=null"])
        #expect(try Self.entries("a: [1, 'two', \"3\", ~]\nb: []\nc: {d: [x],}\n") == ["a=[1|two|3|]", "b=[]", "c.d=[x]"])
        #expect(try Self.entries("a: [\n  1,  # one\n  2\n]\nb: {\n  c: 3 }\nd: 4\n") == ["a=[1|2]", "b.c=3", "d=4"])
    }

    @Test("block lists, indented or at their key's indentation, hold plain values; an empty item is empty text")
    func blockLists() throws {
        #expect(try Self.entries("a:\n  - x\n  - 'y'\n  -\n  - ~\nb: 1\n") == ["a=[x|y||]", "b=1"])
        #expect(try Self.entries("a:\n- x\n- y\nb: 1\n") == ["a=[x|y]", "b=1"])
    }

    @Test("null, ~ and an empty value are keys without a value; quoted empty text is a value")
    func nulls() throws {
        let file = try ConfigFile(text: "a: ~\nb: null\nc:\nd: \"\"\ne: ''\nf: \"~\"\ng: {}\nh: NULL\n")
        #expect(file.entries == [
            Entry(key: "a", value: .null), Entry(key: "b", value: .null), Entry(key: "c", value: .null),
            Entry(key: "d", value: .scalar("")), Entry(key: "e", value: .scalar("")), Entry(key: "f", value: .scalar("~")),
            Entry(key: "g", value: .null), Entry(key: "h", value: .null),
        ])
        #expect(file["missing"] == nil)
        #expect(try ConfigFile(text: "# nothing\n\n   \n").entries.isEmpty)
        #expect(try ConfigFile(text: "").entries.isEmpty)
    }

    @Test("CRLF line ends, a byte order mark, a leading --- and a trailing ... are accepted")
    func framing() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("---\r\na:\r\n  b: 'x'\r\nc: [1, 2]\r\n...\r\n# done\r\n".utf8)
        #expect(try ConfigFile(bytes: bytes).entries == [
            Entry(key: "a.b", value: .scalar("x")), Entry(key: "c", value: .list(["1", "2"])),
        ])
    }

    @Test("what the subset does not cover is refused with its line", arguments: [
        ("gpsd: [1, {a: 2}]\n", "line 1: a list may only hold plain values"),
        ("a:\n  - x\n  - b: 1\n", "line 3: a list may only hold plain values"),
        ("a:\n  - [1]\n", "line 2: a list may only hold plain values"),
        ("a: [x: 1]\n", "line 1: a list may only hold plain values"),
        ("a:\n  -\n    b: 1\n", "line 3: a list may only hold plain values, one per line"),
        ("a: &anchor 1\n", "line 1: anchors (&) are not supported"),
        ("a: 1\nb: *anchor\n", "line 2: aliases (*) are not supported"),
        ("a: !!str 1\n", "line 1: tags (!) are not supported"),
        ("a: |\n  text\n", "line 1: block scalars (| and >) are not supported; write the value on one line, quoted if need be"),
        ("a: >\n  text\n", "line 1: block scalars (| and >) are not supported; write the value on one line, quoted if need be"),
        ("a: 1\n---\nb: 2\n", "line 2: a second document ('---'); a configuration file holds one"),
        ("a: 1\n...\nb: 2\n", "line 3: text after the end of the document ('...' on line 2)"),
        ("gpsd:\n  port: 1\n  port: 2\n", "line 3: duplicate key 'gpsd.port' (first on line 2)"),
        ("gpsd:\n  port: 1\ngpsd:\n  host: x\n", "line 3: duplicate key 'gpsd' (first on line 1)"),
        ("gpsd.port: 1\ngpsd: {port: 2}\n", "line 2: duplicate key 'gpsd.port' (first on line 1)"),
        ("a:\n    b: 1\n  c: 2\n", "line 3: the indentation matches no key above"),
        ("a: 1\n  b: 2\n", "line 2: unexpected indentation: the key above already has a value"),
        ("a:\n  - x\n  b: 1\n", "line 3: expected a list item '- value' like the lines above"),
        ("a:\n\tb: 1\n", "line 2: a tab in the indentation; indent with spaces"),
        ("a: 1\nb: \"open\n", "line 2: unterminated double quote; a quoted value must end on its line"),
        ("a: 'open\n", "line 1: unterminated single quote; a quoted value must end on its line"),
        ("a: [1, 2\nb: 3\n", "line 1: the '[' opened on this line is not closed by a ']'"),
        ("a: {b: 1\n", "line 1: the '{' opened on this line is not closed by a '}'"),
        ("a: \"\\x41\"\n", #"line 1: the escape '\x' is not supported; use \" \\ \/ \n \t or \uXXXX"#),
        ("a: \"\\ud800\"\n", #"line 1: an invalid \u escape in a double-quoted value"#),
        ("a: b: c\n", "line 1: a value cannot hold ': ' unless quoted; nested keys go on lines of their own"),
        ("a: 1\nport:2947\n", "line 2: expected 'key: value', with a space after the ':'"),
        ("a: 1\njust text\n", "line 2: expected 'key: value'"),
        ("- a\n- b\n", "line 1: the file must be a mapping of keys to values, not a list"),
        ("a: - x\n", "line 1: a list cannot start on the line of its key; put each '- item' on a line of its own"),
        ("a: \"x\" y\n", "line 1: unexpected text after the value"),
        ("a: [1,, 2]\n", "line 1: an empty item in a [ ] list"),
        ("a: {b}\n", "line 1: expected ':' after 'b'"),
        ("? a\n", "line 1: complex keys (?) are not supported"),
        ("%YAML 1.2\n---\na: 1\n", "line 1: directives (%YAML, %TAG) are not supported"),
        (": 1\n", "line 1: a key is missing before ':'"),
    ])
    func refused(yaml: String, expected: String) {
        #expect(Self.problem(yaml) == expected)
    }

    @Test("a file that is not UTF-8 is refused at the line of the bad byte, even in a comment")
    func notUTF8() {
        #expect(throws: ConfigFile.Problem(line: 2, message: "not UTF-8 text")) {
            try ConfigFile(bytes: Array("a: 1\n# caf".utf8) + [0xE9] + Array("\nb: 2\n".utf8))
        }
    }

    @Test("a missing file reads as none; a file is read whole; an unreadable one gives the system's reason")
    func files() throws {
        let directory = try TestSupport.temporaryDirectory()
        #expect(try ConfigFile.load(path: directory.appendingPathComponent("absent.yaml").path) == nil)
        let file = directory.appendingPathComponent("config.yaml")
        // Longer than one read, so the reader must loop.
        let yaml = (0..<2_000).map { "key\($0): \($0)\n" }.joined()
        try yaml.write(to: file, atomically: true, encoding: .utf8)
        let read = try #require(try ConfigFile.load(path: file.path))
        #expect(read.entries.count == 2_000)
        #expect(read["key1999"] == .scalar("1999"))
        #expect(try ConfigFile.load(path: file.path + "/below") == nil, "a file used as a directory is no file")
        #expect(throws: ConfigFile.Problem(line: nil, message: "Is a directory")) {
            try ConfigFile.load(path: directory.path)
        }
    }

    @Test("config/geotrack.yaml sets every key, regions last and empty")
    func defaultsFile() throws {
        let file = try #require(try ConfigFile.load(path: ConfigurationTests.defaultsFile))
        #expect(file.keys == ConfigKeys.all + [ConfigKeys.regions])
        #expect(file[ConfigKeys.gpsdDevice] == .scalar(""))
        #expect(file[ConfigKeys.gpsdPort] == .scalar("2947"))
        #expect(file[ConfigKeys.regions] == .null)
    }
}
