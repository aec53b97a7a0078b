import Foundation

/// fleet.html: placeholder until the page is built.
enum FleetHTML {
    static func data(_ result: FleetResult) -> Data? { nil }
}
