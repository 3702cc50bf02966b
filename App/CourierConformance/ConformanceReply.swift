import CourierData
import CourierDomain
import Foundation

/// One answer of the backend under test: its status and body, whatever they are.
struct ConformanceReply: Sendable {
    /// What was asked, for failure reasons (`PUT /conversations/c2/messages/…`).
    var request: String
    /// The status.
    var status: Int
    /// The body.
    var data: Data

    /// The error body, when the answer carries one.
    var errorBody: HTTPWire.ErrorBody? { try? HTTPWire.decode(HTTPWire.ErrorBody.self, from: data) }

    /// What the client makes of this answer (`HTTPWire.error(status:body:)`, the contract's table).
    var deliveryError: DeliveryError { HTTPWire.error(status: status, body: errorBody) }

    /// The status, and the error's name when there is one: `409 conflict`.
    var summary: String {
        guard let name = errorBody?.error else { return "\(status)" }
        return "\(status) \(name)"
    }

    /// This reply when its status is `expected`; otherwise a failure naming the request and what it answered.
    @discardableResult
    func expect(_ expected: Int, _ what: String? = nil) throws(ConformanceFailure) -> ConformanceReply {
        guard status == expected else {
            throw ConformanceFailure("\(what ?? request) answered \(summary), not \(expected)")
        }
        return self
    }

    /// This reply when its status is `expected` and its error body names `error` (the contract's names).
    @discardableResult
    func expect(_ expected: Int, error name: String, _ what: String? = nil) throws(ConformanceFailure)
        -> ConformanceReply
    {
        try expect(expected, what)
        guard errorBody?.error == name else {
            let named = errorBody?.error ?? "(no error body)"
            throw ConformanceFailure("\(what ?? request) answered \(expected) with error \(named), not \(name)")
        }
        return self
    }

    /// The body as `Value`; a failure when it does not decode.
    func decode<Value: Decodable>(_ type: Value.Type) throws(ConformanceFailure) -> Value {
        do {
            return try HTTPWire.decode(type, from: data)
        } catch {
            throw ConformanceFailure("\(request) answered \(status) with a body that is not a valid \(type)")
        }
    }
}
