import CourierDomain
import Foundation

// MARK: - Parsing a request back into its route (what a server's router does)

extension HTTPRoute {
    /// Why a method, path and query are no route of the contract.
    public enum Refusal: Error, Hashable, Sendable {
        /// The path's percent-encoding is broken (400).
        case badPath
        /// No route has this path (404).
        case notFound
        /// A route has this path, with another method (405).
        case methodNotAllowed
        /// The route's query breaks the contract (422), for the reason given.
        case badQuery(String)
    }

    /// The route of `method` on `path` (percent-encoded, as it came) with `query` (decoded); see
    /// `parse(method:segments:query:)`.
    public static func parse(method: String, path: String, query: [(String, String)]) -> Result<HTTPRoute, Refusal> {
        guard let segments = segments(ofPath: path) else { return .failure(.badPath) }
        return parse(method: method, segments: segments, query: query)
    }

    /// The route of `method` on the path of `segments` (decoded) with `query` (decoded; the first value of a name
    /// counts, names the route does not read are ignored). A page size is a whole number from 1 to `maxPageSize`, a
    /// hold a number of seconds from 0 to `HTTPWire.maxEventWait`, and `GET /users` and `GET /presence` need `ids`;
    /// cursors are taken as they came.
    public static func parse(method: String, segments: [String], query: [(String, String)]) -> Result<
        HTTPRoute, Refusal
    > {
        let matching = table.filter { $0.matches(segments) }
        guard !matching.isEmpty else { return .failure(.notFound) }
        guard let entry = matching.first(where: { $0.method == method }) else { return .failure(.methodNotAllowed) }
        do {
            return .success(try entry.make(segments, Query(query)))
        } catch {
            return .failure(error)
        }
    }

    /// The decoded segments of a percent-encoded path, empty ones left out; nil when a segment's percent-encoding is
    /// broken or decodes to nothing or to no UTF-8.
    public static func segments(ofPath path: String) -> [String]? {
        var result: [String] = []
        for piece in path.split(ascii: "/") {
            guard let decoded = percentDecoded(piece), !decoded.isEmpty else { return nil }
            result.append(decoded)
        }
        return result
    }

    /// `text` with its `%XX` escapes decoded; nil for a broken escape or bytes that are not UTF-8.
    public static func percentDecoded<S: StringProtocol>(_ text: S) -> String? {
        let plain = text.utf8.withContiguousStorageIfAvailable { !$0.contains(UInt8(ascii: "%")) }
        if plain ?? !text.utf8.contains(UInt8(ascii: "%")) { return String(text) }
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8)[...]
        while let byte = iterator.popFirst() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.popFirst()?.hexDigitValue, let low = iterator.popFirst()?.hexDigitValue
            else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    // MARK: - The table

    /// Every route of the contract: its method, its path's pattern (`nil` stands for an id) and how its parameters
    /// are read. `segments` and `method` write the same table out; the round-trip test holds them together.
    private static let table: [Entry] = [
        Entry("POST", ["sessions"]) { _, _ in .signIn },
        Entry("DELETE", ["sessions", "current"]) { _, _ in .signOut },
        Entry("POST", ["sessions", "current", "expire"]) { _, _ in .expireSession },
        Entry("PUT", ["conversations", nil, "messages", nil]) { path, _ in
            .putMessage(ConversationID(path[1]), MessageID(path[3]))
        },
        Entry("DELETE", ["conversations", nil, "messages", nil]) { path, _ in
            .deleteMessage(ConversationID(path[1]), MessageID(path[3]))
        },
        Entry("POST", ["conversations", nil, "messages:batch"]) { path, _ in .sendBatch(ConversationID(path[1])) },
        Entry("GET", ["conversations", nil, "messages"]) { path, query throws(Refusal) in
            .messages(ConversationID(path[1]), before: query["before"], limit: try query.pageSize("limit"))
        },
        Entry("GET", ["conversations", nil]) { path, _ in .conversation(ConversationID(path[1])) },
        Entry("POST", ["conversations", nil, "hide"]) { path, _ in .hideConversation(ConversationID(path[1])) },
        Entry("POST", ["conversations", nil, "receipts"]) { path, _ in .receipts(ConversationID(path[1])) },
        Entry("GET", ["conversations", nil, "reads"]) { path, _ in .reads(ConversationID(path[1])) },
        Entry("GET", ["users", nil, "conversations"]) { path, query throws(Refusal) in
            .conversations(of: UserID(path[1]), after: query["after"], limit: try query.pageSize("limit"))
        },
        Entry("PUT", ["users", nil, "display-name"]) { path, _ in .displayName(UserID(path[1])) },
        Entry("PUT", ["users", nil, "presence"]) { path, _ in .setPresence(UserID(path[1])) },
        Entry("GET", ["users"]) { _, query throws(Refusal) in .users(try query.ids()) },
        Entry("GET", ["presence"]) { _, query throws(Refusal) in .presence(try query.ids()) },
        Entry("GET", ["events"]) { _, query throws(Refusal) in
            let limit = try query.pageSize("limit")
            return .events(after: query["after"], limit: limit, timeout: try query.hold())
        },
        Entry("GET", ["events", "end"]) { _, _ in .feedEnd },
        Entry("POST", ["events", "trim"]) { _, _ in .trimEvents },
        Entry("GET", ["snapshot"]) { _, query throws(Refusal) in
            let conversations = try query.pageSize("conversations")
            let chats = (query["chats"] ?? "").split(ascii: ",").map { ConversationID(String($0)) }
            return .snapshot(conversations: conversations, chats: chats, messages: try query.pageSize("messages"))
        },
    ]

