import Foundation
import GeoTrackTesting
import MQTT
import Outbox
import Publishing
import Synchronization
import Testing

/// The sender with a real broker and a real outbox: everything arrives in order, the outbox
/// empties, and a broker killed and restarted mid-run loses nothing.
@Suite(.serialized)
struct OutboxSenderTests {
    private func fill(_ outbox: Outbox, destination: String, count: Int, from start: Int = 0) throws {
        try outbox.enqueue(contentsOf: (start..<start + count).map {
            OutboxMessage(destination: destination, topic: "fleet/test", payload: Array(String($0).utf8), retain: false,
                          created: Date())
        })
    }

    @Test("2 000 queued messages arrive in order and leave the outbox")
    func drains() async throws {
        let broker = try await Mosquitto()
        let subscriber = try await MosquittoSubscriber(broker: broker, topics: ["fleet/test"])
        let folder = try TemporaryDirectory()
        let outbox = try Outbox(path: folder.path + "/outbox.sqlite")
        let destination = "mqtt://127.0.0.1:\(broker.port)/fleet/test"
        try fill(outbox, destination: destination, count: 2_000)
        let client = try MQTTClient(clientID: "geotrack-test-drain", endpoint: MQTTEndpoint(host: "127.0.0.1", port: broker.port))
        let sender = OutboxSender(outbox: outbox, destination: destination, client: client)
        let running = Task { await sender.run() }
        #expect(await sender.waitUntilDelivered() == .delivered)
        #expect(try outbox.summary(for: destination).count == 0)
        #expect(await subscriber.waitForMessages(2_000))
        #expect(subscriber.messages().map(\.payload) == (0..<2_000).map(String.init))
        await client.close()
        await running.value
    }

    @Test("messages no broker can take (topic #, +, none) move aside as dead letters; the rest arrive, in order, and the wait ends")
    func deadLetters() async throws {
        let broker = try await Mosquitto()
        let subscriber = try await MosquittoSubscriber(broker: broker, topics: ["fleet/test"])
        let folder = try TemporaryDirectory()
        let outbox = try Outbox(path: folder.path + "/outbox.sqlite")
        let destination = "mqtt://127.0.0.1:\(broker.port)/fleet/test"
        // Whole batches of dead letters too: a window of 2 reads two at a time.
        let topics = ["fleet/test", "#", "fleet/test", "", "+", "#", "fleet/test"]
        try outbox.enqueue(contentsOf: topics.enumerated().map { index, topic in
            OutboxMessage(destination: destination, topic: topic, payload: Array(String(index).utf8), retain: false, created: Date())
        })
        let client = try MQTTClient(clientID: "geotrack-test-dead", endpoint: MQTTEndpoint(host: "127.0.0.1", port: broker.port))
        let sender = OutboxSender(outbox: outbox, destination: destination, client: client, window: 2)
        let running = Task { await sender.run() }
        #expect(await sender.waitUntilDelivered() == .delivered)
        #expect(await subscriber.waitForMessages(3))
        #expect(subscriber.messages().map(\.payload) == ["0", "2", "6"])
        let summary = try outbox.summary(for: destination)
        #expect(summary.count == 0)
        #expect(summary.deadLetters == 4)
        #expect(summary.deadLetterReason?.contains("publishing to #") == true, "\(String(describing: summary.deadLetterReason))")
        // Clearing the destination deletes its dead letters too.
        #expect(try outbox.clear(destination: destination).messages == 0)
        #expect(try outbox.summary(for: destination).deadLetters == 0)
        await client.close()
        await running.value
    }

    @Test("a wait asked right after queueing ends only once those messages left the outbox (300 times, while idle)")
    func waitSeesWhatWasQueued() async throws {
        let broker = try await Mosquitto()
        let folder = try TemporaryDirectory()
        let outbox = try Outbox(path: folder.path + "/outbox.sqlite")
        let destination = "mqtt://127.0.0.1:\(broker.port)/fleet/test"
        let client = try MQTTClient(clientID: "geotrack-test-wait", endpoint: MQTTEndpoint(host: "127.0.0.1", port: broker.port))
        let sender = OutboxSender(outbox: outbox, destination: destination, client: client)
        let running = Task { await sender.run() }
        #expect(await sender.waitUntilDelivered() == .delivered)
        var early = 0
        for round in 0..<300 {
            // Idle, its last read found nothing: the queued() below is still in its inputs
            // when the wait is asked.
            try fill(outbox, destination: destination, count: 1, from: round)
            sender.queued()
            #expect(await sender.waitUntilDelivered() == .delivered)
            if try outbox.summary(for: destination).count != 0 { early += 1 }
        }
        #expect(early == 0, "\(early) of 300 waits ended with the message still in the outbox")
        #expect(await sender.acknowledgedCount == 300)
        sender.stop()
        await running.value
        await client.close()
    }

