/// Holds an object's delegate (weakly) and, once installed, its delegate proxy (strongly).
///
/// This is what makes setting `object.delegate` after a proxy is installed safe:
/// the new delegate becomes the proxy's forward delegate and the proxy stays in
/// place, so neither the user's delegate nor the streams are silently cut off.
/// The object calls ``receiver``, which is the proxy when there is one.
@MainActor
public final class DelegateSlot<Delegate> {
    @usableFromInline weak var ownDelegate: AnyObject?

    /// The installed proxy, if any. The slot keeps it alive; the proxy holds its parent weakly.
    public private(set) var proxy: (any DelegateForwarding<Delegate>)?
    @usableFromInline var proxyReceiver: Delegate?

    /// Creates an empty slot.
    public init() {}

    /// The user's delegate, held weakly. With a proxy installed, reading and writing it
    /// reads and writes the proxy's forward delegate.
    ///
    /// `Delegate` must be a class-bound protocol: a value stored here is held weakly.
    public var delegate: Delegate? {
        get {
            if let proxy { return proxy.forwardToDelegate }
            return ownDelegate as? Delegate
        }
        set {
            if let proxy {
                // Pointing the delegate at the proxy itself would make it call itself forever.
                if let newValue, (newValue as AnyObject) === proxy { return }
                proxy.forwardToDelegate = newValue
            } else {
                ownDelegate = newValue.map { $0 as AnyObject }
            }
        }
    }

    /// Installs `proxy` unless one is installed; the current delegate becomes its forward delegate.
    public func install(_ proxy: any DelegateForwarding<Delegate>) {
        guard self.proxy == nil else { return }
        proxy.forwardToDelegate = ownDelegate as? Delegate
        ownDelegate = nil
        self.proxy = proxy
        // Cast once: the receiver is asked for on every callback, and a cast to a protocol
        // existential is a run-time conformance lookup.
        proxyReceiver = proxy as? Delegate
    }

    /// The slot goes with its object: the proxy's streams end then, even when the app still
    /// holds the proxy (to observe it), since nothing can emit on them any more.
    isolated deinit {
        proxy?.finishStreams()
    }

    /// Whom the object calls: the proxy when installed (it forwards), else the user's delegate.
    @inlinable
    public var receiver: Delegate? {
        if proxy != nil { return proxyReceiver }
        return ownDelegate as? Delegate
    }
}
