// An app that imports CourierData sees the outbox, the stores and the id space as before: they live in CourierStore,
// the target an app extension links alone (docs/architecture.md), and CourierData hands them on.
@_exported import CourierStore
