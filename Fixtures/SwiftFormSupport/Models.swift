// The fixture specs' model types (Fixtures/Support, compiled in GoldenStates), for the Swift-form
// fixtures: a target's sources cannot overlap another's, so SwiftFormFixtures imports them.
@_exported import GoldenStates
