import CourierDomain

/// The user cache takes the profile screen's local edits (`update`, `invalidate`).
extension UserCache: EditableUserDirectory {}
