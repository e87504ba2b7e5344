// Types the fixture specs refer to. Compiled with the golden outputs in the GoldenStates target.

public struct Todo: Hashable, Codable, Sendable {
    public var title: String
    public var done: Bool
    public var owner: Int

    public init(title: String, done: Bool = false, owner: Int = 0) {
        self.title = title
        self.done = done
        self.owner = owner
    }
}

public enum Filter: String, Hashable, Codable, Sendable {
    case all
    case active
    case done

    public func includes(_ todo: Todo) -> Bool {
        switch self {
        case .all: true
        case .active: !todo.done
        case .done: todo.done
        }
    }
}

/// Deliberately not `Equatable`: `@Edge` compares it by version only. (`Codable` for the README's
/// `ProfileState: Codable`.)
public struct Avatar: Codable, Sendable {
    public var url: String

    public init(url: String) {
        self.url = url
    }
}

public struct Session: Hashable, Codable, Sendable {
    public var userName: String

    public init(userName: String = "guest") {
        self.userName = userName
    }
}

public struct Settings: Hashable, Codable, Sendable {
    public var fontSize: Double
    public var theme: String

    public init(fontSize: Double = 14, theme: String = "light") {
        self.fontSize = fontSize
        self.theme = theme
    }
}

import Foundation

/// Where the fixture specs' persisted `@Shared` fields live, away from the user's real storage.
public enum FixtureStorage {
    /// A UserDefaults suite of its own (UserDefaults is thread-safe, though not marked `Sendable`).
    nonisolated(unsafe) public static let defaults = UserDefaults(suiteName: "ComputedGen.Fixtures")!
    /// A file in the temporary directory.
    public static let settingsURL = FileManager.default.temporaryDirectory
        .appendingPathComponent("ComputedGen-fixture-settings-\(ProcessInfo.processInfo.processIdentifier).json")
}

/// A reference with no `Equatable` conformance, so that assigning it is always a change.
public final class Token: Sendable {
    public init() {}
}

/// An app's own protocol, which a spec's state adopts in its header (`Codable.statespec`): the
/// generated extension meets its requirement with the state's `theme` field.
public protocol ThemeProviding {
    var theme: String { get }
}
