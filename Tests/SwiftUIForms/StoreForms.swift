// SwiftUI forms bound to stores, type-checked on Linux by scripts/check-darwin.sh against the
// runtime and the golden states of Fixtures/Generated, with `SwiftUI` the stand-in module
// compiled from Tests/Helpers/AppleSDKNames/SwiftUI.swift (Apple's declarations of `Binding`,
// `Bindable`, `View`, `Form`, `TextField`, `Toggle`, `Picker`, `Slider`). Never run: it proves
// that `@Bindable var store: Store<…>` gives the bindings these controls take. The script also
// checks that a binding to a computed value is rejected, with this message:
// check-darwin expects: cannot assign to property: 'visibleCount' is a get-only property
import ComputedRuntime
import SwiftUI

/// A search form: each control writes one field through the store, as a commit.
struct TodoFilterForm: View {
    @Bindable var store: Store<TodoState>

    var body: some View {
        Form {
            TextField("Search", text: $store.query)          // commits `query`
            Picker("Show", selection: $store.filter) {       // commits `filter`
                Text("All").tag(Filter.all)
                Text("Active").tag(Filter.active)
                Text("Done").tag(Filter.done)
            }
            Text("\(store.computed.visibleCount) shown")     // re-renders when visibleCount changes
        }
    }
}

/// One todo, through a scoped store (`store.scope(\.todos[index])`): a toggle bound to a member
/// of an array element, committed through the parent store.
struct TodoRowEditor: View {
    @Bindable var todo: Store<Todo>

    var body: some View {
        Form {
            TextField("Title", text: $todo.title)
            Toggle("Done", isOn: $todo.done)
        }
    }
}

/// A view without `@Bindable`: `Bindable(store)` makes the bindings inline.
struct TodoSearchField: View {
    let store: Store<TodoState>

    var body: some View {
        TextField("Search", text: Bindable(store).query)
    }
}

/// A nested generated state's member (`store.shelf.label`, committed in place) and a field.
struct LibraryForm: View {
    @Bindable var store: Store<Library>

    var body: some View {
        Form {
            TextField("Library", text: $store.name)
            TextField("Shelf", text: $store.shelf.label)
            Text("\(store.shelf.computed.total) books")
        }
    }
}

/// A slider and a text field over a generated state's fields, and a slider over a member of a
/// plain struct field (`settings.fontSize`: read, changed and written back as a whole `settings`).
struct SettingsForm: View {
    @Bindable var settings: Store<SettingsState>
    @Bindable var app: Store<AppState>

    var body: some View {
        Form {
            Slider(value: $settings.fontSize, in: 10...30)
            TextField("Theme", text: $settings.theme)
            Slider(value: $app.settings.fontSize, in: 10...30)
            TextField("Title", text: $app.title)
        }
    }
}

/// A parent that hands each child the store or the scope it binds to.
struct TodoScreen: View {
    let store: Store<TodoState>
    let firstRow: Store<Todo>

    init(store: Store<TodoState>) {
        self.store = store
        firstRow = store.scope(\.todos[0])   // held by the view: a scope lasts as long as it is held
    }

    var body: some View {
        Form {
            TodoFilterForm(store: store)
            TodoRowEditor(todo: firstRow)
            TodoSearchField(store: store)
        }
    }
}
