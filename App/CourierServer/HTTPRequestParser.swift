import CourierData

/// A strict, bounded HTTP/1.1 request parser: request line, header fields and a `Content-Length` body.
///
/// It is fed the bytes received so far and answers "not yet", a request (with how many bytes it used, so a
/// pipelined next request stays in the buffer) or an `HTTPParseError` carrying the status to answer with. Sizes are
/// checked before the bytes are complete, so a client cannot make the server hold more than the limits:
/// - no blank line within `maxHeaderBytes` → 431; a body longer than `maxBodyBytes` → 413;
/// - `Transfer-Encoding` (chunked or any other) → 501: bodies are framed by `Content-Length` only;
/// - `PUT` or `POST` without `Content-Length` → 411; a malformed or conflicting `Content-Length` → 400;
/// - a request line that is not `METHOD /target HTTP/1.x`, a control character, a header line without a colon,
///   white space before the colon, a folded line, a missing `Host`, bad percent-encoding in the query → 400;
/// - a version other than HTTP/1.0 or 1.1 → 505.
public struct HTTPRequestParser: Sendable {
    /// The size limits applied.
    public let limits: HTTPLimits

    /// Creates a parser with `limits`.
    public init(limits: HTTPLimits = HTTPLimits()) { self.limits = limits }

    /// Parses the request at the start of `buffer`: nil when more bytes are needed, else the request and the number
    /// of bytes it took.
    public func parse(_ buffer: [UInt8]) throws(HTTPParseError) -> (request: HTTPRequest, consumed: Int)? {
        guard let headerEnd = Self.blankLine(in: buffer, within: limits.maxHeaderBytes) else {
            if buffer.count > limits.maxHeaderBytes {
                throw HTTPParseError(
                    status: 431, reason: "the request line and headers exceed \(limits.maxHeaderBytes) bytes")
            }
            try Self.checkEarly(buffer)
            return nil
        }
        var lines = try Self.lines(of: buffer[..<headerEnd])
        guard !lines.isEmpty else { throw HTTPParseError(status: 400, reason: "empty request") }
        let requestLine = lines.removeFirst()
        var request = try Self.requestLine(requestLine)
        let isHTTP11 = requestLine.hasSuffix(" HTTP/1.1")
        var contentLength: Int?
        var hasHost = false
        for line in lines {
            let (name, value) = try Self.headerField(line)
            switch name {
            case "content-length":
                guard value.count <= 18, !value.isEmpty, value.allSatisfy(\.isASCIIDigit), let length = Int(value)
                else { throw HTTPParseError(status: 400, reason: "Content-Length is not a number") }
                if let contentLength, contentLength != length {
                    throw HTTPParseError(status: 400, reason: "conflicting Content-Length fields")
                }
                contentLength = length
            case "transfer-encoding":
                throw HTTPParseError(status: 501, reason: "Transfer-Encoding is not supported; send Content-Length")
            case "host": hasHost = true
            case "connection":
                let tokens = value.lowercased().split(separator: ",").map { $0.trimmingWhitespace }
                if tokens.contains("close") { request.closesConnection = true }
                if tokens.contains("keep-alive") { request.closesConnection = false }
            default: break
            }
            request.headers.append((name, value))
        }
        if !hasHost && isHTTP11 {
            throw HTTPParseError(status: 400, reason: "an HTTP/1.1 request needs a Host field")
        }
        if contentLength == nil && (request.method == "PUT" || request.method == "POST") {
            throw HTTPParseError(status: 411, reason: "\(request.method) needs Content-Length")
        }
        let length = contentLength ?? 0
        guard length <= limits.maxBodyBytes else {
            throw HTTPParseError(status: 413, reason: "the body exceeds \(limits.maxBodyBytes) bytes")
        }
        let bodyStart = headerEnd + 4
        guard buffer.count - bodyStart >= length else { return nil }
        request.body = Array(buffer[bodyStart..<(bodyStart + length)])
        return (request, bodyStart + length)
    }

    // MARK: - Pieces

    /// The offset of the first CRLFCRLF, looked for only within `limit` bytes.
    private static func blankLine(in buffer: [UInt8], within limit: Int) -> Int? {
        let end = min(buffer.count, limit + 4)
        guard end >= 4 else { return nil }
        var index = 0
        while index + 3 < end {
            if buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10 {
                return index
            }
            index += 1
        }
        return nil
    }

