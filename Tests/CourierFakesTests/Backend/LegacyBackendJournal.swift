import Foundation

/// Records as builds before the binary layout (and before the event feed) appended them to the backend journal:
/// JSON, dates in milliseconds since 1970. Two messages from `me` in `c2` (m1, then m0) and a name change between.
enum LegacyBackendJournal {
    static let records = [
        #"{"messageStored":{"_0":{"status":"sent","conversationID":"c2","senderID":"me","text":"hello","#
            + #""statusUpdatedAt":1700000000250,"sequence":4,"attempts":0,"timestamp":1700000000250,"id":"m1"}}}"#,
        #"{"displayNameChanged":{"user":"me","name":"Marta"}}"#,
        #"{"messageStored":{"_0":{"status":"sent","conversationID":"c2","senderID":"me","text":"before sequences","#
            + #""statusUpdatedAt":1700000000250,"attempts":0,"timestamp":1700000000250,"id":"m0"}}}"#,
    ].map { Data($0.utf8) }
}
