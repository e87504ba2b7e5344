/// The process-wide table from storage keys to shared references.
///
/// In-memory values are kept for the life of the process (a key keeps its value even while
/// nothing holds it). File- and `UserDefaults`-backed references are held weakly: the last
/// holder's release flushes pending writes and stops the watcher, and the next holder loads the
/// storage again.
enum SharedRegistry {
    private enum Entry {
        case strong(AnyObject)
        case weak(WeakReference)
    }

    private final class WeakReference {
        weak var object: AnyObject?

        init(_ object: AnyObject) {
            self.object = object
        }
    }

    private static let entries = LockedBox<[String: Entry]>([:])

    /// How long the registry keeps a reference.
    enum Retention {
        case process
        case whileHeld
    }

    /// The reference for `key`, made by `make` when there is none. A reference of another value
    /// type is not reused: the caller gets a fresh, unshared one carrying a ``SharedError/typeMismatch(key:expected:existing:)``.
    static func box<Value: Sendable>(
        for key: String,
        retention: Retention,
        make: () -> SharedBox<Value>
    ) -> SharedBox<Value> {
        entries.withLock { entries in
            let existing: AnyObject? = switch entries[key] {
            case .strong(let object): object
            case .weak(let reference): reference.object
            case nil: nil
            }
            if let existing {
                if let box = existing as? SharedBox<Value> {
                    return box
                }
                let error = SharedError.typeMismatch(
                    key: key,
                    expected: String(reflecting: Value.self),
                    existing: typeName(of: existing)
                )
                reportSharedIssue(error)
                let fresh = make()
                return SharedBox(value: fresh.value, key: nil, loadError: error)
            }
            let box = make()
            entries[key] = switch retention {
            case .process: .strong(box)
            case .whileHeld: .weak(WeakReference(box))
            }
            return box
        }
    }

    /// `SharedBox<Foo>` → `Foo`, for messages.
    private static func typeName(of object: AnyObject) -> String {
        let name = String(reflecting: type(of: object))
        guard let open = name.firstIndex(of: "<"), name.hasSuffix(">") else { return name }
        return String(name[name.index(after: open)..<name.index(before: name.endIndex)])
    }
}
