extension StringProtocol {
    /// The text without the white space at its ends: every Unicode scalar with the `White_Space` property (spaces,
    /// tabs, line and paragraph separators, NEL, no-break spaces) and the zero-width space, the set Foundation's
    /// `CharacterSet.whitespacesAndNewlines` holds. Scalar by scalar, as `trimmingCharacters(in:)` trims, so the two
    /// give the same text (tested for every scalar); this one needs no more of Foundation than its essentials.
    package func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        let isSpace = { (scalar: Unicode.Scalar) in scalar.properties.isWhitespace || scalar == "\u{200B}" }
        guard let first = scalars.firstIndex(where: { !isSpace($0) }),
            let last = scalars.lastIndex(where: { !isSpace($0) })
        else { return "" }
        var trimmed = String.UnicodeScalarView()
        trimmed.append(contentsOf: scalars[first...last])
        return String(trimmed)
    }
}
