import CourierData
import CourierDomain
import CourierFakes
import CourierOneShot
import CourierPresentation
import Foundation

/// The commands that change the world and the app's settings: network, toast, policy, sign-in, profile, time.
extension Driver {
    // MARK: - Network, toast, policy, auth

    func network(_ arguments: String) throws -> Render {
        let parts = arguments.split(separator: " ").map(String.init)
        let network = world.network
        switch (parts.first, parts.count) {
        case ("online", 1): network.setOnline(true)
        case ("offline", 1): network.setOnline(false)
        case ("profile", 2):
            guard let profile = NetworkProfile(rawValue: parts[1]) else {
                throw DriverError.badArguments("unknown profile \(parts[1]) (wifi, 3g or flaky)")
            }
            network.profile = profile
        case ("fail-rate", 2):
            guard let rate = Double(parts[1]), rate >= 0, rate <= 1 else {
                throw DriverError.badArguments("fail-rate takes a number from 0 to 1, not \(parts[1])")
            }
            network.failRate = rate
        case ("server", 2) where ["down", "hang", "up"].contains(parts[1]):
            guard network.remote == nil else {
                throw DriverError.failed("with --server, stop, freeze or start the courier-server itself")
            }
            network.isRefusing = parts[1] == "down"
            network.isHanging = parts[1] == "hang"
        default:
            throw DriverError.badArguments(
                "usage: network online|offline | network profile wifi|3g|flaky | "
                    + "network fail-rate P | network server down|hang|up")
        }
        return {
            let failing = network.failRate > 0 ? ", \(Int((network.failRate * 100).rounded())) % of requests fail" : ""
            let state = network.isOnline ? "online" : "offline"
            let server = network.isRefusing ? ", server down" : network.isHanging ? ", server hangs" : ""
            return Output(lines: ["network: \(state), \(network.profile.rawValue)\(failing)\(server)"])
        }
    }

    func toast(_ arguments: String) throws -> Render {
        let banner = app.messaging.banner
        // The answer is printed in the toast's own words (its buttons' labels).
        let toast = banner.state.toast
        do {
            switch arguments {
            case "yes": try banner.acceptToast()
            case "review":
                try banner.reviewToast()
                return { Output(lines: ["answered the toast: \(toast.reviewFirstLabel)"] + self.queueOutput().lines) }
            case "dismiss": try banner.dismissToast()
            default: throw DriverError.badArguments("usage: toast yes|review|dismiss")
            }
        } catch let error as DriverError {
            throw error
        } catch {
            throw DriverError.failed("\(error)")
        }
        let answer = arguments == "yes" ? toast.yesLabel : arguments
        return { Output(lines: ["answered the toast: \(answer)"]) }
    }

    func policy(_ arguments: String) throws -> Render {
        switch arguments {
        case "manual": app.client.outbox.policy = .manual
        case "auto", "automatic": app.client.outbox.policy = .automatic
        default: throw DriverError.badArguments("usage: policy manual|auto")
        }
        world.settings.policy = app.client.outbox.policy
        return { Output(lines: ["policy: \(arguments == "manual" ? "manual" : "auto")"]) }
    }

    /// `auth expire|renew`: in process, the backend answers unauthorized until renewed; with `--server`, the server
    /// makes this driver's token expire (a real expiry: every request answers 401), and renewing signs in again.
    func auth(_ arguments: String) async throws -> Render {
        switch arguments {
        case "expire":
            try requireCourierBackend("auth expire")
            if let remote = courierServer {
                do { try await remote.expireSignIn() } catch { throw DriverError.failed("auth expire: \(error)") }
            }
            world.backend.isSignInExpired = true
        case "renew":
            if let matrix = world.network.remote as? any MatrixConnectionClient {
                do { try await matrix.renewSignIn() } catch { throw DriverError.failed("auth renew: \(error)") }
            }
            if let remote = courierServer {
                do { try await remote.signIn() } catch { throw DriverError.failed("auth renew: \(error)") }
            }
            world.backend.isSignInExpired = false
            app.client.signInRenewed()
        default: throw DriverError.badArguments("usage: auth expire|renew")
        }
        return { Output(lines: ["auth: \(self.world.backend.isSignInExpired ? "expired" : "signed in")"]) }
    }

    func profile(_ arguments: String) async throws -> Render {
        guard arguments.hasPrefix("name ") || arguments == "name" else {
            throw DriverError.badArguments("usage: profile name TEXT…")
        }
        let name = String(arguments.dropFirst(4)).trimmingCharacters(in: .whitespaces)
        do {
            try app.profile.changeDisplayName(to: name)
        } catch {
            throw DriverError.failed("\(error)")
        }
        return { Output(lines: ["display name: \(name) (\(self.app.profile.state.pendingCount) write(s) pending)"]) }
    }

    // MARK: - Time and lifecycle

    func advance(_ arguments: String) async throws -> Render {
        guard let duration = DurationText.parse(arguments) else {
            throw DriverError.badArguments("usage: advance DURATION (500ms, 10s, 5m, 2h, 8d)")
        }
        if let clock = world.manualClock {
            await clock.advance(by: duration)
        } else {
            try? await Task.sleep(nanoseconds: UInt64(duration.timeInterval * 1e9))
        }
        return { Output(lines: ["clock: \(StateDocument.iso8601(self.world.clock.now))"]) }
    }

    func lifecycle(_ word: String, _ arguments: String) throws -> Render {
        try noArguments(word, arguments)
        if word == "background" { app.enterBackground() } else { app.enterForeground() }
        return { Output(lines: [word]) }
    }
}
