import Outbox

extension OutboxError {
    /// The run that holds a claimed destination (``OutboxError/Code/claimed``), as the CLI's
    /// messages name it: "geotrack (process 1234)", or "geotrack" when the system did not say.
    var holderName: String {
        holder.map { "geotrack (process \($0))" } ?? "geotrack"
    }
}
