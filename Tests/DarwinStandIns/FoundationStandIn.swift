// Stand-in for Apple's key-value observing (declared by the ObjectiveC module's NSObject
// categories and Foundation, re-exported by Foundation), which swift-corelibs-foundation does not
// have, for scripts/check-darwin.sh. The check imports this module implicitly into every runtime
// file (on Apple platforms these come with `import Foundation`). Never linked or run: bodies trap.
//
// Apple imports `observeValue(forKeyPath:of:change:context:)` as an overridable (`@objc open`)
// method of NSObject. Swift on Linux cannot override a method added by an extension, so this
// module declares `NSObject` as an open subclass of Foundation's that adds the method, and the
// check compiles RuntimeNSObject.swift into the runtime: `typealias NSObject =
// FoundationStandIn.NSObject`, which (a declaration of the module being compiled) shadows
// Foundation's, so `class X: NSObject { override func observeValue(…) }` type-checks as on Apple
// platforms and fails if the override's signature is not Apple's.

import Foundation

// https://developer.apple.com/documentation/foundation/nskeyvaluechangekey
//   struct NSKeyValueChangeKey   (a swift_wrapper(struct) NSString typedef: Hashable, Equatable,
//   RawRepresentable with init(rawValue:), init(_:), and static let kindKey, newKey, oldKey,
//   indexesKey, notificationIsPriorKey)
// The constants are imported C globals (`static let`); read-only computed properties here, since a
// Swift 6 `static let` of a type not known to be Sendable is an error. Not declared Sendable: the
// documentation does not list the conformance, and claiming one could hide a real error.
@available(macOS 10.0, iOS 2.0, tvOS 9.0, watchOS 2.0, *)
public struct NSKeyValueChangeKey: Hashable, Equatable, RawRepresentable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }

    public static var kindKey: NSKeyValueChangeKey { NSKeyValueChangeKey(rawValue: "kind") }
    public static var newKey: NSKeyValueChangeKey { NSKeyValueChangeKey(rawValue: "new") }
    public static var oldKey: NSKeyValueChangeKey { NSKeyValueChangeKey(rawValue: "old") }
    public static var indexesKey: NSKeyValueChangeKey { NSKeyValueChangeKey(rawValue: "indexes") }
    public static var notificationIsPriorKey: NSKeyValueChangeKey { NSKeyValueChangeKey(rawValue: "notificationIsPrior") }
}

// https://developer.apple.com/documentation/foundation/nskeyvalueobservingoptions
//   struct NSKeyValueObservingOptions   (an NS_OPTIONS of NSUInteger: OptionSet with rawValue: UInt;
//   new, old, initial, prior)
@available(macOS 10.0, iOS 2.0, tvOS 9.0, watchOS 2.0, *)
public struct NSKeyValueObservingOptions: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    public static let new = NSKeyValueObservingOptions(rawValue: 0x01)
    public static let old = NSKeyValueObservingOptions(rawValue: 0x02)
    public static let initial = NSKeyValueObservingOptions(rawValue: 0x04)
    public static let prior = NSKeyValueObservingOptions(rawValue: 0x08)
}

/// Foundation's `NSObject` plus the KVO method Apple's has and subclasses override.
open class NSObject: Foundation.NSObject {
    public override init() { super.init() }

    // https://developer.apple.com/documentation/objectivec/nsobject-swift.class/observevalue(forkeypath:of:change:context:)
    //   func observeValue(forKeyPath keyPath: String?, of object: Any?,
    //                     change: [NSKeyValueChangeKey : Any]?, context: UnsafeMutableRawPointer?)
    open func observeValue(
        forKeyPath keyPath: String?, of object: Any?, change: [NSKeyValueChangeKey: Any]?, context: UnsafeMutableRawPointer?
    ) {
        fatalError("stand-in")
    }
}

extension Foundation.NSObject {
    // https://developer.apple.com/documentation/objectivec/nsobject-swift.class/addobserver(_:forkeypath:options:context:)
    //   func addObserver(_ observer: NSObject, forKeyPath keyPath: String,
    //                    options: NSKeyValueObservingOptions = [], context: UnsafeMutableRawPointer?)
    public func addObserver(
        _ observer: Foundation.NSObject, forKeyPath keyPath: String,
        options: NSKeyValueObservingOptions = [], context: UnsafeMutableRawPointer?
    ) {
        fatalError("stand-in")
    }

    // https://developer.apple.com/documentation/objectivec/nsobject-swift.class/removeobserver(_:forkeypath:)
    //   func removeObserver(_ observer: NSObject, forKeyPath keyPath: String)
    public func removeObserver(_ observer: Foundation.NSObject, forKeyPath keyPath: String) {
        fatalError("stand-in")
    }

    // https://developer.apple.com/documentation/objectivec/nsobject-swift.class/removeobserver(_:forkeypath:context:)
    //   func removeObserver(_ observer: NSObject, forKeyPath keyPath: String, context: UnsafeMutableRawPointer?)
    @available(macOS 10.7, iOS 5.0, tvOS 9.0, watchOS 2.0, *)
    public func removeObserver(_ observer: Foundation.NSObject, forKeyPath keyPath: String, context: UnsafeMutableRawPointer?) {
        fatalError("stand-in")
    }
}