    /// Refuses a request line that is already wrong before its headers have arrived (garbage is answered at once,
    /// not after the client's timeout).
    private static func checkEarly(_ buffer: [UInt8]) throws(HTTPParseError) {
        for byte in buffer.prefix(64) {
            if byte == 13 || byte == 10 || byte == 32 { break }
            guard byte.isTokenByte else { throw HTTPParseError(status: 400, reason: "malformed request line") }
        }
        // A line ended by LF alone never makes the blank line looked for: answer now, not at the request timeout.
        for index in buffer.indices where buffer[index] == 10 && (index == 0 || buffer[index - 1] != 13) {
            throw HTTPParseError(status: 400, reason: "a bare LF in the header")
        }
    }

    private static func lines(of bytes: ArraySlice<UInt8>) throws(HTTPParseError) -> [String] {
        var result: [String] = []
        var start = bytes.startIndex
        var index = bytes.startIndex
        while index <= bytes.endIndex {
            if index == bytes.endIndex || bytes[index] == 13 {
                if index < bytes.endIndex, index + 1 >= bytes.endIndex || bytes[index + 1] != 10 {
                    throw HTTPParseError(status: 400, reason: "a bare CR in the header")
                }
                let line = bytes[start..<index]
                for byte in line where (byte < 32 && byte != 9) || byte == 127 {
                    throw HTTPParseError(status: 400, reason: "a control character in the header")
                }
                guard let text = String(validating: line, as: UTF8.self) else {
                    throw HTTPParseError(status: 400, reason: "the header is not UTF-8")
                }
                result.append(text)
                index += 2
                start = index
            } else {
                if bytes[index] == 10 { throw HTTPParseError(status: 400, reason: "a bare LF in the header") }
                index += 1
            }
        }
        return result
    }

    private static func requestLine(_ line: String) throws(HTTPParseError) -> HTTPRequest {
        let parts = line.split(ascii: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[0].utf8.allSatisfy(\.isTokenByte) else {
            throw HTTPParseError(status: 400, reason: "malformed request line")
        }
        let version = parts[2]
        let closes: Bool
        switch version {
        case "HTTP/1.1": closes = false
        case "HTTP/1.0": closes = true
        default:
            if version.hasPrefix("HTTP/") { throw HTTPParseError(status: 505, reason: "only HTTP/1.1 is served") }
            throw HTTPParseError(status: 400, reason: "malformed request line")
        }
        let target = parts[1]
        guard target.hasPrefix("/") else { throw HTTPParseError(status: 400, reason: "the target must be a path") }
        let pieces = target.split(ascii: "?", maxSplits: 1, omittingEmptySubsequences: false)
        var query: [(String, String)] = []
        if pieces.count == 2 {
            for pair in pieces[1].split(ascii: "&") {
                let nameValue = pair.split(ascii: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard let name = percentDecoded(nameValue[0]),
                    let value = percentDecoded(nameValue.count == 2 ? nameValue[1] : "")
                else { throw HTTPParseError(status: 400, reason: "bad percent-encoding in the query") }
                query.append((name, value))
            }
        }
        return HTTPRequest(method: String(parts[0]), path: String(pieces[0]), query: query, closesConnection: closes)
    }

    private static func headerField(_ line: String) throws(HTTPParseError) -> (String, String) {
        guard let first = line.utf8.first, first != 32, first != 9 else {
            throw HTTPParseError(status: 400, reason: "folded header lines are not accepted")
        }
        guard let colon = line.firstIndex(of: ":") else {
            throw HTTPParseError(status: 400, reason: "a header line without a colon")
        }
        let name = line[..<colon]
        guard !name.isEmpty, name.utf8.allSatisfy(\.isTokenByte) else {
            throw HTTPParseError(status: 400, reason: "a malformed header name")
        }
        return (name.lowercased(), String(line[line.index(after: colon)...]).trimmingWhitespace)
    }

    /// Percent-decodes `text`; nil for a malformed escape or bytes that are not UTF-8 (the route table's decoding,
    /// `HTTPRoute.percentDecoded(_:)`, which a path's segments get too).
    public static func percentDecoded<S: StringProtocol>(_ text: S) -> String? { HTTPRoute.percentDecoded(text) }
}

extension UInt8 {
    /// A `tchar` of RFC 9110: letters, digits and ``!#$%&'*+-.^_`|~``.
    fileprivate var isTokenByte: Bool {
        switch self {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default: false
        }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs.
    fileprivate var trimmingWhitespace: String {
        let scalars = unicodeScalars
        guard let start = scalars.firstIndex(where: { $0 != " " && $0 != "\t" }) else { return "" }
        guard let end = scalars.lastIndex(where: { $0 != " " && $0 != "\t" }) else { return "" }
        return String(String.UnicodeScalarView(scalars[start...end]))
    }
}
