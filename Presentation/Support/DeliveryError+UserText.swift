import CourierDomain

extension DeliveryError {
    /// The text a user sees for this error, in the English table (`CourierStrings.deliveryError` words it in any).
    public var userMessage: String { CourierStrings.english.deliveryError(self) }

    /// The text a user sees for any error a send or a load ended with, in `strings`: the one of the `DeliveryError`
    /// it stands for (`DeliveryError(_:)`; anything else is the generic send failure).
    static func userMessage(for error: any Error, in strings: CourierStrings = .english) -> String {
        strings.deliveryError(DeliveryError(error))
    }
}
