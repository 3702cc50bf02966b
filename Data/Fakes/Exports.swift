// An app or a test that imports CourierFakes sees the demo roster and the network profiles as before: they live in
// CourierDemoWorld, which the one-shot send reads without the simulated world, and CourierFakes hands them on.
@_exported import CourierDemoWorld
