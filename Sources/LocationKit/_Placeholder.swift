// Placeholder until the LocationKit module lands.
enum _LocationKitPlaceholder {}
