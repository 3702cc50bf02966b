/// This platform has no path monitor.
struct NetWatchUnsupported: Error, CustomStringConvertible {
    var description: String { "no path monitor on this platform" }
}
