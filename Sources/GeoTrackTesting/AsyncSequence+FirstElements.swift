extension AsyncSequence where Failure == Never {
    /// The first `count` elements (fewer when the sequence ends first).
    public func firstElements(_ count: Int) async -> [Element] {
        var result: [Element] = []
        guard count > 0 else { return result }
        for await element in self {
            result.append(element)
            if result.count == count { break }
        }
        return result
    }
}

extension AsyncSequence where Failure == Never {
    /// The first element satisfying `predicate`, or `nil` when the sequence ends first.
    public func firstMatching(_ predicate: @Sendable (Element) -> Bool) async -> Element? {
        for await element in self where predicate(element) {
            return element
        }
        return nil
    }
}
