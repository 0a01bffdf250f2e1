/// A delegate proxy's forwarding side: the user's own delegate, which the proxy
/// calls before emitting each event on its streams.
@MainActor
public protocol DelegateForwarding<Delegate>: AnyObject {
    /// The delegate protocol (an existential such as `any MyDelegate`).
    associatedtype Delegate

    /// The user's delegate, held weakly.
    var forwardToDelegate: Delegate? { get set }
}

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

/// A delegate proxy that installs itself on its parent object at most once.
@MainActor
public protocol DelegateProxyType: DelegateForwarding {
    /// The object whose callbacks the proxy observes.
    associatedtype ParentObject: HasDelegateSlot where ParentObject.Delegate == Delegate

    /// Creates a proxy for `parentObject`; called once per parent by ``proxy(for:)``.
    init(parentObject: ParentObject)
}

extension DelegateProxyType {
    /// The proxy installed on `object`, installing one first when there is none.
    ///
    /// Installing keeps the object's current delegate as the proxy's forward delegate.
    public static func proxy(for object: ParentObject) -> Self {
        if let existing = object.delegateSlot.proxy as? Self { return existing }
        let proxy = Self(parentObject: object)
        object.delegateSlot.install(proxy)
        return proxy
    }
}
