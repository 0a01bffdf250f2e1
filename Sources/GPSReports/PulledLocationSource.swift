/// A ``LocationSource`` that produces each event when it is asked for one, and can therefore
/// wait: a replayed log, which reads its file as it is pulled.
///
/// A location manager reads such a source itself, one event at a time, and before asking for
/// the next one waits until every consumer that buffers (a `liveUpdates` loop, a stream under
/// `rx`) has room: a played-back log never outruns the slowest of them, and none of them loses
/// a location. A source that cannot wait (gpsd, reporting a receiver as it measures) does not
/// conform; its consumers' buffers are bounded, and what they drop is counted.
public protocol PulledLocationSource: LocationSource {}
