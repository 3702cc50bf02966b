import CourierDomain

extension ProfileViewModel {
    // MARK: - Output

    /// What the profile screen shows of its edits: how many wait to reach the backend, and the ones given up.
    public struct State: Equatable, Sendable {
        /// Writes queued and not yet synced (every kind, not only the name).
        public var pendingCount: Int
        /// One line per write the queue gave up on, oldest first: `kind: why` — stale (at launch too), refused by
        /// the backend, or abandoned after too many attempts. Never dropped silently.
        public var givenUp: [String]

        /// Creates a state.
        public init(pendingCount: Int, givenUp: [String]) {
            self.pendingCount = pendingCount
            self.givenUp = givenUp
        }
    }

    // MARK: - Texts

    /// Why a stale write was given up.
    public static let expiredText = CourierStrings.english.writeExpired

    /// Why a write was given up after too many failed attempts.
    public static func abandonedText(_ error: DeliveryError) -> String { CourierStrings.english.writeAbandoned(error) }

    /// The line `State.givenUp` shows for a write of `kind` given up because `why`.
    public static func givenUpText(kind: String, why: String) -> String {
        CourierStrings.english.writeGivenUp(kind, why)
    }
}
