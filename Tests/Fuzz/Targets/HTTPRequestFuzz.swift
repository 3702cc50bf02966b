// Fuzz target `http-request`: the server's HTTP/1.1 request parser on the bytes a client could send.
import CourierServer

/// What the parser made of a buffer.
private enum Outcome: Equatable {
    case needMore
    case request(HTTPRequest, consumed: Int)
    case refused(HTTPParseError)
}

private let limits = HTTPLimits(maxHeaderBytes: 1_024, maxBodyBytes: 2_048)
private let statuses: Set<Int> = [400, 411, 413, 414, 431, 501, 505]

private func parse(_ bytes: [UInt8]) -> Outcome {
    do throws(HTTPParseError) {
        guard let (request, consumed) = try HTTPRequestParser(limits: limits).parse(bytes) else { return .needMore }
        return .request(request, consumed: consumed)
    } catch {
        return .refused(error)
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPRequest(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = FuzzInput(data, size).rest
    let whole = parse(bytes)
    switch whole {
    case .needMore:
        // "Not yet" must stay bounded: the server holds at most the header limit plus the body limit.
        require(bytes.count <= limits.maxHeaderBytes + 4 + limits.maxBodyBytes, "needs more after \(bytes.count) bytes")
    case .refused(let error):
        require(statuses.contains(error.status), "status \(error.status)")
    case .request(let request, let consumed):
        require(consumed > 0 && consumed <= bytes.count, "consumed \(consumed) of \(bytes.count)")
        require(request.path.hasPrefix("/"), "path \(request.path)")
        require(!request.method.isEmpty, "empty method")
        require(request.body.count <= limits.maxBodyBytes, "body of \(request.body.count) bytes")
        // A request is known from its own bytes: what follows it (a pipelined request) changes nothing, and the
        // bytes before its end, as a slow client sends them, are "not yet" — never another request or an error.
        require(parse(Array(bytes[..<consumed])) == whole, "a different request without the bytes after it")
        for cut in Set([0, consumed / 2, consumed - 1]) {
            require(parse(Array(bytes[..<cut])) == .needMore, "the first \(cut) bytes are not \"not yet\"")
        }
        if consumed < bytes.count { _ = parse(Array(bytes[consumed...])) }
    }
    for value in [request(of: whole)?.path ?? "", String(decoding: bytes.prefix(64), as: UTF8.self)] {
        _ = HTTPRequestParser.percentDecoded(value)
    }
    return 0
}

private func request(of outcome: Outcome) -> HTTPRequest? {
    if case .request(let request, _) = outcome { return request }
    return nil
}
