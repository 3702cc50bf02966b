import CourierDomain

/// Where an outbox keeps the messages its backend stored, as its observers are about to see them, so that a chat
/// opened offline shows them: CourierData's `MessageCache` is one. A process that only composes (an app extension's
/// one-shot send) keeps none.
public protocol DeliveredMessageKeeper: AnyObject, Sendable {
    /// Keeps `messages`, each as the backend stored it, in one write.
    func keepDelivered(_ messages: [Message])
}
