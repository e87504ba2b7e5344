// Stand-in for Apple's `os` module: the signposter API the change trace emits Instruments
// intervals and events with (Sources/Runtime/Trace/ChangeTrace+Signposts.swift). Signatures from
// Apple's documentation, developer.apple.com/documentation/os/ossignposter and the pages it links
// (each named below). `static let` constants of Apple's are computed properties here: a stand-in
// constant would need a value, and use sites read both the same way.

/// developer.apple.com/documentation/os/oslog
public final class OSLog {
    /// developer.apple.com/documentation/os/oslog/category
    public struct Category {
        /// developer.apple.com/documentation/os/oslog/category/init(rawvalue:)
        public init(rawValue: String) { fatalError("stand-in") }

        /// developer.apple.com/documentation/os/oslog/category/pointsofinterest
        public static var pointsOfInterest: OSLog.Category { fatalError("stand-in") }
    }
}

/// developer.apple.com/documentation/os/oslogprivacy
public struct OSLogPrivacy {
    /// developer.apple.com/documentation/os/oslogprivacy/public
    public static var `public`: OSLogPrivacy { fatalError("stand-in") }
    /// developer.apple.com/documentation/os/oslogprivacy/private
    public static var `private`: OSLogPrivacy { fatalError("stand-in") }
    /// developer.apple.com/documentation/os/oslogprivacy/auto
    public static var auto: OSLogPrivacy { fatalError("stand-in") }
}

/// developer.apple.com/documentation/os/signpostmetadata: "Don't create an instance of
/// SignpostMetadata. Instead, provide an interpolated string as the message parameter."
public struct SignpostMetadata: ExpressibleByStringInterpolation {
    public struct StringInterpolation: StringInterpolationProtocol {
        public init(literalCapacity: Int, interpolationCount: Int) { fatalError("stand-in") }
        public mutating func appendLiteral(_ literal: String) { fatalError("stand-in") }
        /// developer.apple.com/documentation/os/oslogmessage (message argument formatters)
        public mutating func appendInterpolation(_ argumentString: @autoclosure @escaping () -> String, privacy: OSLogPrivacy = .auto) {
            fatalError("stand-in")
        }
    }

    public init(stringLiteral value: String) { fatalError("stand-in") }
    public init(stringInterpolation: StringInterpolation) { fatalError("stand-in") }
}

/// developer.apple.com/documentation/os/ossignpostid
public struct OSSignpostID {
    /// developer.apple.com/documentation/os/ossignpostid/exclusive
    public static var exclusive: OSSignpostID { fatalError("stand-in") }
}

/// developer.apple.com/documentation/os/ossignpostintervalstate
@available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, *)
public final class OSSignpostIntervalState {}

/// developer.apple.com/documentation/os/ossignposter
@available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, *)
public struct OSSignposter {
    /// developer.apple.com/documentation/os/ossignposter/init(subsystem:category:)
    public init(subsystem: String, category: String) { fatalError("stand-in") }
    /// developer.apple.com/documentation/os/ossignposter/init(subsystem:category:) (the
    /// `OSLog.Category` overload, for `.pointsOfInterest`)
    public init(subsystem: String, category: OSLog.Category) { fatalError("stand-in") }

    /// developer.apple.com/documentation/os/ossignposter/isenabled
    public var isEnabled: Bool { fatalError("stand-in") }

    /// developer.apple.com/documentation/os/ossignposter/makesignpostid()
    public func makeSignpostID() -> OSSignpostID { fatalError("stand-in") }

    /// developer.apple.com/documentation/os/ossignposter/begininterval(_:id:_:)
    public func beginInterval(_ name: StaticString, id: OSSignpostID = .exclusive, _ message: SignpostMetadata) -> OSSignpostIntervalState {
        fatalError("stand-in")
    }

    /// developer.apple.com/documentation/os/ossignposter/endinterval(_:_:_:)
    public func endInterval(_ name: StaticString, _ state: OSSignpostIntervalState, _ message: SignpostMetadata) {
        fatalError("stand-in")
    }

    /// developer.apple.com/documentation/os/ossignposter/emitevent(_:id:_:)
    public func emitEvent(_ name: StaticString, id: OSSignpostID = .exclusive, _ message: SignpostMetadata) {
        fatalError("stand-in")
    }
}
