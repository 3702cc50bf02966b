#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The data-protection class of the files a `PosixFileSystem` creates, on the Apple platforms that encrypt files
/// with the passcode (iOS, iPadOS, tvOS, watchOS, visionOS); elsewhere it is recorded and has no effect.
///
/// The default, `completeUntilFirstUserAuthentication`, keeps the stores readable after the first unlock since the
/// device started, so a locked phone can still send queued messages and apply what arrives in the background; an
/// app that never works in the background may choose `complete`.
public enum FileProtection: String, Hashable, Sendable, CaseIterable {
    /// Readable only while the device is unlocked.
    case complete
    /// Readable while unlocked, and files opened before the lock stay open.
    case completeUnlessOpen
    /// Readable from the first unlock after a restart on.
    case completeUntilFirstUserAuthentication
    /// No data protection beyond the disk's.
    case none

    #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        /// Foundation's name of the class.
        var foundationValue: FileProtectionType {
            switch self {
            case .complete: .complete
            case .completeUnlessOpen: .completeUnlessOpen
            case .completeUntilFirstUserAuthentication: .completeUntilFirstUserAuthentication
            case .none: .none
            }
        }
    #endif
}
