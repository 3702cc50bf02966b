import CourierData
import CourierDomain
import CourierServer
import CourierTestSupport
import Foundation
import Testing

/// Tokens as the server grants, checks, ends and remembers them, and sign-in throttling, on a manual clock.
@MainActor
@Suite(.removesTemporaryDirectories) final class SignInAuthorityTests {
    let directory: TemporaryDirectory
    let clock = ManualClock()
    var path: String { directory.url.appendingPathComponent("sessions.log").path }

    init() throws { directory = try TemporaryDirectory(prefix: "courier-sessions") }

    deinit { directory.remove() }

    private func open(lifetime: Duration = .seconds(60)) throws -> SignInAuthority {
        try SignInAuthority(path: path, clock: clock, tokenLifetime: lifetime) { user, password in
            ["me", "ben"].contains(user.rawValue) && password == "right"
        }
    }

    private func grant(_ authority: SignInAuthority, _ user: UserID = "me") throws -> (token: String, expiresAt: Date) {
        guard case .granted(let token, let expiresAt) = try authority.signIn(user, password: "right") else {
            throw DeliveryError.unauthorized
        }
        return (token, expiresAt)
    }

    @Test func aTokenIs256RandomBitsThatSignsItsUserInUntilItExpires() async throws {
        // Given two sign-ins of the same user
        let authority = try open()
        let first = try grant(authority)
        let second = try grant(authority)

        // Then each is 64 hex digits, they differ, each names its user, and each lives exactly its lifetime
        #expect(first.token.count == 64 && first.token.allSatisfy(\.isHexDigit) && first.token != second.token)
        #expect(authority.user(presenting: first.token) == "me" && authority.user(presenting: second.token) == "me")
        #expect(first.expiresAt == clock.now.addingTimeInterval(60))
        let oneDigitOff = String(first.token.dropLast()) + (first.token.last == "0" ? "1" : "0")
        #expect(authority.user(presenting: oneDigitOff) == nil)
        await clock.advance(by: .seconds(59))
        #expect(authority.user(presenting: first.token) == "me")
        await clock.advance(by: .seconds(1))
        #expect(authority.user(presenting: first.token) == nil)
        #expect(authority.liveSessions == 0)
    }

    @Test func aWrongPasswordAndAnUnknownUserAreTheSameRefusal() throws {
        let authority = try open()
        #expect(try authority.signIn("me", password: "wrong") == .refused)
        #expect(try authority.signIn("nobody", password: "right") == .refused)
        #expect(authority.liveSessions == 0)
    }

    @Test func aRestartKeepsLiveTokensAndForgetsRevokedOnesAndTheFileHoldsNoToken() throws {
        // Given two tokens, one revoked
        let authority = try open()
        let kept = try grant(authority)
        let revoked = try grant(authority, "ben")
        #expect(try authority.revoke(revoked.token))
        #expect(try !authority.revoke(revoked.token), "a second sign-out of the same token changes nothing")
        authority.close()

        // When the server starts again on the same journal
        let reopened = try open()

        // Then the live token still signs in, the revoked one does not, and no token is written in the file
        #expect(reopened.user(presenting: kept.token) == "me")
        #expect(reopened.user(presenting: revoked.token) == nil)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(bytes.range(of: Data(kept.token.utf8)) == nil)
        #expect(bytes.range(of: Data(SHA256.hex(of: kept.token).utf8)) != nil)
    }

    @Test func fiveFailuresLockTheUserOutAndEachFurtherLockoutDoublesUpToFifteenMinutes() async throws {
        // Given five wrong passwords
        let authority = try open()
        for _ in 0..<5 { #expect(try authority.signIn("me", password: "wrong") == .refused) }

        // Then even the right one is throttled for 30 s, and another user is not
        #expect(try authority.signIn("me", password: "right") == .throttled(retryAfter: 30))
        #expect(try grant(authority, "ben").token.count == 64)
        await clock.advance(by: .seconds(29))
        #expect(try authority.signIn("me", password: "right") == .throttled(retryAfter: 1))

        // And each further run of five failures locks for twice as long, never more than 15 minutes
        var lockouts: [Int] = []
        for _ in 0..<7 {
            await clock.advance(by: .seconds(901))
            for _ in 0..<5 { _ = try authority.signIn("me", password: "wrong") }
            guard case .throttled(let wait) = try authority.signIn("me", password: "wrong") else { break }
            lockouts.append(wait)
        }
        #expect(lockouts == [60, 120, 240, 480, 900, 900, 900])

        // And a success clears the count
        await clock.advance(by: .seconds(901))
        _ = try grant(authority)
        for _ in 0..<4 { _ = try authority.signIn("me", password: "wrong") }
        #expect(try grant(authority).token.count == 64)
    }
}
