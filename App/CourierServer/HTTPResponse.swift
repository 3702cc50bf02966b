import CourierData

/// One HTTP/1.1 response: status, a JSON (or empty) body and whether the connection closes after it.
public struct HTTPResponse: Equatable, Sendable {
    /// The status code.
    public var status: Int
    /// The body bytes (JSON unless empty). A response made `encoding:` a value encodes it when this is read.
    public var body: [UInt8] {
        get { encode?() ?? bytes }
        set { (bytes, encode) = (newValue, nil) }
    }
    private var bytes: [UInt8]
    private var encode: (@Sendable () -> [UInt8])?
    /// Whether the server closes the connection after sending it.
    public var closesConnection: Bool
    /// Headers beyond the framing ones (`Retry-After`, …), in order.
    public var headers: [(name: String, value: String)]

    /// Creates a response.
    public init(
        status: Int, body: [UInt8] = [], closesConnection: Bool = false, headers: [(name: String, value: String)] = []
    ) {
        self.status = status
        self.bytes = body
        self.closesConnection = closesConnection
        self.headers = headers
    }

    /// A response whose JSON body is `value`, encoded when the body is read: by the connection's thread as it sends
    /// it, not by the main actor that made it (a batch's answer holds every message it stored). A value JSON cannot
    /// encode, which the contract's bodies never are, is sent as a `server` error body.
    public init(status: Int, encoding value: some Encodable & Sendable) {
        self.init(status: status)
        encode = {
            (try? HTTPWire.encode(value)).map(Array.init)
                ?? Array(#"{"error":"server","reason":"the answer could not be encoded"}"#.utf8)
        }
    }

    /// The value of the header `name` (compared without case), if present.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    public static func == (lhs: HTTPResponse, rhs: HTTPResponse) -> Bool {
        lhs.status == rhs.status && lhs.body == rhs.body && lhs.closesConnection == rhs.closesConnection
            && lhs.headers.map(\.name) == rhs.headers.map(\.name)
            && lhs.headers.map(\.value) == rhs.headers.map(\.value)
    }

    /// The bytes on the wire.
    public var serialized: [UInt8] {
        let body = self.body
        var head = "HTTP/1.1 \(status) \(Self.reasonPhrase(status))\r\n"
        head += "Content-Length: \(body.count)\r\n"
        if !body.isEmpty { head += "Content-Type: application/json\r\n" }
        for header in headers { head += "\(header.name): \(header.value)\r\n" }
        head += closesConnection ? "Connection: close\r\n\r\n" : "\r\n"
        return Array(head.utf8) + body
    }

    /// The standard reason phrase of `status`.
    public static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 201: "Created"
        case 204: "No Content"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 410: "Gone"
        case 411: "Length Required"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 422: "Unprocessable Content"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 503: "Service Unavailable"
        case 505: "HTTP Version Not Supported"
        default: "Status"
        }
    }
}
