import CourierServer
import Testing

/// SHA-256 against the published test vectors (FIPS 180-2 examples), across block boundaries, and the constant-time
/// comparison the server checks token digests with.
@Suite struct SHA256Tests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        (
            "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrst"
                + "nopqrstu",
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
        ),
    ])
    func publishedVectors(input: String, digest: String) {
        #expect(SHA256.hex(of: input) == digest)
    }

    @Test func aMillionAsCrossesManyBlocks() {
        let digest = SHA256.hexString(SHA256.digest([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)))
        #expect(digest == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func paddingAtEveryLengthAroundABlockGivesDistinctDigests() {
        // 55, 56 and 64 bytes are where the length field spills into a second block
        let digests = (50...70).map { SHA256.hexString(SHA256.digest([UInt8](repeating: 0x61, count: $0))) }
        #expect(Set(digests).count == digests.count)
        #expect(digests.allSatisfy { $0.count == 64 })
        #expect(
            SHA256.hex(of: String(repeating: "a", count: 64))
                == "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb")
    }

    @Test func constantTimeEqualityIsEqualityOfWholeDigests() {
        let digest = SHA256.digest(Array("token".utf8))
        var lastByte = digest
        lastByte[31] ^= 1
        #expect(SHA256.constantTimeEqual(digest, digest))
        #expect(!SHA256.constantTimeEqual(digest, lastByte))
        #expect(!SHA256.constantTimeEqual(digest, Array(digest.prefix(31))))
    }
}
