import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A small line editor for the interactive driver on a terminal: the terminal goes into raw mode while a line is
/// read, and comes back as it was after each line, on Ctrl-C / Ctrl-D, on exit and on SIGTERM/SIGHUP.
///
/// Keys: printable text inserts at the cursor; Left/Right (and Ctrl-B/Ctrl-F) move; Home/End and Ctrl-A/Ctrl-E jump;
/// Backspace deletes before the cursor, Delete under it; Ctrl-K cuts to the end, Ctrl-U to the start; Up/Down (and
/// Ctrl-P/Ctrl-N) walk the history of entered lines; Enter submits; Ctrl-D on an empty line and Ctrl-C end input.
///
/// Lines printed while a line is being edited (a toast that dismissed itself) appear above the prompt, which is
/// drawn again with what was typed so far.
final class LineEditor: @unchecked Sendable {
    private let prompt: String
    private let lock = NSLock()
    private var original = termios()
    private var history: [String] = []
    private var buffer: [Character] = []
    private var cursor = 0
    private var editing = false

    /// An editor on standard input, or nil when standard input is not a terminal.
    init?(prompt: String) {
        guard isatty(STDIN_FILENO) == 1, tcgetattr(STDIN_FILENO, &original) == 0 else { return nil }
        self.prompt = prompt
        LineEditorTerminal.remember(original)
    }

