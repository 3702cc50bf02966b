import Foundation
import Testing

@testable import CourierApp

/// Not on the main actor: the channel's reader is a thread, and these tests wait for it.
@Suite("LineChannel")
struct LineChannelTests {
    /// Puts `lines` from a thread of its own, then finishes.
    private func read(_ lines: [String], into channel: LineChannel) {
        Thread {
            for line in lines { channel.put(.text(line)) }
            channel.finish()
        }.start()
    }

    /// Takes every line, checking after each that no more than `bound` wait.
    private func takeAll(_ channel: LineChannel, bound: Int) async -> (lines: [String], overBound: Int) {
        var taken: [String] = []
        var overBound = 0
        while let line = await channel.next() {
            if channel.bufferedCount > bound { overBound += 1 }
            if case .text(let text) = line { taken.append(text) }
        }
        return (taken, overBound)
    }

    @Test("lines come in order, then nil once the input ended; a line read while the driver waits is handed over")
    func inOrderThenEnd() async {
        let channel = LineChannel(capacity: 4)
        read((1...50).map { "line \($0)" }, into: channel)
        let (lines, _) = await takeAll(channel, bound: 4)
        #expect(lines == (1...50).map { "line \($0)" })
        #expect(await channel.next() == nil)
    }

    @Test("the reader runs at most its capacity ahead")
    func boundedAhead() async {
        let channel = LineChannel(capacity: 8)
        read((1...400).map { "\($0)" }, into: channel)
        let (lines, overBound) = await takeAll(channel, bound: 8)
        #expect(lines.count == 400)
        #expect(overBound == 0)
    }

    @Test("a reader waiting for room is woken once the driver took all but a quarter, not once per line")
    func wokenPerBatch() async {
        // Given a reader 8 lines ahead of a driver that takes a line only while the reader waits for room (or
        // has finished): a reader woken early would fill up and wait again before each line
        let channel = LineChannel(capacity: 8)
        read((1...40).map { "\($0)" }, into: channel)
        var taken: [String] = []
        while taken.count < 40 {
            channel.waitUntilReaderWaitsOrFinished()
            if case .text(let text) = await channel.next() { taken.append(text) }
        }

        // Then every line came, and the reader was woken once per six lines: (40 - 8) / 6 rounds, rounded up
        #expect(taken == (1...40).map { "\($0)" })
        #expect(channel.readerWakeUps <= 6)
    }

    @Test("long lines bound the bytes ahead, while a single line past the bound still passes")
    func boundedByBytes() async {
        let channel = LineChannel(capacity: 100, byteCapacity: 10)
        read(["abcd", "efgh", "ijkl", "mnop", String(repeating: "x", count: 50), "q"], into: channel)
        let (lines, overBound) = await takeAll(channel, bound: 3)
        #expect(lines == ["abcd", "efgh", "ijkl", "mnop", String(repeating: "x", count: 50), "q"])
        #expect(overBound == 0)
    }
}
