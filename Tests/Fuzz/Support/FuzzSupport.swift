// Compiled into every fuzz target (Tests/Fuzz/run); not part of the package build.

/// The bytes of one fuzz input, read from the front: selector bytes first, then whatever remains.
struct FuzzInput {
    private(set) var bytes: ArraySlice<UInt8>

    init(_ data: UnsafePointer<UInt8>, _ size: Int) {
        bytes = Array(UnsafeBufferPointer(start: data, count: size))[...]
    }

    /// The next byte, 0 once the input is used up.
    mutating func byte() -> UInt8 { bytes.popFirst() ?? 0 }

    /// Every byte not read yet.
    var rest: [UInt8] { Array(bytes) }

    /// The rest as text: the bytes decoded as UTF-8, ill-formed sequences replaced.
    var restText: String { String(decoding: bytes, as: UTF8.self) }
}

/// Stops the run with `message` when `condition` is false: libFuzzer saves the input that broke a property.
func require(_ condition: Bool, _ message: @autoclosure () -> String, line: UInt = #line) {
    if !condition { fatalError("property broken: \(message())", line: line) }
}
