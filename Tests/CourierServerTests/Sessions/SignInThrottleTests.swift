import CourierData
import CourierDomain
import CourierServer
import CourierTestSupport
import Foundation
import Testing

/// Sign-in throttling an attacker cannot turn on a user: counted per client and id, per client, and across the
/// server, remembered in fixed-size entries; and a bounded number of sessions per user. On a manual clock.
@MainActor
@Suite(.removesTemporaryDirectories) final class SignInThrottleTests {
    let directory: TemporaryDirectory
    let clock = ManualClock()
    let authority: SignInAuthority

    init() throws {
        directory = try TemporaryDirectory(prefix: "courier-throttle")
        authority = try SignInAuthority(
            path: directory.url.appendingPathComponent("sessions.log").path, clock: clock, tokenLifetime: .seconds(600)
        ) { user, password in ["me", "ben"].contains(user.rawValue) && password == "right" }
    }

    deinit { directory.remove() }

    @Test func aGuesserLocksOnlyItselfOutAndTheOwnerStillSignsIn() throws {
        // Given an attacker's client that guessed my password five times
        for _ in 0..<5 { #expect(try authority.signIn("me", password: "wrong", client: "10.0.0.66") == .refused) }

        // When the attacker tries the right password, and I sign in from my own client
        let attacker = try authority.signIn("me", password: "right", client: "10.0.0.66")
        let owner = try authority.signIn("me", password: "right", client: "10.0.0.1")

        // Then the attacker is throttled for 30 s and I am signed in
        #expect(attacker == .throttled(retryAfter: 30))
        guard case .granted = owner else {
            Issue.record("the owner was refused: \(owner)")
            return
        }
    }

    @Test func oneClientSprayingManyIdsIsLockedOutOfEveryId() throws {
        // Given a client that failed once on each of 20 ids
        for index in 0..<20 { _ = try authority.signIn(UserID("user\(index)"), password: "x", client: "10.0.0.66") }

        // When it tries an id it never tried, with the right password
        let next = try authority.signIn("ben", password: "right", client: "10.0.0.66")

        // Then it is throttled; another client is not
        #expect(next == .throttled(retryAfter: 30))
        #expect(try authority.signIn("ben", password: "right", client: "10.0.0.2") != .refused)
    }

    @Test func pastTheServersCeilingClientsThatFailedWaitAndCleanOnesGetIn() throws {
        // Given 300 clients that each failed once this minute
        for index in 0..<300 { _ = try authority.signIn("me", password: "x", client: "10.1.\(index / 250).\(index)") }

        // When one of them tries again, and a client that never failed signs in
        let guesser = try authority.signIn("me", password: "right", client: "10.1.0.0")
        let clean = try authority.signIn("me", password: "right", client: "10.2.0.1")

        // Then the guesser waits out the minute and the clean client is signed in
        #expect(guesser == .throttled(retryAfter: 60))
        guard case .granted = clean else {
            Issue.record("a clean client was refused: \(clean)")
            return
        }
    }

    @Test func failuresAreRememberedOnceForEachClientAndIdWhateverTheIdsLength() throws {
        // Given 200 failed sign-ins from 200 clients, each with a different 4 KiB user id, then the same again
        for _ in 0..<2 {
            for index in 0..<200 {
                let id = UserID(String(repeating: "x", count: 4_088) + String(format: "%08d", index))
                _ = try authority.signIn(id, password: "x", client: "10.0.\(index / 100).\(index % 100)")
            }
        }

        // Then one entry of each client and id and one of each client are remembered — each a 32-byte digest
        #expect(authority.trackedFailures == 400)
    }

    @Test func aUserHoldsABoundedNumberOfSessionsTheOldestEndsFirst() async throws {
        // Given 32 sessions of mine, a second apart
        var tokens: [String] = []
        for _ in 0..<SignInAuthority.maxSessionsPerUser {
            guard case .granted(let token, _) = try authority.signIn("me", password: "right") else { return }
            tokens.append(token)
            await clock.advance(by: .seconds(1))
        }

        // When I sign in once more
        _ = try authority.signIn("me", password: "right")

        // Then the oldest session has ended and the others still work
        #expect(authority.user(presenting: tokens[0]) == nil)
        #expect(tokens.dropFirst().allSatisfy { authority.user(presenting: $0) == "me" })
    }
}
