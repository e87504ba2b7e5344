// Compiled into ComputedRuntime by scripts/check-darwin.sh only (never by the package): inside the
// runtime, `NSObject` names the stand-in NSObject that has Apple's overridable
// `observeValue(forKeyPath:of:change:context:)` (see FoundationStandIn.swift). A type declared in
// the module being compiled shadows the imported ones.
import FoundationStandIn

typealias NSObject = FoundationStandIn.NSObject
