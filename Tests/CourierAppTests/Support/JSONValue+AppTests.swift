@testable import CourierApp

extension JSONValue {
    /// The string, when this is one.
    var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The elements, when this is an array (else empty).
    var arrayValue: [JSONValue] {
        if case .array(let values) = self { return values }
        return []
    }
}
