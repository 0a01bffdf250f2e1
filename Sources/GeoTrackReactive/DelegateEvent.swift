/// Names one delegate callback whose calls a ``DelegateProxy`` emits as a stream of `Element`.
///
/// Declare one static constant per callback, for example
/// `static let didTap = DelegateEvent<Int>("didTap")`.
public struct DelegateEvent<Element: Sendable>: Sendable, Hashable {
    /// The callback's name; unique within one proxy type.
    public let name: String

    /// Names a callback.
    public init(_ name: String) {
        self.name = name
    }
}
