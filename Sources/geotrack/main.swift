import Executors
import GeoTrackCLI
#if canImport(Glibc)
import Glibc
#endif

// The command lives in GeoTrackCLI so tests can reach it; this target only starts it.
//
// Not an `@main` async entry point: that creates its task on Swift's default executors
// before any of our code runs, and Dispatch's worker pool then wakes the process every second
// for as long as it lives. Ours go in first, and the main thread runs the main actor's loop.
GeoTrackExecutors.install()
Task { @MainActor in
    await GeoTrack.main()
    exit(0)
}
GeoTrackExecutors.runMainLoop()
