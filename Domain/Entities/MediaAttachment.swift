import Foundation

/// An image attached to a message.
public struct MediaAttachment: Hashable, Codable, Sendable {
    /// Full-size image.
    public var url: String
    /// Small preview, when the backend made one.
    public var thumbnailURL: String?
    /// Creates an attachment.
    public init(url: String, thumbnailURL: String? = nil) {
        self.url = url
        self.thumbnailURL = thumbnailURL
    }
}
