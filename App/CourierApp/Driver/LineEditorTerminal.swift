#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The terminal settings to put back when the process is told to stop (SIGTERM, SIGHUP) while in raw mode.
enum LineEditorTerminal {
    nonisolated(unsafe) private static var saved = termios()
    nonisolated(unsafe) private static var installed = false

    /// Keeps `settings` and installs the handlers (once).
    static func remember(_ settings: termios) {
        saved = settings
        guard !installed else { return }
        installed = true
        for stop in [SIGTERM, SIGHUP] {
            _ = signal(stop) { number in
                tcsetattr(STDIN_FILENO, TCSAFLUSH, &LineEditorTerminal.saved)
                _exit(128 + number)
            }
        }
    }
}
