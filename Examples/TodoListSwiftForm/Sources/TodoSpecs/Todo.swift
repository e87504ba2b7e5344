// The model types Todo.state.swift refers to: plain Swift, written by hand. They are `package`, so
// that the TodoState generated in the TodoList target reads them too.

package struct Todo: Equatable, Sendable {
    package var title: String
    package var owner: String
    package var done = false

    package init(title: String, owner: String, done: Bool = false) {
        self.title = title
        self.owner = owner
        self.done = done
    }
}

package enum Filter: String, Equatable, Sendable {
    case all, active, done

    package func includes(_ todo: Todo) -> Bool {
        switch self {
        case .all: true
        case .active: !todo.done
        case .done: todo.done
        }
    }
}
