#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A record body of a version above the one this build writes: written by a newer build. The outbox refuses to
/// open on it rather than skip it, since skipping would lose the record at the next compaction.
package struct RecordNewerVersion: Error {
    let version: UInt8
}