    @Test("stop ends run without closing the client; a wait asked after that is answered at once")
    func stops() async throws {
        let folder = try TemporaryDirectory()
        let outbox = try Outbox(path: folder.path + "/outbox.sqlite")
        let destination = "mqtt://127.0.0.1:1/fleet/test"
        try fill(outbox, destination: destination, count: 3)
        let client = try MQTTClient(clientID: "geotrack-test-stop", endpoint: MQTTEndpoint(host: "127.0.0.1", port: 1))
        let sender = OutboxSender(outbox: outbox, destination: destination, client: client)
        let running = Task { await sender.run() }
        sender.stop()
        await running.value
        // The broker was never reached: the messages stay, and the caller counts them there.
        #expect(await sender.waitUntilDelivered() == .delivered)
        #expect(try outbox.summary(for: destination).count == 3)
        await client.close()
        // A closed client refuses to publish rather than use a freed handle.
        let error = #expect(throws: MQTTError.self) { try client.publish(topic: "fleet/test", payload: [1]) }
        #expect(error?.code == .notConnected)
    }

    @Test("a broker killed and restarted mid-run: every message arrives, in order, none lost")
    func brokerRestart() async throws {
        let broker = try await Mosquitto()
        let folder = try TemporaryDirectory()
        let outbox = try Outbox(path: folder.path + "/outbox.sqlite")
        let destination = "mqtt://127.0.0.1:\(broker.port)/fleet/test"
        let client = try MQTTClient(clientID: "geotrack-test-restart", endpoint: MQTTEndpoint(host: "127.0.0.1", port: broker.port))
        let sender = OutboxSender(outbox: outbox, destination: destination, client: client)
        let running = Task { await sender.run() }
        try fill(outbox, destination: destination, count: 100)
        sender.queued()
        #expect(await sender.waitUntilDelivered() == .delivered)
        try await broker.stop(signal: SIGKILL)
        // Queued while the broker is down: they wait in the outbox.
        try fill(outbox, destination: destination, count: 400, from: 100)
        sender.queued()
        #expect(try outbox.summary(for: destination).count == 400)
        try await broker.restart()
        let subscriber = try await MosquittoSubscriber(broker: broker, topics: ["fleet/test"])
        #expect(await sender.waitUntilDelivered() == .delivered)
        #expect(try outbox.summary(for: destination).count == 0)
        #expect(await subscriber.waitForMessages(400))
        let received = subscriber.messages().compactMap { Int($0.payload) }
        // QoS 1 may repeat a message whose PUBACK was lost; none may be missing or out of order.
        var unique: [Int] = []
        for value in received where unique.last != value { unique.append(value) }
        #expect(unique == Array(100..<500))
        await client.close()
        await running.value
    }

    /// What a sender told its observer.
    final class Heard: Sendable {
        private let progress = Mutex<[OutboxSender.Progress]>([])
        func record(_ item: OutboxSender.Progress) { progress.withLock { $0.append(item) } }
        var all: [OutboxSender.Progress] { progress.withLock { $0 } }
        var delivered: Int { all.reduce(0) { if case .delivered(let count) = $1 { $0 + count } else { $0 } } }
    }

    @Test("the observer hears the connection, every delivery, and a broker that went away")
    func observer() async throws {
        let broker = try await Mosquitto()
        let folder = try TemporaryDirectory()
        let outbox = try Outbox(path: folder.path + "/outbox.sqlite")
        let destination = "mqtt://127.0.0.1:\(broker.port)/fleet/test"
        let client = try MQTTClient(clientID: "geotrack-test-observer", endpoint: MQTTEndpoint(host: "127.0.0.1", port: broker.port))
        let heard = Heard()
        let sender = OutboxSender(outbox: outbox, destination: destination, client: client, observer: { heard.record($0) })
        let running = Task { await sender.run() }
        try fill(outbox, destination: destination, count: 50)
        sender.queued()
        #expect(await sender.waitUntilDelivered() == .delivered)
        #expect(heard.all.first == .connected)
        #expect(heard.delivered == 50)
        try await broker.stop(signal: SIGKILL)
        // A generous ceiling only guards against a hang.
        let deadline = ContinuousClock.now.advanced(by: .seconds(30))
        while !heard.all.contains(.unreachable), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(heard.all.contains(.unreachable), "\(heard.all)")
        await client.close()
        await running.value
    }
}
