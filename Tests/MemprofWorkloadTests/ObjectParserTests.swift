import MemprofCore
import Testing
@testable import MemprofWorkload

/// `objects` and the `show`/`dismiss` actions (spec §7, §9).
let withObjects = """
memprof: 1
name: observers
duration: 10m
device: iphone-6-plus
apps:
  mail:
    launch: {footprint: 45MB}
    objects:
      InboxController:
        size: 3MB
        observes: [UIApplicationDidEnterBackgroundNotification]
        style: block
        unregisters: false
      ComposeSheet:
        size: 2MB
        observes: [UIApplicationWillResignActiveNotification, UIApplicationDidBecomeActiveNotification]
        style: selector
  safari:
    launch: {footprint: 150MB}
script:
  - {at: 0s, open: mail}
  - {at: 1m, show: mail, object: InboxController}
  - {at: 2m, dismiss: mail, object: ComposeSheet}
"""

@Suite struct ObjectParserTests {
    @Test func objectsAndActionsParse() throws {
        let w = try parse(withObjects)
        #expect(w.apps[0].objects == [
            ObjectSpec(name: "InboxController", size: 3 * 1_048_576,
                       observes: ["UIApplicationDidEnterBackgroundNotification"], style: .block, unregisters: false),
            // Defaults: unregisters true.
            ObjectSpec(name: "ComposeSheet", size: 2 * 1_048_576,
                       observes: ["UIApplicationWillResignActiveNotification", "UIApplicationDidBecomeActiveNotification"],
                       style: .selector, unregisters: true),
        ])
        #expect(w.apps[1].objects.isEmpty)
        #expect(w.script.map(\.action) == [.open(0), .show(0, object: 0), .dismiss(0, object: 1)])
    }

    @Test func unknownNotificationGetsASuggestion() {
        let e = error(of: withObjects.replacingOccurrences(
            of: "observes: [UIApplicationDidEnterBackgroundNotification]",
            with: "observes: [UIApplicationDidEnterBackgroundNotifcation]"))
        #expect(e?.keyPath == "apps.mail.objects.InboxController.observes[0]")
        #expect(e?.line == 11)
        #expect(e?.message.hasPrefix("unknown ios lifecycle notification 'UIApplicationDidEnterBackgroundNotifcation' "
            + "(did you mean 'UIApplicationDidEnterBackgroundNotification'?)") == true)
    }

    @Test func macNamesOnAPhoneAreUnknown() {
        let e = error(of: withObjects.replacingOccurrences(
            of: "observes: [UIApplicationDidEnterBackgroundNotification]",
            with: "observes: [NSApplicationDidResignActiveNotification]"))
        #expect(e?.message.contains("unknown ios lifecycle notification 'NSApplicationDidResignActiveNotification'") == true)
    }

    @Test func macDevicesObserveNSApplicationNames() throws {
        let w = try parse(withObjects
            .replacingOccurrences(of: "device: iphone-6-plus", with: "device: macbook-pro-2015")
            .replacingOccurrences(of: "observes: [UIApplicationDidEnterBackgroundNotification]",
                                  with: "observes: [NSApplicationDidResignActiveNotification]")
            .replacingOccurrences(of: "observes: [UIApplicationWillResignActiveNotification, UIApplicationDidBecomeActiveNotification]",
                                  with: "observes: [NSApplicationWillTerminateNotification]"))
        #expect(w.apps[0].objects.map(\.observes) == [["NSApplicationDidResignActiveNotification"],
                                                       ["NSApplicationWillTerminateNotification"]])
    }

    @Test func misspeltObjectKeyAndStyle() {
        let e = error(of: withObjects.replacingOccurrences(of: "unregisters: false", with: "unregister: false"))
        #expect(e?.keyPath == "apps.mail.objects.InboxController")
        #expect(e?.message == "unknown key 'unregister' (did you mean 'unregisters'?)")
        let s = error(of: withObjects.replacingOccurrences(of: "style: selector", with: "style: selecter"))
        #expect(s?.keyPath == "apps.mail.objects.ComposeSheet.style")
        #expect(s?.message.contains("unknown observer style 'selecter' (did you mean 'selector'?)") == true)
        let size = error(of: withObjects.replacingOccurrences(of: "size: 3MB", with: "size: 3"))
        #expect(size?.keyPath == "apps.mail.objects.InboxController.size")
    }

    @Test func unknownObjectInScriptIsLocatedWithASuggestion() {
        let e = error(of: withObjects.replacingOccurrences(of: "object: InboxController}", with: "object: InboxControler}"))
        #expect(e?.keyPath == "script[1].object")
        #expect(e?.line == 22)
        #expect(e?.message == "'mail' has no object named 'InboxControler' (did you mean 'InboxController'?)")
        let none = error(of: withObjects.replacingOccurrences(of: "show: mail, object: InboxController",
                                                              with: "show: safari, object: InboxController"))
        #expect(none?.message == "'safari' has no object named 'InboxController'; it declares no objects")
    }

    @Test func showNeedsAnObjectAndAKnownApp() {
        let missing = error(of: withObjects.replacingOccurrences(of: "{at: 1m, show: mail, object: InboxController}",
                                                                 with: "{at: 1m, show: mail}"))
        #expect(missing?.keyPath == "script[1]")
        #expect(missing?.message == "missing key 'object'")
        let app = error(of: withObjects.replacingOccurrences(of: "dismiss: mail", with: "dismiss: mial"))
        #expect(app?.keyPath == "script[2].dismiss")
        #expect(app?.message == "no app named 'mial' in apps (did you mean 'mail'?)")
        let extra = error(of: withObjects.replacingOccurrences(of: "{at: 0s, open: mail}",
                                                               with: "{at: 0s, open: mail, object: InboxController}"))
        #expect(extra?.message == "'object' does not go with 'open'")
    }
}
