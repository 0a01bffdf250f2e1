/// An object with a ``DelegateSlot``, so that a ``DelegateProxyType`` can install itself
/// without taking the user's delegate away.
@MainActor
public protocol HasDelegateSlot: AnyObject {
    /// The delegate protocol (an existential such as `any MyDelegate`).
    associatedtype Delegate

    /// Where the object keeps its delegate and its installed proxy.
    ///
    /// Exposed for ``DelegateProxyType/proxy(for:)``; application code uses the
    /// object's own `delegate` property.
    var delegateSlot: DelegateSlot<Delegate> { get }
}
