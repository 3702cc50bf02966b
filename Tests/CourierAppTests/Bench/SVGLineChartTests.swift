import Foundation
import Testing

@testable import CourierBench

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The benchmark's chart writer: what a reader of docs/bench-*.svg sees — one line per series where its values put
/// it, axes ticked at the sizes and at round values, labels, a legend — in a document an SVG reader accepts.
@Suite("SVG line chart")
struct SVGLineChartTests {
    private let chart = SVGLineChart(
        title: "Catch-up: cost per event",
        xLabel: "events behind", yLabel: "µs per event",
        series: [
            .init(name: "catch-up", points: [.init(x: 1e3, y: 30), .init(x: 1e4, y: 28), .init(x: 1e5, y: 29)]),
            .init(name: "pages", points: [.init(x: 1e3, y: 80), .init(x: 1e4, y: 92), .init(x: 1e5, y: 95)]),
            .init(name: "floor", points: [.init(x: 1e3, y: 40), .init(x: 1e5, y: 47.5)], dashed: true),
        ])

    @Test("draws a line per series, with markers on the measured ones, axes, labels and a legend")
    func drawsEverySeriesWithAxesAndLegend() throws {
        // Given a chart of two measured series and a dashed floor
        // When it is written
        let svg = chart.svg()

        // Then it is one SVG document with a line per series, a marker per measured point, and every label
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(svg.hasSuffix("</svg>\n"))
        #expect(Self.count("<polyline", in: svg) == 3)
        #expect(Self.count("<circle", in: svg) == 6)
        #expect(Self.count("stroke-dasharray", in: svg) == 2, "the floor's line and its legend sample")
        for label in [
            "Catch-up: cost per event", "events behind (logarithmic)", "µs per event", ">catch-up<", ">pages<",
            ">floor<", ">1k<", ">10k<", ">100k<", ">0<", ">100<",
        ] {
            #expect(svg.contains(label), "\(label)")
        }
    }

    @Test("places x by its logarithm and y upwards from the x axis")
    func placesPointsOnTheAxes() throws {
        // Given the chart's first line, drawn
        let points = try #require(Self.polylines(in: chart.svg()).first)

        // Then tenfold steps are equal steps to the right, and a larger value stands higher
        try #require(points.count == 3)
        #expect(abs((points[1].x - points[0].x) - (points[2].x - points[1].x)) < 0.2)
        #expect(points[0].x < points[1].x)
        #expect(points[1].y > points[0].y, "28 is drawn lower than 30")
        #expect(chart.position(y: 0) > chart.position(y: 50))
        #expect(chart.position(y: 0) == chart.position(y: chart.yTicks[0]))
    }

    @Test("ticks the y axis from zero at round steps that cover the largest value")
    func roundTicks() {
        // Given the largest values of a few charts, then the chart above (largest 95)
        // Then the steps are 1, 2 or 5 times a power of ten, the ticks start at 0 and end at or above the largest
        #expect(SVGLineChart.roundStep(for: 37) == 5)
        #expect(SVGLineChart.roundStep(for: 12) == 2)
        #expect(SVGLineChart.roundStep(for: 100) == 10)
        #expect(abs(SVGLineChart.roundStep(for: 0.3) - 0.05) < 1e-12)
        #expect(SVGLineChart.roundStep(for: 0) == 1)
        #expect(chart.yTicks == [0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100])
        #expect(SVGLineChart.tickLabel(0.1 * 3) == "0.3")
    }

    @Test("labels counts as a reader says them")
    func countLabels() {
        #expect(SVGLineChart.countLabel(3) == "3")
        #expect(SVGLineChart.countLabel(500) == "500")
        #expect(SVGLineChart.countLabel(1_000) == "1k")
        #expect(SVGLineChart.countLabel(2_500) == "2.5k")
        #expect(SVGLineChart.countLabel(100_000) == "100k")
        #expect(SVGLineChart.countLabel(1_000_000) == "1M")
    }

    @Test("escapes what XML gives a meaning, and leaves out points a log axis cannot place")
    func escapesTextAndSkipsUnplaceablePoints() throws {
        // Given a series whose name holds markup characters and one of whose points sits at x = 0
        let odd = SVGLineChart(
            title: "a < b & \"c\"", xLabel: "x", yLabel: "y",
            series: [.init(name: "<script>", points: [.init(x: 0, y: 5), .init(x: 10, y: 1), .init(x: 100, y: 2)])])

        // When it is written
        let svg = odd.svg()

        // Then the text is escaped, and the line has the two points it can place
        #expect(svg.contains(">a &lt; b &amp; &quot;c&quot;<"))
        #expect(svg.contains(">&lt;script&gt;<"))
        #expect(!svg.contains("<script>"))
        #expect(try #require(Self.polylines(in: svg).first).count == 2)
        #expect(odd.xTicks == [10, 100])
    }

    #if canImport(FoundationXML)
        @Test("is a well-formed XML document")
        func wellFormed() {
            // Given the chart's document and one with markup in its text
            let documents = [
                chart.svg(),
                SVGLineChart(
                    title: "<&>", xLabel: "'x'", yLabel: "\"y\"",
                    series: [.init(name: "a & b", points: [.init(x: 1, y: 1)])]
                ).svg(),
            ]
            // Then an XML parser reads each to its end
            for document in documents {
                #expect(XMLParser(data: Data(document.utf8)).parse())
            }
        }
    #endif

    // MARK: - Reading the document

    private static func count(_ needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }

    /// The points of every polyline, in document order.
    private static func polylines(in svg: String) -> [[(x: Double, y: Double)]] {
        svg.components(separatedBy: "\n").filter { $0.hasPrefix("<polyline") }.compactMap { line in
            guard let range = line.range(of: "points=\"") else { return nil }
            let rest = line[range.upperBound...]
            let list = rest.prefix { $0 != "\"" }
            return list.split(separator: " ").compactMap { pair in
                let numbers = pair.split(separator: ",").compactMap { Double($0) }
                return numbers.count == 2 ? (numbers[0], numbers[1]) : nil
            }
        }
    }
}
