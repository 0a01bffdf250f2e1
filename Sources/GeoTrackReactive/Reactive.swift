/// A namespace for the reactive extensions of `Base`, reached through `object.rx`.
///
/// Modules add streams to it with constrained extensions, the way RxSwift does:
/// `extension Reactive where Base: MyObject { var didSomething: EventStream<Int> { ... } }`.
public struct Reactive<Base> {
    /// The object the extensions observe.
    public let base: Base

    /// Wraps `base`.
    public init(_ base: Base) {
        self.base = base
    }
}

// Sendable when what it wraps is: `manager.rx` of a main-actor manager can then be read from
// another actor (`await manager.rx.location`), as the manager itself can.
extension Reactive: Sendable where Base: Sendable {}

/// A type that offers reactive extensions under `rx`.
public protocol ReactiveCompatible {
    /// The type the extensions observe (`Self`).
    associatedtype ReactiveBase

    /// The reactive extensions of this object.
    var rx: Reactive<ReactiveBase> { get }
}

extension ReactiveCompatible {
    /// The reactive extensions of this object.
    public var rx: Reactive<Self> { Reactive(self) }
}
