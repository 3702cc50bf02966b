import Foundation

/// What the chat's rows were last drawn from, and when their time texts are refreshed, as a value: the chat holds
/// one. A full render notes the clock reading, the timeline's revision, the window's start and the next time a row's
/// time text changes; while the reading, the revision and the start hold, the rows drawn are still the window's, and
/// while the reading holds an event may redraw its own row alone. Tested alone (`DrawnRowsTests`).
struct DrawnRows {
    /// What the last full render drew from, and the next time one of its rows' time texts changes.
    private var last: (at: Date, revision: Int, windowStart: Int, nextChange: Date?)?
    /// When the rows' time texts are next redrawn, while a redraw is scheduled.
    var refreshDeadline: Date?

    /// Whether the rows the last full render drew are still `window`'s at `now`: the clock, the timeline and the
    /// window's start are as they were.
    func stillShows(_ window: ChatWindow, at now: Date) -> Bool {
        guard let last else { return false }
        return last.at == now && last.revision == window.timeline.revision && last.windowStart == window.start
    }

    /// Whether the clock reads as at the last full render: a row may then be drawn alone, every other row's time
    /// text reading as it was drawn.
    func isCurrent(at now: Date) -> Bool { last?.at == now }

    /// The next time a row of the last full render changes its time text.
    var nextChange: Date? { last?.nextChange }

    /// A full render drew `window`'s rows at `now`; the first of their time texts changes at `nextChange`.
    mutating func drew(_ window: ChatWindow, at now: Date, nextChange: Date?) {
        last = (now, window.timeline.revision, window.start, nextChange)
    }

    /// Whether a row whose time text changes at `change` wants a redraw sooner than the one scheduled (or none is).
    func needsRefresh(before change: Date) -> Bool {
        refreshDeadline.map { change < $0 } ?? true
    }
}
