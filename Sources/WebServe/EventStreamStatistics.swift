/// What the server has done since it started, for the run's last line and `/stats`.
public struct EventStreamStatistics: Sendable, Equatable {
    /// Event-stream clients connected now.
    public var clients = 0
    /// Event-stream clients connected since the start.
    public var connections = 0
    /// Events not sent to a client whose buffer was full (counted once per client).
    public var droppedEvents = 0
    /// Clients disconnected because they stopped reading: a stream's events, or an answer
    /// (``EventStreamServer/Limits/answerBytesPerSecond``).
    public var droppedClients = 0
    /// Connections refused because ``EventStreamServer/Limits/maximumClients`` were connected.
    public var refusedClients = 0

    /// Nothing yet.
    public init() {}

    /// As JSON, for `/stats`.
    public var json: String {
        "{\"clients\":\(clients),\"connections\":\(connections),\"dropped_events\":\(droppedEvents),"
            + "\"dropped_clients\":\(droppedClients),\"refused_clients\":\(refusedClients)}"
    }
}
