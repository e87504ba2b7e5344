// Stand-in for the parts of Apple's Combine that ComputedRuntime's Combine interop
// (Sources/Runtime/Combine, `#if canImport(Combine)`) uses, for scripts/check-darwin.sh.
// Compiled as a module named `Combine`, so that `canImport(Combine)` is true and the product's
// own branch (not Compat/'s OpenCombine one) is type-checked. Never linked or run: bodies trap.
//
// Every declaration is Apple's, from https://developer.apple.com/documentation/combine/<symbol>,
// with its availability (macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0). Where Apple's differs
// from OpenCombine's, Apple's is what is here:
// - the protocols and types live in the module `Combine`, and StoreSubscription (a type of the
//   same module as the conformance) conforms to `Cancellable` without `@retroactive`;
// - no `Sendable` conformance that the documentation does not show (OpenCombine marks none
//   either); declaring one that Apple lacks could hide a real error;
// - `Subscriber` and `Subscription` refine `CustomCombineIdentifierConvertible`, whose
//   `combineIdentifier` has a default only for classes.

// https://developer.apple.com/documentation/combine/combineidentifier
//   struct CombineIdentifier: Hashable, CustomStringConvertible; init(); init(_ obj: AnyObject)
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public struct CombineIdentifier: Hashable, CustomStringConvertible {
    private let value: UInt64
    public init() { value = 0 }
    public init(_ obj: AnyObject) { value = UInt64(UInt(bitPattern: ObjectIdentifier(obj).hashValue)) }
    public var description: String { "0x\(String(value, radix: 16))" }
}

// https://developer.apple.com/documentation/combine/customcombineidentifierconvertible
//   protocol CustomCombineIdentifierConvertible { var combineIdentifier: CombineIdentifier { get } }
//   extension CustomCombineIdentifierConvertible where Self : AnyObject { var combineIdentifier: CombineIdentifier { get } }
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public protocol CustomCombineIdentifierConvertible {
    var combineIdentifier: CombineIdentifier { get }
}

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
extension CustomCombineIdentifierConvertible where Self: AnyObject {
    public var combineIdentifier: CombineIdentifier { CombineIdentifier(self) }
}

// https://developer.apple.com/documentation/combine/cancellable
//   protocol Cancellable { func cancel() }
// https://developer.apple.com/documentation/combine/cancellable/store(in:)-95sfl
//   func store(in set: inout Set<AnyCancellable>)
// https://developer.apple.com/documentation/combine/cancellable/store(in:)-35vnt
//   func store<C>(in collection: inout C) where C : RangeReplaceableCollection, C.Element == AnyCancellable
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public protocol Cancellable {
    func cancel()
}

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
extension Cancellable {
    public func store(in set: inout Set<AnyCancellable>) { fatalError("stand-in") }
    public func store<C>(in collection: inout C) where C: RangeReplaceableCollection, C.Element == AnyCancellable {
        fatalError("stand-in")
    }
}

