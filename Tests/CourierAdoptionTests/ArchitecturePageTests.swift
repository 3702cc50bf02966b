import Foundation
import Testing

/// docs/architecture.md quotes the adoption test: every region of it marked `// integration:` appears on the page
/// word for word, so the page cannot drift from code that is compiled and run.
@Suite struct ArchitecturePageTests {
    @Test func thePageQuotesEveryIntegrationRegionOfTheAdoptionTest() throws {
        let here = URL(fileURLWithPath: #filePath)
        let folder = here.deletingLastPathComponent()
        let test = try String(contentsOf: folder.appendingPathComponent("AdoptionTests.swift"), encoding: .utf8)
        let root = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let page = try String(contentsOf: root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)

        let regions = Self.regions(in: test)
        #expect(regions.count == 3)
        for region in regions {
            #expect(page.contains(region), "docs/architecture.md quotes:\n\(region)")
        }
    }

    /// The code between each `// integration: <name>` line and the next `// integration: end`, dedented.
    static func regions(in source: String) -> [String] {
        var regions: [String] = []
        var current: [Substring]?
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed == "// integration: end", let lines = current {
                let indent = lines.map { $0.prefix { $0 == " " }.count }.min() ?? 0
                regions.append(lines.map { String($0.dropFirst(indent)) }.joined(separator: "\n"))
                current = nil
            } else if trimmed.hasPrefix("// integration: ") {
                current = []
            } else {
                current?.append(line)
            }
        }
        return regions
    }
}
