/// A delegate proxy's forwarding side: the user's own delegate, which the proxy
/// calls before emitting each event on its streams.
@MainActor
public protocol DelegateForwarding<Delegate>: AnyObject {
    /// The delegate protocol (an existential such as `any MyDelegate`).
    associatedtype Delegate

    /// The user's delegate, held weakly.
    var forwardToDelegate: Delegate? { get set }

    /// Finishes every stream: the parent object went away, even if someone still holds the proxy.
    func finishStreams()
}
