/// What a ``Driver`` does when its upstream fails. A driver never passes an error on.
public enum DriverErrorPolicy<Element: Sendable>: Sendable {
    /// Deliver this value, then finish.
    case justReturn(Element)
    /// Drop the error and finish.
    case complete
}
