// What runs the driver sees its options, files and one-shot send as before: they live in CourierOneShot, which
// `courier` runs a one-shot send on without the driver, and CourierApp hands them on.
@_exported import CourierOneShot
