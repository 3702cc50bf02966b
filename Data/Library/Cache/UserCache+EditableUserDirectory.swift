import CourierDomain
import CourierStore

/// The user cache takes the profile screen's local edits (`update`, `invalidate`).
extension UserCache: EditableUserDirectory {}
