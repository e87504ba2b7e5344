import Foundation

/// How far the random and property tests go.
///
/// `swift test` runs each of them at its *quick* size: every kind of operation several times
/// over, in seconds, so that a contributor's whole suite stays in minutes on two cores. CI and
/// anyone chasing a bug run the *deep* size, 4 to 10 times as many operations, with
/// `COMPUTEDGEN_DEEP_TESTS=1` (CI runs those suites by name; see `.ci/run`). The seeds are the
/// same at both sizes, so a quick run is a prefix of the deep one's work.
public enum TestDepth {
    /// Whether `COMPUTEDGEN_DEEP_TESTS=1` is set.
    public static let isDeep = ProcessInfo.processInfo.environment["COMPUTEDGEN_DEEP_TESTS"] == "1"

    /// `quick` in `swift test`, `deep` when ``isDeep``.
    public static func size(quick: Int, deep: Int) -> Int {
        isDeep ? deep : quick
    }
}
