import Testing

@testable import CourierServer

/// The hand-written HTTP/1.1 parser on good, partial and hostile input: every bad input is a typed refusal with the
/// status the server answers, never a crash and never an unbounded wait for bytes it will refuse anyway.
@Suite struct HTTPRequestParserTests {
    private let parser = HTTPRequestParser(limits: HTTPLimits(maxHeaderBytes: 256, maxBodyBytes: 64))

    private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    private func status(_ text: String) -> Int? {
        do {
            _ = try parser.parse(bytes(text))
            return nil
        } catch {
            return error.status
        }
    }

    // MARK: - Accepted

    @Test func aCompleteRequestWithABodyIsParsedAndItsLengthReported() throws {
        // Given a PUT with a body, followed by the start of a pipelined request
        let text =
            "PUT /conversations/c1/messages/m%201?x=a%2Bb&y HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n"
            + "X-Thing:  spaced value \r\n\r\nhelloGET /"

        // When it is parsed
        let result = try #require(try parser.parse(bytes(text)))

        // Then the request is complete and the pipelined bytes are left over
        #expect(result.request.method == "PUT")
        #expect(result.request.path == "/conversations/c1/messages/m%201")
        #expect(result.request.queryValue("x") == "a+b")
        #expect(result.request.queryValue("y") == "")
        #expect(result.request.header("x-thing") == "spaced value")
        #expect(result.request.body == bytes("hello"))
        #expect(result.consumed == text.utf8.count - "GET /".utf8.count)
        #expect(!result.request.closesConnection)
    }

    @Test func partialInputAsksForMoreBytes() throws {
        // Given a request cut in its headers, and one cut in its body
        let headers = "GET / HTTP/1.1\r\nHost: h\r\n"
        let body = "POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 10\r\n\r\nabc"

        // Then both need more bytes
        #expect(try parser.parse(bytes(headers)) == nil)
        #expect(try parser.parse(bytes(body)) == nil)
        #expect(try parser.parse([]) == nil)
    }

    @Test func connectionCloseAndHTTP10CloseTheConnection() throws {
        let close = try #require(try parser.parse(bytes("GET / HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")))
        let old = try #require(try parser.parse(bytes("GET / HTTP/1.0\r\n\r\n")))
        #expect(close.request.closesConnection)
        #expect(old.request.closesConnection)
    }

    // MARK: - Refused

    @Test func malformedRequestLinesAre400() {
        #expect(status("GARBAGE\r\n\r\n") == 400)
        #expect(status("GET  / HTTP/1.1\r\nHost: h\r\n\r\n") == 400)
        #expect(status("GET http://elsewhere/ HTTP/1.1\r\nHost: h\r\n\r\n") == 400)
        #expect(status("G(T / HTTP/1.1\r\n\r\n") == 400)
        #expect(status("GET / FTP/1.1\r\nHost: h\r\n\r\n") == 400)
        #expect(status("GET /?a=%zz HTTP/1.1\r\nHost: h\r\n\r\n") == 400)
    }

    @Test func garbageIsRefusedBeforeAnyBlankLineArrives() {
        // A client sending binary noise is answered at once, not after the read timeout.
        #expect(status("\u{01}\u{02}\u{03}") == 400)
        #expect(status("{\"json\": true}") == 400)
    }

    @Test func malformedHeadersAre400() {
        #expect(status("GET / HTTP/1.1\r\nHost h\r\n\r\n") == 400)
        #expect(status("GET / HTTP/1.1\r\nHost : h\r\n\r\n") == 400)
        #expect(status("GET / HTTP/1.1\r\nHost: h\r\n folded\r\n\r\n") == 400)
        #expect(status("GET / HTTP/1.1\r\nHost: h\u{7F}\r\n\r\n") == 400)
        #expect(status("GET / HTTP/1.1\r\nHost: h\nX: y\r\n\r\n") == 400)
        #expect(status("GET / HTTP/1.1\r\n\r\n") == 400, "HTTP/1.1 needs Host")
        #expect(status("GET / HTTP/1.1\r\nConnection: close\r\n\r\n") == 400, "closing or not")
        let notUTF8 = bytes("GET / HTTP/1.1\r\nHost: ") + [0xFF, 0xFE, 13, 10, 13, 10]
        #expect(throws: HTTPParseError(status: 400, reason: "the header is not UTF-8")) { try parser.parse(notUTF8) }
    }

    @Test func badContentLengthsAreRefused() {
        #expect(status("PUT /x HTTP/1.1\r\nHost: h\r\nContent-Length: -1\r\n\r\n") == 400)
        #expect(status("PUT /x HTTP/1.1\r\nHost: h\r\nContent-Length: 1e3\r\n\r\n") == 400)
        #expect(status("PUT /x HTTP/1.1\r\nHost: h\r\nContent-Length: 99999999999999999999999\r\n\r\n") == 400)
        #expect(status("PUT /x HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n") == 400)
        #expect(status("PUT /x HTTP/1.1\r\nHost: h\r\n\r\n") == 411)
        #expect(status("POST /x HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n") == 501)
    }

    @Test func oversizedRequestsAreRefusedBeforeTheyAreWhole() {
        // A body over the limit is refused from its headers alone
        #expect(status("PUT /x HTTP/1.1\r\nHost: h\r\nContent-Length: 65\r\n\r\n") == 413)
        // Headers without an end beyond the limit are refused as soon as the limit is passed
        #expect(status("GET / HTTP/1.1\r\nHost: h\r\nX: " + String(repeating: "a", count: 300)) == 431)
    }

    @Test func otherHTTPVersionsAre505() {
        #expect(status("GET / HTTP/2.0\r\nHost: h\r\n\r\n") == 505)
    }

    @Test func aRequestWhoseLinesEndInLFAloneIsRefused400AtOnceNotAtTheTimeout() {
        // Given requests whose lines end in a bare LF: whole, cut short, and an LF after a good first line
        let whole = "GET /events HTTP/1.1\nHost: h\n\n"
        let partial = "GET /events HTTP/1.1\nHo"
        let mixed = "GET /events HTTP/1.1\r\nHost: h\n"

        // Then each is refused 400 as soon as it is seen
        #expect(status(whole) == 400)
        #expect(status(partial) == 400)
        #expect(status(mixed) == 400)
        #expect(status("GET /events HTTP/1.1\r\nHo") == nil)
    }
}
