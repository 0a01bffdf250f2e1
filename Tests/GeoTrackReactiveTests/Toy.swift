import GeoTrackReactive

/// A minimal host for the generic proxy: an object with a delegate, no location knowledge.
@MainActor
protocol ToyDelegate: AnyObject {
    func toy(_ toy: Toy, didTick value: Int)
    func toyDidReset(_ toy: Toy)
}

extension ToyDelegate {
    func toy(_ toy: Toy, didTick value: Int) {}
    func toyDidReset(_ toy: Toy) {}
}

@MainActor
final class Toy: HasDelegateSlot, ReactiveCompatible {
    let delegateSlot = DelegateSlot<any ToyDelegate>()

    var delegate: (any ToyDelegate)? {
        get { delegateSlot.delegate }
        set { delegateSlot.delegate = newValue }
    }

    func tick(_ value: Int) { delegateSlot.receiver?.toy(self, didTick: value) }
    func reset() { delegateSlot.receiver?.toyDidReset(self) }
}

@MainActor
final class ToyDelegateProxy: DelegateProxy<Toy, any ToyDelegate>, DelegateProxyType, ToyDelegate {
    required init(parentObject: Toy) {
        super.init(parentObject: parentObject, bufferLimit: 4)
    }

    func toy(_ toy: Toy, didTick value: Int) {
        forward(.ticks, value) { $0.toy(toy, didTick: value) }
    }

    func toyDidReset(_ toy: Toy) {
        forward(.resets, ()) { $0.toyDidReset(toy) }
    }
}

extension DelegateEvent where Element == Int {
    static var ticks: Self { .init("ticks") }
}

extension DelegateEvent where Element == Void {
    static var resets: Self { .init("resets") }
}

@MainActor
extension Reactive where Base == Toy {
    var proxy: ToyDelegateProxy { .proxy(for: base) }
    var ticks: EventStream<Int> { proxy.events(.ticks) }
    var resets: EventStream<Void> { proxy.events(.resets) }
}

@MainActor
final class ToyRecorder: ToyDelegate {
    var ticks: [Int] = []
    var resets = 0
    func toy(_ toy: Toy, didTick value: Int) { ticks.append(value) }
    func toyDidReset(_ toy: Toy) { resets += 1 }
}
