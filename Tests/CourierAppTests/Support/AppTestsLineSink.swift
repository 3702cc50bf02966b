/// Collects printed lines (a class so that the driver's `write` closure can append to it).
@MainActor
final class AppTestsLineSink {
    var lines: [String] = []
    var warnings: [String] = []
}
