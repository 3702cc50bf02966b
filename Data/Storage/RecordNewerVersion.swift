import Foundation

/// A record written by a newer build: refused rather than skipped, since skipping would lose it on compaction.
struct RecordNewerVersion: Error {
    let version: UInt8
}
