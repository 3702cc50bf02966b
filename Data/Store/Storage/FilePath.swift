/// Path arithmetic on the plain strings `FileSystem` takes, without Foundation's `NSString`.
package enum FilePath {
    /// The directory holding `path`, as `NSString.deletingLastPathComponent` answers it: `/a/b` and `/a/b/` give `/a`,
    /// `/a` gives `/`, `/` stays `/`, and a bare name gives an empty path.
    package static func parent(of path: String) -> String {
        var rest = Substring(path)
        while rest.count > 1, rest.hasSuffix("/") { rest.removeLast() }
        guard let slash = rest.lastIndex(of: "/") else { return "" }
        var parent = rest[..<slash]
        while parent.hasSuffix("/") { parent.removeLast() }
        return parent.isEmpty ? "/" : String(parent)
    }
}
