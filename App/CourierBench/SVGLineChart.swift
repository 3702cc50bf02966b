import Foundation

/// A line chart written as a standalone SVG document, with nothing but string building: a title, an x axis (linear
/// or logarithmic) ticked at the points' x values, a y axis from zero ticked at round numbers, one line with markers
/// per series, and a legend. `courier-bench live` draws its cost-per-item figures with it (docs/benchmarks.md).
struct SVGLineChart {
    /// One point of a series, in the data's units.
    struct Point: Equatable {
        var x: Double
        var y: Double
    }

    /// One line of the chart and its name in the legend.
    struct Series: Equatable {
        var name: String
        var points: [Point]
        /// Drawn dashed and without markers: a floor or another reference line rather than a measurement.
        var dashed = false
    }

    var title: String
    var xLabel: String
    var yLabel: String
    var series: [Series]
    /// Whether x is placed by its logarithm (sizes that grow tenfold), which needs every x above zero.
    var logarithmicX = true
    var width = 720.0
    var height = 440.0

    /// Line colours, by series, in turn.
    static let palette = ["#1f6fb4", "#d1495b", "#2a9d5c", "#8a5cc7", "#6b6b6b"]

    // MARK: - Layout

    private var plotLeft: Double { 72 }
    private var plotRight: Double { width - 24 }
    private var plotTop: Double { 48 }
    private var plotBottom: Double { height - 112 }

    /// The points that can be drawn: every point on a linear axis, those with x above zero on a logarithmic one.
    private var drawable: [Series] {
        series.map { line in
            var kept = line
            kept.points = line.points.filter { $0.x.isFinite && $0.y.isFinite && (!logarithmicX || $0.x > 0) }
            return kept
        }
    }

    /// The distinct x values of every series, ascending: where the x axis is ticked.
    var xTicks: [Double] { Array(Set(drawable.flatMap { $0.points.map(\.x) })).sorted() }

    /// The y axis's ticks: zero up to the first round value at or above every point, in 4 to 10 equal round steps.
    var yTicks: [Double] {
        let top = drawable.flatMap { $0.points.map(\.y) }.max() ?? 0
        let step = Self.roundStep(for: top)
        let count = max(1, Int((top / step).rounded(.up)))
        return (0...count).map { Double($0) * step }
    }

    /// A step of 1, 2 or 5 times a power of ten that cuts `0...top` into at most 10 (and, from 4 on, at least 4)
    /// parts.
    static func roundStep(for top: Double) -> Double {
        guard top > 0, top.isFinite else { return 1 }
        let magnitude = pow(10, (log10(top / 5)).rounded(.down))
        for factor in [1.0, 2, 5, 10] where top / (factor * magnitude) <= 10 {
            if top / (factor * magnitude) < 4, factor > 1 { continue }
            return factor * magnitude
        }
        return 10 * magnitude
    }

    /// The horizontal position of `x` in the document.
    func position(x: Double) -> Double {
        let ticks = xTicks
        guard let low = ticks.first, let high = ticks.last, high > low else { return (plotLeft + plotRight) / 2 }
        let scale = { (value: Double) in self.logarithmicX ? log10(value) : value }
        let fraction = (scale(x) - scale(low)) / (scale(high) - scale(low))
        // A margin on both sides keeps the first and last markers off the axes.
        let inset = 28.0
        return plotLeft + inset + fraction * (plotRight - plotLeft - 2 * inset)
    }

    /// The vertical position of `y` in the document (zero at the x axis, growing upwards).
    func position(y: Double) -> Double {
        let top = yTicks.last ?? 1
        return plotBottom - (top > 0 ? y / top : 0) * (plotBottom - plotTop)
    }

    // MARK: - Drawing

    /// The whole document.
    func svg() -> String {
        let root = [
            ("xmlns", "http://www.w3.org/2000/svg"), ("width", Self.number(width)), ("height", Self.number(height)),
            ("viewBox", "0 0 \(Self.number(width)) \(Self.number(height))"), ("font-family", "sans-serif"),
            ("font-size", "12"),
        ]
        var parts = [
            "<svg \(Self.attributes(root))>",
            Self.element("rect", [("width", "100%"), ("height", "100%"), ("fill", "white")]),
            text(
                title, x: width / 2, y: 26, [("text-anchor", "middle"), ("font-size", "15"), ("font-weight", "bold")]),
        ]
        parts += axes()
        for (index, line) in drawable.enumerated() { parts += draw(line, colour: Self.colour(index)) }
        parts += legend()
        parts.append("</svg>")
        return parts.joined(separator: "\n") + "\n"
    }

