extension Duration {
    /// The duration in seconds, fractions included: the one conversion the modules share.
    package var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
