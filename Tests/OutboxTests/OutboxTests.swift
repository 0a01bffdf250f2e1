import Foundation
import GeoTrackTesting
import Outbox
import Testing

/// The outbox on a real SQLite file: order, removal, the bound, per-destination summaries, and
/// durability across a reopen.
struct OutboxTests {
    private func message(_ index: Int, to destination: String = "mqtt://127.0.0.1:1883") -> OutboxMessage {
        OutboxMessage(destination: destination, topic: "owntracks/a/b", payload: Array("\(index)".utf8), retain: true,
                      created: Date(timeIntervalSince1970: 1_700_000_000 + Double(index)))
    }

    @Test("messages come out oldest first, after a given id, and leave only when removed")
    func order() async throws {
        let folder = try TemporaryDirectory()
        let outbox = try Outbox(path: folder.path + "/outbox.sqlite")
        let ids = try outbox.enqueue(contentsOf: (0..<10).map { message($0) })
        #expect(ids == ids.sorted())
        let first = try await outbox.messages(for: "mqtt://127.0.0.1:1883", limit: 4)
        #expect(first.map { String(decoding: $0.payload, as: UTF8.self) } == ["0", "1", "2", "3"])
        let next = try await outbox.messages(for: "mqtt://127.0.0.1:1883", after: first[3].id, limit: 100)
        #expect(next.count == 6)
        try await outbox.remove(first.map(\.id))
        let summary = try outbox.summary(for: "mqtt://127.0.0.1:1883")
        #expect(summary.count == 6)
        #expect(summary.oldest == Date(timeIntervalSince1970: 1_700_000_004))
        #expect(try await outbox.messages(for: "mqtt://other:1883", limit: 10).isEmpty)
    }

    @Test("past its capacity the oldest messages are dropped and counted, per destination")
    func bounded() async throws {
        let folder = try TemporaryDirectory()
        let outbox = try Outbox(path: folder.path + "/outbox.sqlite", capacity: 5)
        for index in 0..<8 { try outbox.enqueue(message(index)) }
        try outbox.enqueue(message(100, to: "mqtt://other:1883"))
        let kept = try await outbox.messages(for: "mqtt://127.0.0.1:1883", limit: 100)
        #expect(kept.map { String(decoding: $0.payload, as: UTF8.self) } == ["3", "4", "5", "6", "7"])
        let summaries = try outbox.summaries()
        #expect(summaries.map(\.destination) == ["mqtt://127.0.0.1:1883", "mqtt://other:1883"])
        #expect(summaries.map(\.dropped) == [3, 0])
        #expect(summaries.map(\.count) == [5, 1])
        #expect(try outbox.clear(destination: "mqtt://127.0.0.1:1883") == 5)
        #expect(try outbox.summaries().map(\.destination) == ["mqtt://other:1883"])
    }

    @Test("what was queued is still there after the outbox is opened again")
    func durable() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path + "/outbox.sqlite"
        do {
            let outbox = try Outbox(path: path)
            try outbox.enqueue(contentsOf: (0..<3).map { message($0) })
        }
        let reopened = try Outbox(path: path)
        let messages = try await reopened.messages(for: "mqtt://127.0.0.1:1883", limit: 10)
        #expect(messages.map(\.retain) == [true, true, true])
        #expect(messages.map(\.topic) == Array(repeating: "owntracks/a/b", count: 3))
        #expect(messages.map(\.created) == (0..<3).map { Date(timeIntervalSince1970: 1_700_000_000 + Double($0)) })
    }

    @Test("a symbolic link in the outbox's place is refused, and its target left alone")
    func refusesLink() throws {
        let folder = try TemporaryDirectory()
        let target = folder.path + "/precious"
        try "keep".write(toFile: target, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/outbox.sqlite", withDestinationPath: target)
        #expect(throws: OutboxError.self) { try Outbox(path: folder.path + "/outbox.sqlite") }
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep")
    }

    @Test("a file that is not a database is reported, not crashed on")
    func damaged() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path + "/outbox.sqlite"
        try String(repeating: "not sqlite ", count: 200).write(toFile: path, atomically: true, encoding: .utf8)
        let error = #expect(throws: OutboxError.self) { try Outbox(path: path) }
        #expect(error?.message.contains("cannot open the outbox") == true)
    }
}
