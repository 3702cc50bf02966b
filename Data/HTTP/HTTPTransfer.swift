import CourierData
import CourierDomain
import CourierStore
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One request on `URLSession`, the way every HTTP backend of Courier's makes it: the answer whatever its status, a
/// transport failure as the `DeliveryError` the retry policy understands, and a cancelled caller's request cancelled.
package enum HTTPTransfer {
    /// An ephemeral session whose requests give up after `seconds`, with at most `connections` per host and no
    /// cache: what every HTTP backend of Courier's sends on.
    package static func session(timeout seconds: TimeInterval, connections: Int) -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = seconds
        configuration.timeoutIntervalForResource = seconds
        configuration.httpMaximumConnectionsPerHost = connections
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        return URLSession(configuration: configuration)
    }

    /// Runs `request` on `session`; returns the body and the response of any status. A cancelled caller cancels the
    /// request (`cancelled`); a transport failure throws `deliveryError(for:)`.
    package static func perform(_ request: URLRequest, on session: URLSession) async throws(DeliveryError) -> (
        Data, HTTPURLResponse
    ) {
        let box = TaskBox()
        let answer = await withTaskCancellationHandler {
            await withCheckedContinuation {
                (continuation: CheckedContinuation<Result<(Data, HTTPURLResponse), DeliveryError>, Never>) in
                let task = session.dataTask(with: request) { data, response, error in
                    if let error {
                        continuation.resume(returning: .failure(deliveryError(for: error)))
                    } else if let response = response as? HTTPURLResponse {
                        continuation.resume(returning: .success((data ?? Data(), response)))
                    } else {
                        continuation.resume(returning: .failure(.unknown("no HTTP response")))
                    }
                }
                box.set(task)
                task.resume()
            }
        } onCancel: {
            box.cancel()
        }
        return try answer.get()
    }

    /// The `DeliveryError` of a transport failure: no connection could be made → `.unreachable`; the backend accepted
    /// it and said nothing within the session's bound (a frozen server, a captive portal: "lie-fi") → `.unanswered`
    /// (both connectivity states: the message waits queued and the reachability probe says when the backend
    /// answers; an unanswered write may have arrived, and is resent under the same id, which the backend stores
    /// once); a connection lost
    /// mid-answer or an answer that cannot be read → `.timeout` (the backend may have applied the write, and the
    /// idempotent resend settles it).
    package static func deliveryError(for error: any Error) -> DeliveryError {
        guard let urlError = error as? URLError else { return DeliveryError.unknown("\(error)") }
        switch urlError.code {
        case .cancelled: return DeliveryError.cancelled
        case .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet:
            return DeliveryError.unreachable
        case .timedOut: return DeliveryError.unanswered
        case .networkConnectionLost, .badServerResponse, .cannotParseResponse:
            return DeliveryError.timeout
        default: return DeliveryError.timeout
        }
    }
}

/// The running task, cancellable from the cancellation handler (which may run before the task exists).
private final class TaskBox: @unchecked Sendable {
    private let lock = NSLock()
    private var task: URLSessionDataTask?
    private var cancelled = false

    func set(_ task: URLSessionDataTask) {
        let cancelNow = lock.withLock {
            self.task = task
            return cancelled
        }
        if cancelNow { task.cancel() }
    }

    func cancel() {
        let task = lock.withLock {
            cancelled = true
            return self.task
        }
        task?.cancel()
    }
}
