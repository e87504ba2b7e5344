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

/// Deliberately not `Equatable`: `@Edge` compares it by version only.
public struct Avatar: Sendable {
    public var url: String

    public init(url: String) {
        self.url = url
    }
}
