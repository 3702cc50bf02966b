import CourierData
import CourierDomain
import Foundation

extension NetworkConditioner {
    /// Carries `work` (a request to the real server at `remote`) through the device side of the simulated network:
    /// offline refuses it at once, the profile's latency and loss and the fail rate apply as in `roundTrip` (the same
    /// `trip`), and going offline while the request is on the socket cuts it off with `.offline` (the server may have
    /// applied it: the unknown outcome that idempotent resends settle). The server's own latency and failures come
    /// on top.
    func remoteTrip<Value: Sendable>(_ work: @escaping @Sendable () async throws -> Value) async throws -> Value {
        try await trip {
            do { return .success(try await onSocket(work)) } catch { return .failure(error) }
        }
    }

    /// Runs `work` in a task that going offline cancels, like every other wait of a request.
    func onSocket<Value: Sendable>(_ work: @escaping @Sendable () async throws -> Value) async throws -> Value {
        let task = Task { try await work() }
        var wentOffline = false
        let cut = observe { online in
            guard !online else { return }
            wentOffline = true
            task.cancel()
        }
        defer { cut.cancel() }
        do {
            return try await withTaskCancellationHandler {
                try await task.value
            } onCancel: {
                task.cancel()
            }
        } catch {
            // Cut by going offline, even when the device is back online already: `.offline`, not the cancellation.
            if !isOnline || wentOffline { throw DeliveryError.offline }
            throw error
        }
    }
}
