// Placeholder until the Reactive module lands.
enum _ReactivePlaceholder {}
