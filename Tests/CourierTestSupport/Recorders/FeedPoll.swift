import CourierDomain
import Foundation

/// A request for feed events a test starts on a manual clock and lets run while it moves time, sends messages or
/// changes the network: what it answered or threw, and the clock time it ended at.
@MainActor
public final class FeedPoll {
    /// The answer, once it answered.
    public private(set) var answer: FeedAnswer?
    /// The error it threw, once it threw.
    public private(set) var error: (any Error)?
    /// When it ended (clock time); nil while it runs.
    public private(set) var endedAt: Date?
    private var task: TrackedTask<Void>?

    /// Starts `request` as work `clock` tracks, so that time waits for it.
    public init(on clock: ManualClock, _ request: @escaping @MainActor () async throws -> FeedAnswer) {
        task = clock.task { [self] in
            do {
                answer = try await request()
            } catch {
                self.error = error
            }
            endedAt = clock.now
        }
    }

    /// Whether it ended.
    public var hasEnded: Bool { endedAt != nil }

    /// Cancels it, as a caller that stops listening does.
    public func cancel() { task?.cancel() }
}
