import CourierDomain

extension DeliveryError {
    /// The text a user sees for this error.
    public var userMessage: String {
        switch self {
        case .offline: "No internet connection. Message will be saved and you can retry later."
        case .unreachable: "Can't reach the server. Message will be saved and sent when it's back."
        case .timeout: "The connection timed out. Please try again."
        case .unauthorized: "Authentication error. Please sign in again."
        case .forbidden: "You can't send messages in this conversation."
        case .rateLimited: "Too many attempts. Please wait a moment."
        case .validation: "Message format error. Please try again."
        case .notFound: "Conversation not found. Please refresh and try again."
        case .conflict: "A different message was already sent with this ID. Delete it and send it again."
        case .server, .unknown: "Failed to send message. Please try again."
        }
    }

    /// The text a user sees for any error a send or a load ended with: a `DeliveryError`'s own, otherwise the
    /// generic send failure.
    static func userMessage(for error: any Error) -> String {
        (error as? DeliveryError ?? .unknown("\(error)")).userMessage
    }
}
