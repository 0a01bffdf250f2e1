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
