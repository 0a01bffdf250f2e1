import ArgumentParser

/// `--config FILE`: every command that reads the configuration takes it.
package struct ConfigFileOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Read this configuration file instead of $GEOTRACK_CONFIG, or else "
                               + "$XDG_CONFIG_HOME/geotrack/config.yaml (~/.config/geotrack/config.yaml).",
                               valueName: "file"),
            completion: .file(extensions: ["yaml", "yml"]))
    package var config: String?

    package init() {}
}
