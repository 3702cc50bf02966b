/// A user signed in on a homeserver: who they are and the credentials of one of their devices.
struct MatrixAccount: Hashable, Sendable {
    /// The full Matrix id, `@ben-1f2e:localhost`.
    let userID: String
    /// The device's access token, sent as `Authorization: Bearer`.
    let accessToken: String
    /// The device the token belongs to: the scope of the homeserver's transaction ids.
    let deviceID: String
    /// The password the user was registered with, for another login (a new device).
    let password: String

    /// The account a `/register` or `/login` answer describes, or nil when the answer lacks a field.
    init?(answer: [String: Any], password: String) {
        guard let userID = answer["user_id"] as? String, let accessToken = answer["access_token"] as? String,
            let deviceID = answer["device_id"] as? String
        else { return nil }
        self.userID = userID
        self.accessToken = accessToken
        self.deviceID = deviceID
        self.password = password
    }
}
