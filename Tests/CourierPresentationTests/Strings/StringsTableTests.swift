import Foundation
import Testing

/// Every text a screen shows comes from the one strings table (`CourierStrings`): no other Presentation source
/// holds a string literal with a letter in it, except what no screen shows — log messages and the names of logged
/// work, identifiers, and the descriptions of errors thrown to the programmer.
@Suite struct StringsTableTests {
    /// The package's `Presentation` folder, found from this file.
    static let presentation = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Presentation")

    /// The table itself: the only place a screen's words are written.
    static let tableFiles: Set<String> = ["CourierStrings.swift", "CourierStrings+English.swift"]

    /// Errors thrown to the caller (`description` for a programmer or a driver), never put into a state.
    static let programmerErrorFiles: Set<String> = ["PresentationError.swift", "DisplayNameError.swift"]

    /// Identifiers, not words: a time zone's, a write kind's.
    static let identifiers: Set<String> = ["UTC", "profile.displayName"]

    /// The literals of `source` a user could read: with a letter, not on a logging line, not an identifier.
    static func userFacingLiterals(in source: String) -> [StringLiteralScanner.Literal] {
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        return StringLiteralScanner(source).literals.filter { literal in
            guard literal.text.contains(where: \.isLetter), !identifiers.contains(literal.text) else { return false }
            let line = lines[literal.line - 1]
            return !line.contains("logger.log(") && !line.contains("logger: logger")
        }
    }

    @Test func noViewModelWritesAUserFacingText() throws {
        let files = try FileManager.default.subpathsOfDirectory(atPath: Self.presentation.path)
            .filter { $0.hasSuffix(".swift") }
        #expect(files.count > 40)
        var found: [String] = []
        for file in files.sorted() {
            let name = (file as NSString).lastPathComponent
            guard !Self.tableFiles.contains(name), !Self.programmerErrorFiles.contains(name) else { continue }
            let source = try String(contentsOf: Self.presentation.appendingPathComponent(file), encoding: .utf8)
            found += Self.userFacingLiterals(in: source).map { "\(file):\($0.line): \"\($0.text)\"" }
        }
        #expect(found.isEmpty, "texts outside CourierStrings: \(found.joined(separator: "; "))")
    }

    @Test func theScanCatchesAWordInAViewModelAndSkipsCommentsAndLogs() {
        let source = """
            /// "Documented" in a comment.
            final class SomeViewModel {
                // "A comment"
                func render() {
                    logger.log(.info, "loaded \\(count) rows")
                    /* "Block" */ let empty = ""
                    let title = "Hello world"
                    let count = "\\(rows.count)"
                    let label = "\\(flag ? "Yes" : "No")"
                    let many = \"""
                        Many lines
                        \"""
                }
            }
            """
        let found = Self.userFacingLiterals(in: source)
        #expect(found.map(\.line) == [7, 9, 9, 10])
        #expect(found.prefix(3).map(\.text) == ["Hello world", "Yes", "No"])
        #expect(found.last?.text.contains("Many lines") == true)
    }
}
