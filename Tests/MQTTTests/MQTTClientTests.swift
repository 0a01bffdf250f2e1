import Foundation
import GeoTrackTesting
import MQTT
import Testing

/// The libmosquitto wrapper against a real broker: connection, PUBACKs, delivery in order,
/// reconnection after the broker restarts, refusal of a wrong password, and a prompt close.
@Suite(.enabled(if: Mosquitto.shouldRun), .serialized)
struct MQTTClientTests {
    @Test("QoS 1 messages are acknowledged one by one and arrive in order")
    func publishAndAcknowledge() async throws {
        let broker = try await Mosquitto()
        let subscriber = try await MosquittoSubscriber(broker: broker, topics: ["test/order"])
        let client = try MQTTClient(clientID: "geotrack-test-pub", endpoint: MQTTEndpoint(host: "127.0.0.1", port: broker.port))
        var events = client.events.makeAsyncIterator()
        client.start()
        #expect(await events.next() == .connected)
        var ids: [Int32] = []
        for index in 0..<50 {
            ids.append(try client.publish(topic: "test/order", payload: Array("m\(index)".utf8)))
        }
        var acknowledged: Set<Int32> = []
        while acknowledged.count < ids.count, let event = await events.next() {
            if case .acknowledged(let id) = event { acknowledged.insert(id) }
        }
        #expect(acknowledged == Set(ids))
        #expect(await subscriber.waitForMessages(50))
        #expect(subscriber.messages().map(\.payload) == (0..<50).map { "m\($0)" })
        await client.close()
    }

    @Test("after the broker restarts, the client reconnects by itself and publishes again")
    func reconnects() async throws {
        let broker = try await Mosquitto()
        let client = try MQTTClient(clientID: "geotrack-test-re", endpoint: MQTTEndpoint(host: "127.0.0.1", port: broker.port))
        var events = client.events.makeAsyncIterator()
        client.start()
        #expect(await events.next() == .connected)
        try await broker.stop(signal: SIGKILL)
        var sawDisconnect = false
        while let event = await events.next() {
            if case .disconnected = event { sawDisconnect = true; break }
        }
        #expect(sawDisconnect)
        try await broker.restart()
        var reconnected = false
        while let event = await events.next() {
            if event == .connected { reconnected = true; break }
        }
        #expect(reconnected)
        let subscriber = try await MosquittoSubscriber(broker: broker, topics: ["test/again"])
        let id = try client.publish(topic: "test/again", payload: Array("back".utf8))
        while let event = await events.next() {
            if event == .acknowledged(messageID: id) { break }
        }
        #expect(await subscriber.waitForMessages(1))
        #expect(subscriber.messages().first?.payload == "back")
        await client.close()
    }

    @Test("a wrong password is refused with the broker's code, and the password is never in the description")
    func refusedPassword() async throws {
        let broker = try await Mosquitto(users: ["fleet": "right-secret"])
        let endpoint = MQTTEndpoint(host: "127.0.0.1", port: broker.port, username: "fleet", password: "wrong-secret")
        #expect(!endpoint.description.contains("secret"))
        #expect(endpoint.description == "mqtt://fleet@127.0.0.1:\(broker.port)")
        let client = try MQTTClient(clientID: "geotrack-test-pw", endpoint: endpoint)
        var events = client.events.makeAsyncIterator()
        client.start()
        let first = await events.next()
        // mosquitto 2.0 answers a bad password with CONNACK 5 (not authorized).
        #expect(first == .refused(code: 5))
        await client.close()
    }

    @Test("close returns promptly while the client waits to reconnect to a broker that is down")
    func closeWhileRetrying() async throws {
        let port = try GPSFake.freePort()
        let client = try MQTTClient(clientID: "geotrack-test-close", endpoint: MQTTEndpoint(host: "127.0.0.1", port: port))
        client.start()
        let clock = ContinuousClock()
        // Let the first connection fail and the reconnection delay begin.
        let wait = Task { for await _ in client.events {} }
        try await Task.sleep(for: .milliseconds(300))
        let elapsed = await clock.measure { await client.close() }
        await wait.value
        #expect(elapsed < .seconds(1))
    }

    @Test("messages to subscribed topics arrive as events, with their topic")
    func subscribes() async throws {
        let broker = try await Mosquitto()
        let client = try MQTTClient(clientID: "geotrack-test-sub", endpoint: MQTTEndpoint(host: "127.0.0.1", port: broker.port))
        var events = client.events.makeAsyncIterator()
        client.start()
        #expect(await events.next() == .connected)
        let id = try client.subscribe("owntracks/+/+")
        #expect(await events.next() == .subscribed(messageID: id))
        try broker.publish(topic: "owntracks/ann/phone", message: "{\"_type\":\"location\"}")
        #expect(await events.next() == .message(topic: "owntracks/ann/phone", payload: Array("{\"_type\":\"location\"}".utf8), retained: false))
        await client.close()
    }
}
