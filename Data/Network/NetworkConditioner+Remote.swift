import CourierDomain
import Foundation

extension NetworkConditioner {
    /// Carries `work` (a request to the real server at `remote`) through the device side of the simulated network:
    /// offline refuses it at once, the profile's latency and loss and the fail rate apply as in `roundTrip`, and going
    /// offline while the request is on the socket cuts it off with `.offline` (the server may have applied it: the
    /// unknown outcome that idempotent resends settle). The server's own latency and failures come on top.
    func remoteTrip<Value: Sendable>(_ work: @escaping @Sendable () async throws -> Value) async throws -> Value {
        guard isOnline else { throw DeliveryError.offline }
        roundTrips += 1
        let start = clock.now
        let (latency, fate) = draw()
        let timeoutDeadline = start.addingTimeInterval(requestTimeout.timeInterval)
        try await wait(until: start.addingTimeInterval(latency / 2))
        switch fate {
        case .requestLost:
            try await wait(until: timeoutDeadline)
            throw DeliveryError.timeout
        case .serverError:
            try await wait(until: start.addingTimeInterval(latency))
            throw DeliveryError.server(code: 503)
        case .responseLost:
            _ = try? await onSocket(work)
            try await wait(until: timeoutDeadline)
            throw DeliveryError.timeout
        case .delivered:
            let answer = try await onSocket(work)
            try await wait(until: start.addingTimeInterval(latency))
            return answer
        }
    }

    /// Runs `work` in a task that going offline cancels, like every other wait of a request.
    private func onSocket<Value: Sendable>(_ work: @escaping @Sendable () async throws -> Value) async throws -> Value {
        let task = Task { try await work() }
        let cut = observe { online in if !online { task.cancel() } }
        defer { cut.cancel() }
        do {
            return try await withTaskCancellationHandler { try await task.value } onCancel: { task.cancel() }
        } catch {
            if !isOnline { throw DeliveryError.offline }
            throw error
        }
    }
}
