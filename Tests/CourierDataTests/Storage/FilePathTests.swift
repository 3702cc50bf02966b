import CourierStore
import Foundation
import Testing

/// `FilePath.parent(of:)` replaces `NSString.deletingLastPathComponent` where the stores sync a file's directory:
/// it must name the same directory.
@Suite("FilePath.parent")
struct FilePathTests {
    @Test(
        "the parent of every shape of path is the one NSString names",
        arguments: [
            "/a/b", "/a/b/", "/a", "/", "a/b", "a/b/", "/a/b/c.log", "//a", "/a//b", "", "/tmp/x/client/outbox.log",
        ])
    func matchesNSString(_ path: String) {
        #expect(FilePath.parent(of: path) == (path as NSString).deletingLastPathComponent)
    }

    @Test("a bare name, with or without slashes after it, has no parent here, where Foundation on Linux traps on it")
    func bareName() {
        // `("a" as NSString).deletingLastPathComponent` stops the process with an illegal instruction on Linux.
        #expect(FilePath.parent(of: "a") == "")
        #expect(FilePath.parent(of: "a//") == "")
        #expect(FilePath.parent(of: "a/b//") == "a")
    }
}
