extension StringProtocol {
    /// The text without the white space at its ends: every Unicode scalar with the `White_Space` property (spaces,
    /// tabs, line and paragraph separators, NEL, no-break spaces) and the zero-width space, the set Foundation's
    /// `CharacterSet.whitespacesAndNewlines` holds. Scalar by scalar, as `trimmingCharacters(in:)` trims, so the two
    /// give the same text (tested for every scalar); this one needs no more of Foundation than its essentials.
    package func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        // ASCII, nearly every scalar, is told apart without looking its properties up.
        let isSpace = { (scalar: Unicode.Scalar) in
            scalar.isASCII
                ? scalar == " " || (scalar.value >= 0x09 && scalar.value <= 0x0D)
                : scalar.properties.isWhitespace || scalar == "\u{200B}"
        }
        guard let first = scalars.firstIndex(where: { !isSpace($0) }),
            let last = scalars.lastIndex(where: { !isSpace($0) })
        else { return "" }
        if first == scalars.startIndex, scalars.index(after: last) == scalars.endIndex { return String(self) }
        var trimmed = String.UnicodeScalarView()
        trimmed.append(contentsOf: scalars[first...last])
        return String(trimmed)
    }
}
