// Fuzz target `wire-bodies`: every JSON body of the REST contract (HTTPWire), as the server reads a client's and the
// client reads the server's, and the cursors and Retry-After values that travel in queries and headers.
import CourierData
import CourierDomain
import Foundation

/// The first byte picks what the rest is read as.
private let readers: [@Sendable (Data) -> Void] = [
    { roundTrip(Message.self, $0) },
    { roundTrip(HTTPWire.BatchRequest.self, $0) },
    { roundTrip(HTTPWire.ReceiptBody.self, $0) },
    { roundTrip(HTTPWire.DisplayNameBody.self, $0) },
    { roundTrip(HTTPWire.SignInBody.self, $0) },
    { roundTrip(HTTPWire.ErrorBody.self, $0) { _ = HTTPWire.error(status: 400, body: $0) } },
    { roundTrip(HTTPWire.BatchResponse.self, $0) },
    { roundTrip(HTTPWire.MessagePageBody.self, $0) },
    { roundTrip(HTTPWire.ConversationPageBody.self, $0) },
    { roundTrip(HTTPWire.ConversationBody.self, $0) },
    { roundTrip(HTTPWire.EventsBody.self, $0) { _ = $0.batch } },
    { roundTrip(HTTPWire.EventBody.self, $0) { _ = $0.event } },
    { roundTrip(HTTPWire.FeedEndBody.self, $0) },
    { roundTrip(HTTPWire.SnapshotBody.self, $0) { _ = $0.snapshot } },
    { roundTrip(HTTPWire.ReadsBody.self, $0) },
    { roundTrip(HTTPWire.SessionBody.self, $0) },
    { cursors(String(decoding: $0, as: UTF8.self)) },
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWireBodies(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let selector = Int(input.byte())
    readers[selector % readers.count](Data(input.rest))
    return 0
}

/// What the encoder of the wire writes, keys sorted so that two dictionaries with the same members compare equal.
private func canonical<T: Encodable>(_ value: T) -> Data? {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    return try? encoder.encode(value)
}

/// Decodes `data` as `T` when it is one, then holds it to the contract: what was read can be written, and what is
/// written reads back as the same value.
private func roundTrip<T: Codable>(_ type: T.Type, _ data: Data, inspect: (T) -> Void = { _ in }) {
    guard let value = try? HTTPWire.decode(T.self, from: data) else { return }
    inspect(value)
    let encoded: Data
    do {
        encoded = try HTTPWire.encode(value)
    } catch {
        return require(false, "a \(T.self) that was read cannot be written: \(error)")
    }
    let again: T
    do {
        again = try HTTPWire.decode(T.self, from: encoded)
    } catch {
        let text = String(decoding: encoded, as: UTF8.self)
        return require(false, "a written \(T.self) cannot be read: \(error) in \(text)")
    }
    require(canonical(value) == canonical(again), "a \(T.self) reads back differently")
}

/// A query value as a message cursor and as a conversation cursor, a header value as a Retry-After: each cursor that
/// is read prints as text that reads back as the same cursor.
private func cursors(_ text: String) {
    if let cursor = HTTPWire.messageCursor(text) {
        require(HTTPWire.messageCursor(HTTPWire.text(of: cursor)) == cursor, "message cursor \(text)")
    }
    if let cursor = HTTPWire.conversationCursor(text) {
        require(HTTPWire.conversationCursor(HTTPWire.text(of: cursor)) == cursor, "conversation cursor \(text)")
    }
    if let wait = HTTPWire.retryAfter(text) {
        require(wait >= .zero && wait <= .seconds(86_400), "Retry-After \(text) is \(wait)")
    }
}
