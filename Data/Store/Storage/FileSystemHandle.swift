import CourierDomain

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// An open file, as a file system hands it out. Only the file system that opened it may use it.
public struct FileSystemHandle: Hashable, Sendable {
    /// The descriptor number (a POSIX file descriptor for `PosixFileSystem`; any unique number for a simulation).
    public let rawValue: Int32
    /// Wraps a descriptor number.
    public init(rawValue: Int32) { self.rawValue = rawValue }
}
