import CourierDomain
import Testing

/// What a fake repository throws when a test asks of it something it was not set up for. The fake also records the
/// call as a test issue, so the test fails even where the code under test swallows the error.
public enum FakeCallError: Error, Equatable, CustomStringConvertible {
    /// A request after the script ran out: the request's number, counting from 1.
    case unscripted(request: Int)
    /// A per-message batch answer scripted for a request that is not a batch.
    case batchAnswerForSingleRequest(request: Int)
    /// A kind of request the fake was told never to expect, by the requirement's name.
    case unexpected(String)
    /// An argument no caller should pass (a negative page size), described.
    case invalidArgument(String)

    /// Says what went wrong, for the test's failure message.
    public var description: String {
        switch self {
        case .unscripted(let request): "request \(request) came after the script ran out"
        case .batchAnswerForSingleRequest(let request):
            "request \(request) is not a batch, but a batch answer was scripted for it"
        case .unexpected(let requirement): "\(requirement) was not expected"
        case .invalidArgument(let argument): "invalid argument: \(argument)"
        }
    }
}

extension FakeCallError {
    /// What a fake repository throws for this under its protocol's typed `throws(DeliveryError)`: `unknown`, with
    /// this description.
    public var deliveryError: DeliveryError { .unknown(description) }

    /// Records this as an issue of the running test, naming `fake`, and returns it to be thrown.
    func recorded(by fake: String) -> FakeCallError {
        Issue.record("\(fake): \(self)")
        return self
    }
}
