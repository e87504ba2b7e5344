#if canImport(Glibc)
import Dispatch
import Glibc

/// Linux: one inotify instance for the whole process, shared by every watched folder (inotify
/// instances are limited per user, 128 by default; watches are not). It exists while something
/// is watched: the descriptor is closed when the last watch goes away.
final class InotifyCenter: @unchecked Sendable {
    // Safety: `state` is reached only under its lock; the queue serializes event reading.

    static let shared = InotifyCenter()

    private struct Watch {
        var descriptor: Int32
        var name: String
        var handler: @Sendable (_ lost: Bool) -> Void
    }

    private struct State {
        var instance: Int32 = -1
        var source: (any DispatchSourceRead)?
        var watches: [UInt64: Watch] = [:]
        var nextID: UInt64 = 0
    }

    private let state = LockedBox(State())
    private let queue = DispatchQueue(label: "ComputedRuntime.Shared.inotify")

    /// What changes a file's entry in a folder, or the folder itself.
    private static let mask = UInt32(
        IN_CREATE | IN_DELETE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_ATTRIB
            | IN_DELETE_SELF | IN_MOVE_SELF
    )

    /// The number of open inotify descriptors this center holds (0 or 1), for tests.
    var openDescriptorCount: Int {
        state.withLock { $0.instance >= 0 ? 1 : 0 }
    }

    /// Calls `handler` (on the center's queue) after each change to the entry `name` in
    /// `directory`, or to the folder itself; `lost` says that the folder was deleted or moved,
    /// which ends the watch. Returns a token for ``remove(_:)``, or `nil` when
    /// inotify cannot watch the folder (it does not exist, or no instance or watch is left):
    /// then the caller polls.
    func add(directory: String, name: String, handler: @escaping @Sendable (_ lost: Bool) -> Void) -> UInt64? {
        state.withLock { state -> UInt64? in
            if state.instance < 0 {
                let instance = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
                guard instance >= 0 else { return nil }
                let source = DispatchSource.makeReadSource(fileDescriptor: instance, queue: queue)
                source.setEventHandler { [weak self] in self?.readEvents(from: instance) }
                source.setCancelHandler { _ = Glibc.close(instance) }
                source.resume()
                state.instance = instance
                state.source = source
            }
            let descriptor = inotify_add_watch(state.instance, directory, Self.mask)
            guard descriptor >= 0 else {
                if state.watches.isEmpty { Self.shutDown(&state) }
                return nil
            }
            state.nextID += 1
            state.watches[state.nextID] = Watch(descriptor: descriptor, name: name, handler: handler)
            return state.nextID
        }
    }

    /// Stops a watch; the last one closes the inotify descriptor.
    func remove(_ id: UInt64) {
        state.withLock { state in
            guard let watch = state.watches.removeValue(forKey: id) else { return }
            if state.watches.isEmpty {
                Self.shutDown(&state)
            } else if !state.watches.values.contains(where: { $0.descriptor == watch.descriptor }) {
                // One folder watched for several files shares one inotify watch.
                _ = inotify_rm_watch(state.instance, watch.descriptor)
            }
        }
    }

    private static func shutDown(_ state: inout State) {
        // The cancel handler closes the descriptor once no event handler is running.
        state.source?.cancel()
        state.source = nil
        state.instance = -1
    }

    /// Reads every queued event and calls the handlers of the watches they concern.
    private func readEvents(from instance: Int32) {
        let capacity = 64 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
        defer { buffer.deallocate() }
        var touched: [(descriptor: Int32, name: String?)] = []
        var lost: Set<Int32> = []
        var overflow = false
        while true {
            let count = read(instance, buffer, capacity)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            var offset = 0
            while offset + 16 <= count {
                let descriptor = buffer.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                let mask = buffer.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                let length = Int(buffer.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                var name: String?
                if length > 0 {
                    let bytes = UnsafeRawBufferPointer(start: buffer + offset + 16, count: length)
                    name = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
                }
                if mask & UInt32(IN_Q_OVERFLOW) != 0 { overflow = true }
                if mask & UInt32(IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF) != 0 { lost.insert(descriptor) }
                touched.append((descriptor, name))
                offset += 16 + length
            }
        }
        let handlers = state.withLock { state in
            state.watches.values.filter { watch in
                overflow || touched.contains { $0.descriptor == watch.descriptor && ($0.name == nil || $0.name == watch.name) }
            }.map { ($0.handler, lost.contains($0.descriptor)) }
        }
        for (handler, isLost) in handlers {
            handler(isLost)
        }
    }
}

/// Linux: the changes to one file's entry in its folder, through ``InotifyCenter``.
final class DirectoryEvents: @unchecked Sendable {
    // Safety: immutable.
    private let id: UInt64

    init?(directory: String, name: String, onEvent: @escaping @Sendable (_ lost: Bool) -> Void) {
        guard let id = InotifyCenter.shared.add(directory: directory, name: name, handler: onEvent) else { return nil }
        self.id = id
    }

    func cancel() {
        InotifyCenter.shared.remove(id)
    }
}
#endif