    /// One row of the table.
    private struct Entry: Sendable {
        let method: String
        /// The path, an id standing where the pattern holds nil.
        let pattern: [String?]
        let make: @Sendable ([String], Query) throws(Refusal) -> HTTPRoute

        init(
            _ method: String, _ pattern: [String?],
            _ make: @escaping @Sendable ([String], Query) throws(Refusal) -> HTTPRoute
        ) {
            self.method = method
            self.pattern = pattern
            self.make = make
        }

        func matches(_ segments: [String]) -> Bool {
            segments.count == pattern.count && zip(pattern, segments).allSatisfy { $0 == nil || $0 == $1 }
        }
    }

    /// A request's query, read by name: the first value of a name counts.
    private struct Query {
        let items: [(String, String)]

        init(_ items: [(String, String)]) { self.items = items }

        subscript(name: String) -> String? { items.first { $0.0 == name }?.1 }

        /// A page size: absent (nil), or a whole number from 1 to `maxPageSize`.
        func pageSize(_ name: String) throws(Refusal) -> Int? {
            guard let text = self[name] else { return nil }
            guard let size = Int(text), (1...maxPageSize).contains(size) else {
                throw .badQuery("\(name) must be a whole number from 1 to \(maxPageSize)")
            }
            return size
        }

        /// A long poll's hold, `timeout`: absent (nil), or seconds from 0 to `HTTPWire.maxEventWait`, to the
        /// millisecond.
        func hold() throws(Refusal) -> Duration? {
            guard let text = self["timeout"] else { return nil }
            let most = HTTPWire.maxEventWait.timeInterval
            guard let seconds = Double(text), seconds.isFinite, (0...most).contains(seconds) else {
                throw .badQuery("timeout must be a number of seconds from 0 to \(Int(most))")
            }
            return .milliseconds(Int64((seconds * 1_000).rounded()))
        }

        /// The required `ids`, split at commas (repeats and limits are the server's to judge).
        func ids() throws(Refusal) -> [UserID] {
            guard let text = self["ids"] else { throw .badQuery("ids is required") }
            return text.split(ascii: ",").map { UserID(String($0)) }
        }
    }
}

extension Substring {
    /// The pieces between occurrences of the ASCII character `separator`, split on the UTF-8 bytes: what a URL's
    /// `/`, `?`, `&`, `=` and `,` mean on the wire, without the grapheme-cluster work of splitting `Character`s (a
    /// thousand-id query is read in a few microseconds). `maxSplits` and `omittingEmptySubsequences` as in
    /// `split(separator:)`.
    package func split(
        ascii separator: Unicode.Scalar, maxSplits: Int = .max, omittingEmptySubsequences: Bool = true
    ) -> [Substring] {
        let byte = UInt8(ascii: separator)
        // The offsets of the separators, found in the contiguous UTF-8 bytes (a native string's); each piece is then
        // cut out by offset, which a native string's UTF-8 view finds without walking.
        let cuts =
            utf8.withContiguousStorageIfAvailable { buffer in buffer.indices.filter { buffer[$0] == byte } }
            ?? utf8.enumerated().filter { $0.element == byte }.map(\.offset)
        var pieces: [Substring] = []
        let bytes = utf8
        var start = bytes.startIndex
        var startOffset = 0
        for cut in cuts where pieces.count < maxSplits {
            let end = bytes.index(start, offsetBy: cut - startOffset)
            if !omittingEmptySubsequences || start != end { pieces.append(self[start..<end]) }
            start = bytes.index(after: end)
            startOffset = cut + 1
        }
        if !omittingEmptySubsequences || start != bytes.endIndex { pieces.append(self[start..<bytes.endIndex]) }
        return pieces
    }
}

extension String {
    /// `Substring.split(ascii:maxSplits:omittingEmptySubsequences:)` of the whole string.
    package func split(
        ascii separator: Unicode.Scalar, maxSplits: Int = .max, omittingEmptySubsequences: Bool = true
    ) -> [Substring] {
        self[...].split(ascii: separator, maxSplits: maxSplits, omittingEmptySubsequences: omittingEmptySubsequences)
    }
}

extension UInt8 {
    /// The value of an ASCII hex digit (either case); nil for any other byte.
    package var hexDigitValue: UInt8? {
        switch self {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): self - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): self - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): self - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
