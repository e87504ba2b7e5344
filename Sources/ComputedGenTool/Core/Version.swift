/// The version of ComputedGen: the one `ComputedGenTool --version` prints and the language server
/// reports as its `serverInfo`. `CHANGELOG.md` has an entry for it (`scripts/check-changelog.sh`,
/// run by CI, checks that), and the README's `from:` line names it.
public enum ComputedGenVersion {
    /// The version as `MAJOR.MINOR.PATCH` (semantic versioning; before 1.0, a minor version may
    /// change the public API, as `CHANGELOG.md` says).
    public static let string = "0.1.0"
}
