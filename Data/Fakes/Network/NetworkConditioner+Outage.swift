import CourierData
import CourierDomain
import Foundation

extension NetworkConditioner {
    /// Takes the backend down and up again every `period`, starting down, until `total` has passed on the clock (then
    /// it stays up): a server that flaps. Returns the task, which a caller may cancel (the backend is then up).
    @discardableResult
    public func flap(every period: Duration, for total: Duration) -> TrackedTask<Void> {
        let clock = self.clock
        let end = clock.now.addingTimeInterval(total.timeInterval)
        return clock.task { [weak self] in
            var down = true
            while clock.now < end, !Task.isCancelled {
                self?.isRefusing = down
                down.toggle()
                let next = min(end, clock.now.addingTimeInterval(period.timeInterval))
                if (try? await clock.sleep(until: next)) == nil { break }
            }
            self?.isRefusing = false
        }
    }
}