    /// Reads one line with editing; nil at the end of input (Ctrl-D on an empty line, Ctrl-C, a closed terminal).
    func readLine() async -> String? {
        await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: self.readLineBlocking()) }
            thread.start()
        }
    }

    /// Prints `text` as a line of output: above the prompt and the line being typed when one is being edited.
    func print(_ text: String) {
        lock.withLock {
            if editing {
                emit("\r\u{1B}[K" + text + "\r\n")
                redrawLocked()
            } else {
                emit(text + "\n")
            }
        }
    }

    /// Puts the terminal back as it was. Keys typed ahead stay queued for the next line (TCSANOW, not TCSAFLUSH,
    /// which would discard them: a person who types the next command while one runs would lose it).
    func restore() {
        var saved = original
        tcsetattr(STDIN_FILENO, TCSANOW, &saved)
    }

    // MARK: - Reading

    private func readLineBlocking() -> String? {
        enterRawMode()
        defer { restore() }
        var historyIndex = history.count
        var draft: [Character] = []
        lock.withLock {
            buffer = []
            cursor = 0
            editing = true
            redrawLocked()
        }
        defer { lock.withLock { editing = false } }
        var pending: [UInt8] = []
        while let byte = readByte() {
            switch byte {
            case 13, 10:
                let line = lock.withLock { () -> String in
                    emit("\r\n")
                    return String(buffer)
                }
                if !line.trimmingCharacters(in: .whitespaces).isEmpty, history.last != line { history.append(line) }
                return line
            case 3:
                lock.withLock { emit("^C\r\n") }
                return nil
            case 4:
                let empty = lock.withLock { buffer.isEmpty }
                if empty {
                    lock.withLock { emit("\r\n") }
                    return nil
                }
                edit { if $0.cursor < $0.buffer.count { $0.buffer.remove(at: $0.cursor) } }
            case 1: edit { $0.cursor = 0 }
            case 5: edit { $0.cursor = $0.buffer.count }
            case 2: edit { $0.cursor = max(0, $0.cursor - 1) }
            case 6: edit { $0.cursor = min($0.buffer.count, $0.cursor + 1) }
            case 11: edit { $0.buffer.removeSubrange($0.cursor...) }
            case 21:
                edit {
                    $0.buffer.removeSubrange(..<$0.cursor)
                    $0.cursor = 0
                }
            case 127, 8:
                edit {
                    guard $0.cursor > 0 else { return }
                    $0.buffer.remove(at: $0.cursor - 1)
                    $0.cursor -= 1
                }
            case 16: walkHistory(-1, &historyIndex, &draft)
            case 14: walkHistory(1, &historyIndex, &draft)
            case 27: escapeSequence(&historyIndex, &draft)
            case 32...126, 128...255:
                pending.append(byte)
                guard let text = Self.decode(&pending) else { continue }
                edit {
                    $0.buffer.insert(contentsOf: text, at: $0.cursor)
                    $0.cursor += text.count
                }
            default: continue
            }
        }
        return nil
    }

    private func escapeSequence(_ historyIndex: inout Int, _ draft: inout [Character]) {
        guard let first = readByte(), first == 91 || first == 79, let key = readByte() else { return }
        switch key {
        case 65: walkHistory(-1, &historyIndex, &draft)
        case 66: walkHistory(1, &historyIndex, &draft)
        case 67: edit { $0.cursor = min($0.buffer.count, $0.cursor + 1) }
        case 68: edit { $0.cursor = max(0, $0.cursor - 1) }
        case 72: edit { $0.cursor = 0 }
        case 70: edit { $0.cursor = $0.buffer.count }
        case 48...57:
            // ESC [ n ~ : 3 is Delete, 1/7 Home, 4/8 End.
            var number = Int(key - 48)
            while let next = readByte(), next != 126 {
                guard (48...57).contains(next) else { return }
                number = number * 10 + Int(next - 48)
            }
            switch number {
            case 3: edit { if $0.cursor < $0.buffer.count { $0.buffer.remove(at: $0.cursor) } }
            case 1, 7: edit { $0.cursor = 0 }
            case 4, 8: edit { $0.cursor = $0.buffer.count }
            default: break
            }
        default: break
        }
    }

    /// Moves through the history by `step`; the line being typed is kept as the draft below the newest entry.
    private func walkHistory(_ step: Int, _ index: inout Int, _ draft: inout [Character]) {
        let target = index + step
        guard target >= 0, target <= history.count else { return }
        if index == history.count { draft = lock.withLock { buffer } }
        index = target
        let line = target == history.count ? draft : Array(history[target])
        edit {
            $0.buffer = line
            $0.cursor = line.count
        }
    }

    // MARK: - Terminal

    private struct Line {
        var buffer: [Character]
        var cursor: Int
    }

    private func edit(_ change: (inout Line) -> Void) {
        lock.withLock {
            var line = Line(buffer: buffer, cursor: cursor)
            change(&line)
            buffer = line.buffer
            cursor = min(max(0, line.cursor), line.buffer.count)
            redrawLocked()
        }
    }

    private func redrawLocked() {
        var text = "\r" + prompt + String(buffer) + "\u{1B}[K"
        let back = buffer.count - cursor
        if back > 0 { text += "\u{1B}[\(back)D" }
        emit(text)
    }

    private func emit(_ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBufferPointer { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if written <= 0 { return }
            offset += written
        }
    }

    private func enterRawMode() {
        var raw = original
        // No echo, no line buffering, no signals from keys (Ctrl-C is read as a key), no flow control, no CR→NL.
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL | BRKINT | INPCK | ISTRIP)
        raw.c_cflag |= tcflag_t(CS8)
        Self.setControlCharacters(&raw)
        tcsetattr(STDIN_FILENO, TCSANOW, &raw)
    }

    private static func setControlCharacters(_ raw: inout termios) {
        withUnsafeMutableBytes(of: &raw.c_cc) { bytes in
            bytes[Int(VMIN)] = 1
            bytes[Int(VTIME)] = 0
        }
    }

    private func readByte() -> UInt8? {
        var byte: UInt8 = 0
        while true {
            let count = read(STDIN_FILENO, &byte, 1)
            if count == 1 { return byte }
            if count < 0, errno == EINTR { continue }
            return nil
        }
    }

    /// The text `bytes` spell once they form whole UTF-8 characters (then `bytes` is emptied); nil while a
    /// character is incomplete. Invalid bytes are dropped.
    private static func decode(_ bytes: inout [UInt8]) -> [Character]? {
        guard let lead = bytes.first else { return nil }
        let length = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 0
        guard length > 0 else {
            bytes = []
            return nil
        }
        guard bytes.count >= length else { return nil }
        defer { bytes = [] }
        guard let text = String(bytes: bytes, encoding: .utf8) else { return nil }
        return Array(text)
    }
}