    private func axes() -> [String] {
        var parts = ["<g stroke=\"#e3e3e3\" stroke-width=\"1\">"]
        for tick in yTicks.dropFirst() {
            parts.append(line(from: (plotLeft, position(y: tick)), to: (plotRight, position(y: tick)), []))
        }
        parts.append("</g>")
        let axis = [("stroke", "#333")]
        parts.append(line(from: (plotLeft, plotBottom), to: (plotRight, plotBottom), axis))
        parts.append(line(from: (plotLeft, plotTop), to: (plotLeft, plotBottom), axis))
        for tick in xTicks {
            let x = position(x: tick)
            parts.append(line(from: (x, plotBottom), to: (x, plotBottom + 5), axis))
            parts.append(text(Self.countLabel(tick), x: x, y: plotBottom + 19, [("text-anchor", "middle")]))
        }
        for tick in yTicks {
            let y = position(y: tick)
            parts.append(line(from: (plotLeft - 5, y), to: (plotLeft, y), axis))
            parts.append(text(Self.tickLabel(tick), x: plotLeft - 8, y: y + 4, [("text-anchor", "end")]))
        }
        let scale = logarithmicX ? " (logarithmic)" : ""
        let middle = (plotLeft + plotRight) / 2
        parts.append(text(xLabel + scale, x: middle, y: plotBottom + 40, [("text-anchor", "middle")]))
        let centre = (plotTop + plotBottom) / 2
        let turn = "rotate(-90 18 \(Self.number(centre)))"
        parts.append(text(yLabel, x: 18, y: centre, [("text-anchor", "middle"), ("transform", turn)]))
        return parts
    }

    private func draw(_ series: Series, colour: String) -> [String] {
        guard !series.points.isEmpty else { return [] }
        let sorted = series.points.sorted { $0.x < $1.x }
        let points = sorted.map { "\(Self.number(position(x: $0.x))),\(Self.number(position(y: $0.y)))" }
        let dash = series.dashed ? [("stroke-dasharray", "6 4")] : []
        let stroke = [("fill", "none"), ("stroke", colour), ("stroke-width", "2")] + dash
        var parts = [Self.element("polyline", stroke + [("points", points.joined(separator: " "))])]
        guard !series.dashed else { return parts }
        for point in sorted {
            let centre = [("cx", Self.number(position(x: point.x))), ("cy", Self.number(position(y: point.y)))]
            parts.append(Self.element("circle", centre + [("r", "3.5"), ("fill", colour)]))
        }
        return parts
    }

    /// The legend, under the x axis's label, two entries a column, each with a sample of its series' stroke.
    private func legend() -> [String] {
        var parts: [String] = []
        for (index, series) in series.enumerated() {
            let y = plotBottom + 62 + Double(index % 2) * 18
            let x = plotLeft + Double(index / 2) * (plotRight - plotLeft) / 2
            let dash = series.dashed ? [("stroke-dasharray", "6 4")] : []
            let stroke = [("stroke", Self.colour(index)), ("stroke-width", "2")] + dash
            parts.append(line(from: (x, y - 4), to: (x + 24, y - 4), stroke))
            parts.append(text(series.name, x: x + 30, y: y, []))
        }
        return parts
    }

    private func line(from start: (Double, Double), to end: (Double, Double), _ extra: [(String, String)]) -> String {
        let ends = [
            ("x1", Self.number(start.0)), ("y1", Self.number(start.1)), ("x2", Self.number(end.0)),
            ("y2", Self.number(end.1)),
        ]
        return Self.element("line", ends + extra)
    }

    private func text(_ content: String, x: Double, y: Double, _ extra: [(String, String)]) -> String {
        let place = [("x", Self.number(x)), ("y", Self.number(y))]
        return "<text \(Self.attributes(place + extra))>\(Self.escaped(content))</text>"
    }

    /// An empty element: `<name a="v" …/>`, its values escaped.
    static func element(_ name: String, _ attributes: [(String, String)]) -> String {
        "<\(name) \(Self.attributes(attributes))/>"
    }

    private static func attributes(_ pairs: [(String, String)]) -> String {
        pairs.map { "\($0.0)=\"\(escaped($0.1))\"" }.joined(separator: " ")
    }

    // MARK: - Text

    static func colour(_ index: Int) -> String { palette[index % palette.count] }

    /// A coordinate with one decimal at most ("12", "12.5").
    static func number(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(format: "%.1f", rounded)
    }

    /// A count as a person reads it on an axis: 3, 500, 1k, 2.5k, 100k, 1M.
    static func countLabel(_ value: Double) -> String {
        let units: [(Double, String)] = [(1e6, "M"), (1e3, "k")]
        for (size, suffix) in units where abs(value) >= size {
            return shortNumber(value / size) + suffix
        }
        return shortNumber(value)
    }

    /// A y tick: a round value with no trailing zeros (0, 0.5, 2, 25).
    static func tickLabel(_ value: Double) -> String { shortNumber(value) }

    private static func shortNumber(_ value: Double) -> String {
        if value == value.rounded() { return String(Int(value)) }
        var text = String(format: "%.2f", value)
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }

    /// `content` with the characters XML gives a meaning escaped.
    static func escaped(_ content: String) -> String {
        var result = ""
        result.reserveCapacity(content.utf8.count)
        for character in content {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            default: result.append(character)
            }
        }
        return result
    }
}
