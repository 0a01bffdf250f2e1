/// The outputs' own moments: what they do between updates, scheduled by ``TickSchedule``.
extension TrackerOutput {
    /// Seconds until the display or an output has something due without an update, or `nil`
    /// while nothing is: the display's held-back line or countdown, the GPX file's next fsync.
    package var nextTick: Double? {
        var due = display.nextTick
        for output in outputs {
            if let next = output.nextTick { due = min(due ?? next, next) }
        }
        return due
    }

    /// Does what is due: redraws what was held back or counts down, lets the GPX file reach the disk.
    package func tick() {
        display.tick()
        for output in outputs { output.tick() }
    }

    /// After SIGCONT: the display takes the terminal again, and the timer picks up what the
    /// display held back while stopped (it has nothing due while suspended).
    package func resume() {
        display.resume()
        ticks.updated(due: { nextTick })
    }

    /// Runs the outputs' timer on `clock` until the task is cancelled; it sleeps while nothing is due.
    package func runTimer<C: Clock>(clock: C) async where C.Duration == Duration {
        await ticks.run(clock: clock, due: { nextTick }, tick: { tick() })
    }
}
