/// Why the `courier` executable could not be found.
struct AppTestsCourierBinaryError: Error, CustomStringConvertible {
    let detail: String
    var description: String { detail }
}
