import CourierDomain
import Foundation

/// Builders for the chat's tests.
public enum ChatFixture {
    /// `count` messages of conversation `c1`, one second apart from `start`, alternating between Ana (even ones)
    /// and me, each read: ids `h00`, `h01` …, texts "history 0" ….
    public static func history(_ count: Int = 60, from start: Date) -> [Message] {
        (0..<max(0, count)).map { index in
            Message(
                id: MessageID(String(format: "h%02d", index)), conversationID: "c1",
                senderID: index.isMultiple(of: 2) ? "ana" : "me", text: "history \(index)",
                timestamp: start.addingTimeInterval(Double(index)), status: .read)
        }
    }
}
