import Dispatch

/// Posts work to the main thread, in order, whichever executors the process runs: the main
/// loop of ``GeoTrackExecutors`` once installed, otherwise Dispatch's main queue (the main
/// actor's executor by default).
///
/// For a producer on a thread of its own (a reader, a signal) whose consumer lives on the main
/// actor: unlike one `Task { @MainActor in … }` per item, it keeps the items' order and
/// creates no task.
public enum MainQueue {
    /// Runs `body` on the main thread after what is already posted; `MainActor.assumeIsolated`
    /// holds inside it.
    public static func async(_ body: @escaping @Sendable () -> Void) {
        #if compiler(>=6.3) && compiler(<6.4) && !GEOTRACK_DEFAULT_EXECUTORS
        if let loop = GeoTrackExecutors.mainLoop {
            loop.post(body)
            return
        }
        #endif
        DispatchQueue.main.async(execute: body)
    }
}
