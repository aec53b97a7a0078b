import MemprofHTML
import MemprofReport
import MemprofTestSupport
import Testing

/// Spec §7 and §3 on the page: observer findings come first; a Mac run shows its swap.
@Suite struct FindingsTests {
    @Test func observerFindingsComeBeforeTheCards() throws {
        let (report, apps) = try ReportFixture.builtinWithApps("observer-leaks")
        let page = HTMLReport.render(report, orderedApps: apps)
        let findings = try #require(page.range(of: "<section id=\"findings\">"))
        let cards = try #require(page.range(of: "<section id=\"summary\""))
        #expect(findings.lowerBound < cards.lowerBound)
        #expect(page.contains("InboxController leaked 3 times (9 MB): observes UIApplicationDidEnterBackgroundNotification "
            + "with a block and never unregisters"))
        #expect(page.contains("<li class=\"card bad\"><b>messages</b> ComposeSheet crashed messages at 20m (badAccess)"))
    }

    @Test func runsWithoutObjectsHaveNoFindingsAndPhonesNoSwapCard() throws {
        let (report, apps) = try ReportFixture.builtinWithApps("phone-day")
        let page = HTMLReport.render(report, orderedApps: apps)
        #expect(!page.contains("id=\"findings\""))
        #expect(!page.contains("<h3>swap</h3>"))
    }

    @Test func macRunsShowTheirSwap() throws {
        let (report, apps) = try ReportFixture.builtinWithApps("mac-workday")
        let page = HTMLReport.render(report, orderedApps: apps)
        #expect(page.contains("<h3>swap</h3><b>2.1 GB</b>"))
    }
}
