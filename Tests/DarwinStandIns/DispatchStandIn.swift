// Stand-in for the parts of Apple's `Dispatch` that ComputedRuntime's `#if canImport(Darwin)`
// branches use and swift-corelibs-libdispatch leaves out on Linux, for scripts/check-darwin.sh.
// Linux's Dispatch cannot be extended under its own module name, so this module adds Apple's
// declarations beside it and the check imports it implicitly into every runtime file (on Apple
// platforms Foundation re-exports Dispatch, and every file that uses these imports Foundation).
// Never linked or run: bodies trap.
//
// Shared with Linux and so not redeclared: `DispatchSource.FileSystemEvent` (the same OptionSet
// of `UInt` with `.delete`, `.write`, `.extend`, `.attrib`, `.link`, `.rename`, `.revoke`,
// `.funlock`, `.all`: https://developer.apple.com/documentation/dispatch/dispatchsource/filesystemevent),
// `DispatchSourceProtocol` with `setEventHandler`/`setCancelHandler`/`resume`/`cancel`, and
// `DispatchQueue.global()`.

import Dispatch

// https://developer.apple.com/documentation/dispatch/dispatchsourcefilesystemobject
//   protocol DispatchSourceFileSystemObject : DispatchSourceProtocol, Sendable
//   var handle: Int32 { get }
//   var data: DispatchSource.FileSystemEvent { get }
//   var mask: DispatchSource.FileSystemEvent { get }
public protocol DispatchSourceFileSystemObject: DispatchSourceProtocol, Sendable {
    var handle: Int32 { get }
    var data: DispatchSource.FileSystemEvent { get }
    var mask: DispatchSource.FileSystemEvent { get }
}

extension DispatchSource {
    // https://developer.apple.com/documentation/dispatch/dispatchsource/makefilesystemobjectsource(filedescriptor:eventmask:queue:)
    //   class func makeFileSystemObjectSource(fileDescriptor: Int32, eventMask: DispatchSource.FileSystemEvent,
    //                                         queue: DispatchQueue? = nil) -> any DispatchSourceFileSystemObject
    public class func makeFileSystemObjectSource(
        fileDescriptor: Int32, eventMask: DispatchSource.FileSystemEvent, queue: DispatchQueue? = nil
    ) -> any DispatchSourceFileSystemObject {
        fatalError("stand-in")
    }
}
