import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Process {
    /// Sends SIGKILL at once: the child gets no chance to finish what it is doing (a crash, as far as its files
    /// can tell).
    func killAtOnce() {
        #if canImport(Glibc)
            _ = Glibc.kill(processIdentifier, SIGKILL)
        #else
            _ = Darwin.kill(processIdentifier, SIGKILL)
        #endif
    }
}
