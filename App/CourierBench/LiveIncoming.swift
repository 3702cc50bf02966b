import Foundation

/// `courier-bench live`, incoming: one message arriving through the sync engine into an open chat, timed from its
/// arrival at the backend until its row shows in the chat's state, in chats of every size at once (each its own
/// client, directory and clock). The chats take turns message by message, so all meet the same machine and disk
/// weather; the baseline is the same in the chat of 3.
@MainActor
struct LiveIncoming {
    /// Per size, every message's figures, and each round's median.
    struct Figures {
        /// Wall-clock seconds per message, every message of every round.
        var perMessage: [Int: [Double]] = [:]
        /// CPU seconds (user + system) per message, every message of every round.
        var cpu: [Int: [Double]] = [:]
        /// Wall-clock seconds per message, the median of each round.
        var roundMedians: [Int: [Double]] = [:]
        /// Rows each chat showed at the end.
        var rows: [Int: Int] = [:]
    }

    let sizes: [Int]
    let rounds: Int
    let messagesPerRound: Int
    /// Messages per chat before the first round, untimed: the first few pay for what is made once.
    let warmUp = 5

    func run() async throws -> Figures {
        var chats: [LiveIncomingChat] = []
        defer { for chat in chats { chat.close() } }
        for size in sizes { chats.append(try await LiveIncomingChat(size: size)) }
        for chat in chats {
            for _ in 0..<warmUp { _ = try await chat.receiveOne() }
        }
        var figures = Figures()
        for round in 0..<rounds {
            var seconds: [Int: [Double]] = [:]
            var cpu: [Int: [Double]] = [:]
            for step in 0..<messagesPerRound {
                for chat in (round + step).isMultiple(of: 2) ? chats : chats.reversed() {
                    let sample = try await chat.receiveOne()
                    seconds[chat.size, default: []].append(sample.seconds)
                    cpu[chat.size, default: []].append(sample.cpu)
                }
            }
            for size in sizes {
                figures.perMessage[size, default: []] += seconds[size] ?? []
                figures.cpu[size, default: []] += cpu[size] ?? []
                figures.roundMedians[size, default: []].append(Bench.median(seconds[size] ?? []))
            }
        }
        for chat in chats { figures.rows[chat.size] = chat.rows }
        return figures
    }
}
