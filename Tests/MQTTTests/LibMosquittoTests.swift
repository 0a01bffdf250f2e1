@testable import MQTT
import Testing

/// libmosquitto is opened on first use, not linked: the process runs without it until then.
@Suite("loading libmosquitto")
struct LibMosquittoTests {
    @Test("the installed library loads, and its own text for a return code comes through the table")
    func loads() throws {
        let library = try LibMosquitto.shared.get()
        // 4 is MOSQ_ERR_NO_CONN in every libmosquitto since 1.0.
        #expect(library.describe(4) == "The client is not currently connected.")
    }

    @Test("a library that is not there is one line that says what to install, not a crash at start")
    func missing() {
        let result = LibMosquitto.load(soname: "libgeotrack-no-such-mosquitto.so.1")
        guard case .failure(let error) = result else {
            Issue.record("a missing library loaded")
            return
        }
        #expect(error.code == .libraryMissing)
        #expect(error.message.hasPrefix("cannot load libgeotrack-no-such-mosquitto.so.1 ("))
        #expect(error.message.contains("apt install libmosquitto1"))
        #expect(!error.message.contains("\n"))
    }
}
