import ArgumentParser

/// An option group that makes an output when its options ask for one. ``OutputOptions`` finds
/// every group of its own that conforms, so adding an output takes its file and one line there.
package protocol OutputMaking {
    /// Whether the options ask for the output (the fast `replay --json` path is not taken then).
    func isRequested(_ context: OutputContext) -> Bool
    /// The output, or nil when the options do not ask for it.
    func makeOutput(_ context: OutputContext) throws(CLIError) -> (any RunOutput)?
}

/// An `@OptionGroup` seen through reflection (``OutputOptions/outputGroups``): its group, when
/// that group makes an output.
package protocol OutputGroupWrapper {
    /// The group as an output maker, or nil.
    var outputMaker: (any OutputMaking)? { get }
}

extension OptionGroup: OutputGroupWrapper {
    package var outputMaker: (any OutputMaking)? { wrappedValue as? any OutputMaking }
}
