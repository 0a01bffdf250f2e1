/// A fixed response the server holds in memory: a page, a script, a stylesheet, an image.
public struct WebAsset: Sendable {
    /// The `Content-Type` it is served with.
    public let contentType: String
    /// The bytes.
    public let body: [UInt8]

    /// An asset of `body`, served as `contentType`.
    public init(contentType: String, body: [UInt8]) {
        self.contentType = contentType
        self.body = body
    }

    /// A UTF-8 text asset.
    public init(contentType: String, text: String) {
        self.init(contentType: contentType, body: Array(text.utf8))
    }
}
