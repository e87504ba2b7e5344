// The model types Todo.statespec refers to: plain Swift, written by hand.

struct Todo: Equatable, Sendable {
    var title: String
    var owner: String
    var done = false
}

enum Filter: String, Equatable, Sendable {
    case all, active, done

    func includes(_ todo: Todo) -> Bool {
        switch self {
        case .all: true
        case .active: !todo.done
        case .done: todo.done
        }
    }
}