// https://developer.apple.com/documentation/combine/anycancellable
//   final class AnyCancellable   (Cancellable, Hashable)
// https://developer.apple.com/documentation/combine/anycancellable/init(_:)-3icn3
//   init(_ cancel: @escaping () -> Void)
// https://developer.apple.com/documentation/combine/anycancellable/init(_:)-48fh3
//   init<C>(_ canceller: C) where C : Cancellable
// https://developer.apple.com/documentation/combine/anycancellable/store(in:)-6cr9i, -3hyxs
//   final func store(in set: inout Set<AnyCancellable>)
//   final func store<C>(in collection: inout C) where C : RangeReplaceableCollection, C.Element == AnyCancellable
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public final class AnyCancellable: Cancellable, Hashable {
    public init(_ cancel: @escaping () -> Void) { fatalError("stand-in") }
    public init<C>(_ canceller: C) where C: Cancellable { fatalError("stand-in") }
    public final func cancel() { fatalError("stand-in") }
    public final func store(in set: inout Set<AnyCancellable>) { fatalError("stand-in") }
    public final func store<C>(in collection: inout C) where C: RangeReplaceableCollection, C.Element == AnyCancellable {
        fatalError("stand-in")
    }
    public static func == (lhs: AnyCancellable, rhs: AnyCancellable) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

// https://developer.apple.com/documentation/combine/subscribers
//   enum Subscribers
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public enum Subscribers {}

// https://developer.apple.com/documentation/combine/subscribers/demand
//   @frozen struct Demand   (Equatable, Comparable, Hashable, Codable, CustomStringConvertible)
//   static let unlimited: Subscribers.Demand; static let none: Subscribers.Demand
//   static func max(_ value: Int) -> Subscribers.Demand; var max: Int? { get }
//   static func + (lhs: Subscribers.Demand, rhs: Subscribers.Demand) -> Subscribers.Demand
//   static func += (lhs: inout Subscribers.Demand, rhs: Subscribers.Demand)
//   static func + (lhs: Subscribers.Demand, rhs: Int) -> Subscribers.Demand
//   static func += (lhs: inout Subscribers.Demand, rhs: Int)
//   static func - (lhs: Subscribers.Demand, rhs: Subscribers.Demand) -> Subscribers.Demand
//   static func -= (lhs: inout Subscribers.Demand, rhs: Subscribers.Demand)
//   static func - (lhs: Subscribers.Demand, rhs: Int) -> Subscribers.Demand
//   static func -= (lhs: inout Subscribers.Demand, rhs: Int)
//   static func * (lhs: Subscribers.Demand, rhs: Int) -> Subscribers.Demand
//   static func *= (lhs: inout Subscribers.Demand, rhs: Int)
//   static func > (lhs: Subscribers.Demand, rhs: Int) -> Bool   (and >=, <, <=, with Int on either side)
//   static func == (lhs: Subscribers.Demand, rhs: Int) -> Bool  (and !=, with Int on either side)
// `unlimited` and `none` are read-only computed properties here: a Swift 6 `static let` of a type
// not known to be Sendable is an error, and the documentation lists no Sendable conformance.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
extension Subscribers {
    @frozen
    public struct Demand: Equatable, Comparable, Hashable, Codable, CustomStringConvertible {
        @usableFromInline let rawValue: UInt

        @inlinable init(rawValue: UInt) { self.rawValue = rawValue }

        public static var unlimited: Subscribers.Demand { Demand(rawValue: .max) }
        public static var none: Subscribers.Demand { Demand(rawValue: 0) }
        public static func max(_ value: Int) -> Subscribers.Demand { Demand(rawValue: UInt(value)) }
        public var max: Int? { rawValue == .max ? nil : Int(rawValue) }
        public var description: String { rawValue == .max ? "unlimited" : "max(\(rawValue))" }

        public static func + (lhs: Subscribers.Demand, rhs: Subscribers.Demand) -> Subscribers.Demand { fatalError("stand-in") }
        public static func += (lhs: inout Subscribers.Demand, rhs: Subscribers.Demand) { fatalError("stand-in") }
        public static func + (lhs: Subscribers.Demand, rhs: Int) -> Subscribers.Demand { fatalError("stand-in") }
        public static func += (lhs: inout Subscribers.Demand, rhs: Int) { fatalError("stand-in") }
        public static func - (lhs: Subscribers.Demand, rhs: Subscribers.Demand) -> Subscribers.Demand { fatalError("stand-in") }
        public static func -= (lhs: inout Subscribers.Demand, rhs: Subscribers.Demand) { fatalError("stand-in") }
        public static func - (lhs: Subscribers.Demand, rhs: Int) -> Subscribers.Demand { fatalError("stand-in") }
        public static func -= (lhs: inout Subscribers.Demand, rhs: Int) { fatalError("stand-in") }
        public static func * (lhs: Subscribers.Demand, rhs: Int) -> Subscribers.Demand { fatalError("stand-in") }
        public static func *= (lhs: inout Subscribers.Demand, rhs: Int) { fatalError("stand-in") }

        public static func < (lhs: Subscribers.Demand, rhs: Subscribers.Demand) -> Bool { fatalError("stand-in") }
        public static func > (lhs: Subscribers.Demand, rhs: Int) -> Bool { fatalError("stand-in") }
        public static func >= (lhs: Subscribers.Demand, rhs: Int) -> Bool { fatalError("stand-in") }
        public static func > (lhs: Int, rhs: Subscribers.Demand) -> Bool { fatalError("stand-in") }
        public static func >= (lhs: Int, rhs: Subscribers.Demand) -> Bool { fatalError("stand-in") }
        public static func < (lhs: Subscribers.Demand, rhs: Int) -> Bool { fatalError("stand-in") }
        public static func < (lhs: Int, rhs: Subscribers.Demand) -> Bool { fatalError("stand-in") }
        public static func <= (lhs: Subscribers.Demand, rhs: Int) -> Bool { fatalError("stand-in") }
        public static func <= (lhs: Int, rhs: Subscribers.Demand) -> Bool { fatalError("stand-in") }
        public static func == (lhs: Subscribers.Demand, rhs: Int) -> Bool { fatalError("stand-in") }
        public static func != (lhs: Subscribers.Demand, rhs: Int) -> Bool { fatalError("stand-in") }
        public static func == (lhs: Int, rhs: Subscribers.Demand) -> Bool { fatalError("stand-in") }
        public static func != (lhs: Int, rhs: Subscribers.Demand) -> Bool { fatalError("stand-in") }
    }

    // https://developer.apple.com/documentation/combine/subscribers/completion
    //   @frozen enum Completion<Failure> where Failure : Error { case finished; case failure(Failure) }
    @frozen
    public enum Completion<Failure: Error> {
        case finished
        case failure(Failure)
    }
}

// https://developer.apple.com/documentation/combine/subscription
//   protocol Subscription : Cancellable, CustomCombineIdentifierConvertible
// https://developer.apple.com/documentation/combine/subscription/request(_:)
//   func request(_ demand: Subscribers.Demand)
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public protocol Subscription: Cancellable, CustomCombineIdentifierConvertible {
    func request(_ demand: Subscribers.Demand)
}

// https://developer.apple.com/documentation/combine/subscriber
//   protocol Subscriber<Input, Failure> : CustomCombineIdentifierConvertible
//   associatedtype Input; associatedtype Failure : Error
//   func receive(subscription: any Subscription)
//   func receive(_ input: Self.Input) -> Subscribers.Demand
//   func receive(completion: Subscribers.Completion<Self.Failure>)
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public protocol Subscriber<Input, Failure>: CustomCombineIdentifierConvertible {
    associatedtype Input
    associatedtype Failure: Error
    func receive(subscription: any Subscription)
    func receive(_ input: Self.Input) -> Subscribers.Demand
    func receive(completion: Subscribers.Completion<Self.Failure>)
}

// https://developer.apple.com/documentation/combine/publisher
//   protocol Publisher<Output, Failure>; associatedtype Output; associatedtype Failure : Error
// https://developer.apple.com/documentation/combine/publisher/receive(subscriber:)
//   func receive<S>(subscriber: S) where S : Subscriber, Self.Failure == S.Failure, Self.Output == S.Input
// https://developer.apple.com/documentation/combine/publisher/subscribe(_:)-4u8kn
//   func subscribe<S>(_ subscriber: S) where S : Subscriber, Self.Failure == S.Failure, Self.Output == S.Input
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public protocol Publisher<Output, Failure> {
    associatedtype Output
    associatedtype Failure: Error
    func receive<S>(subscriber: S) where S: Subscriber, Self.Failure == S.Failure, Self.Output == S.Input
}

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
extension Publisher {
    public func subscribe<S>(_ subscriber: S) where S: Subscriber, Self.Failure == S.Failure, Self.Output == S.Input {
        fatalError("stand-in")
    }

    // https://developer.apple.com/documentation/combine/publisher/sink(receivecompletion:receivevalue:)
    //   func sink(receiveCompletion: @escaping ((Subscribers.Completion<Self.Failure>) -> Void),
    //             receiveValue: @escaping ((Self.Output) -> Void)) -> AnyCancellable
    public func sink(
        receiveCompletion: @escaping ((Subscribers.Completion<Self.Failure>) -> Void),
        receiveValue: @escaping ((Self.Output) -> Void)
    ) -> AnyCancellable {
        fatalError("stand-in")
    }
}

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
extension Publisher where Self.Failure == Never {
    // https://developer.apple.com/documentation/combine/publisher/sink(receivevalue:)
    //   func sink(receiveValue: @escaping ((Self.Output) -> Void)) -> AnyCancellable
    public func sink(receiveValue: @escaping ((Self.Output) -> Void)) -> AnyCancellable {
        fatalError("stand-in")
    }
}

// https://developer.apple.com/documentation/combine/anysubscriber
//   @frozen struct AnySubscriber<Input, Failure> where Failure : Error
//   (Subscriber, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible)
// https://developer.apple.com/documentation/combine/anysubscriber/init(_:)-8ccqi
//   init<S>(_ s: S) where Input == S.Input, Failure == S.Failure, S : Subscriber
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
@frozen
public struct AnySubscriber<Input, Failure: Error>: Subscriber, CustomStringConvertible {
    public let combineIdentifier: CombineIdentifier

    public init<S>(_ s: S) where Input == S.Input, Failure == S.Failure, S: Subscriber {
        fatalError("stand-in")
    }

    public var description: String { "Anonymous AnySubscriber" }
    public func receive(subscription: any Subscription) { fatalError("stand-in") }
    public func receive(_ value: Input) -> Subscribers.Demand { fatalError("stand-in") }
    public func receive(completion: Subscribers.Completion<Failure>) { fatalError("stand-in") }
}
