#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

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

    /// What a screen draws for it: the thumbnail when there is one, the full-size image only when there is not — a
    /// list or a chat never downloads the full image just to show a preview.
    public var previewURL: String { thumbnailURL ?? url }
}
