import ArgumentParser

/// `--config FILE`: every command that reads the configuration takes it.
package struct ConfigFileOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Read this configuration file instead of ~/.config/geotrack/config.yaml.",
                               valueName: "file"))
    package var config: String?

    package init() {}
}
