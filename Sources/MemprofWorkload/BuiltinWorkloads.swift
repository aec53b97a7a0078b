/// Workloads that ship inside the tool (`memprof list workloads`).
public enum BuiltinWorkloads {
    public struct Entry: Sendable {
        public var name: String
        public var summary: String
        public var yaml: String
    }

    public static let defaultName = "phone-day"

    public static let all: [Entry] = [
        Entry(name: "phone-day", summary: "a day of phone use on an iPhone 6 Plus: mail, maps, music, a browser, a game, a call",
              yaml: phoneDay),
        Entry(name: "phone-day-xnu", summary: "the same day as phone-day under the xnu policy: jetsam bands, aging and the freezer",
              yaml: phoneDayXNU),
        Entry(name: "background-heavy", summary: "background tasks that finish, expire and are killed; fetch and push overruns",
              yaml: backgroundHeavy),
        Entry(name: "ipad-afternoon", summary: "an afternoon on an iPad Air 2 with a photo editor and a large game",
              yaml: ipadAfternoon),
        Entry(name: "observer-leaks", summary: "observers on an iPhone 6 Plus: a block observer that leaks, a selector one that crashes",
              yaml: observerLeaks),
        Entry(name: "phone-day-2026", summary: "a day on an iPhone 15 with iOS 18 under xnu: messaging, maps, music, a browser, a feed, camera, a call, a large game",
              yaml: phoneDay2026),
        Entry(name: "mac-workday", summary: "a working day on a MacBook Pro 2015: apps keep running, memory past RAM swaps",
              yaml: macWorkday),
    ]

    /// `phone-day` with only its name and policy changed, so the two reports differ by policy alone.
    static let phoneDayXNU = phoneDay
        .replacing("name: phone-day\n", with: "name: phone-day-xnu\n")
        .replacing("policy: seed-2015\n", with: "policy: xnu\n")

    static let phoneDay = """
    memprof: 1
    name: phone-day
    seed: 7
    duration: 3h
    device: iphone-6-plus
    policy: seed-2015
    apps:
      mail:
        name: Mail
        launch: {footprint: 45MB, time: 1.2s}
        resumeTime: 150ms
        growth: 1MB/min
        maxFootprint: 120MB
        onBackground: {release: 30MB, time: 100ms}
        onMemoryWarning: {release: 10MB}
        modes: [fetch, remote-notification]
        fetch: {interval: 15m, time: 4s, allocates: 6MB, work: {kernel: json, size: 1MB}}
        push: {time: 2s, allocates: 2MB}
        backgroundTask: {time: 3m, endsOnExpiration: true, allocates: 20MB,
                         work: {kernel: checksum, size: 16MB}}
      messages:
        name: Messages
        launch: {footprint: 30MB, time: 800ms}
        onBackground: {release: 16MB}
        modes: [remote-notification]
        push: {time: 1s}
      maps:
        name: Maps
        launch: {footprint: 120MB, time: 2s}
        growth: 3MB/min
        maxFootprint: 200MB
        onBackground: {release: 40MB, time: 300ms}
        onMemoryWarning: {release: 25MB}
        modes: [location]
      music:
        name: Music
        launch: {footprint: 60MB, time: 1s}
        onBackground: {release: 20MB}
        modes: [audio]
      safari:
        name: Safari
        launch: {footprint: 150MB, time: 1.5s}
        resumeTime: 250ms
        growth: 4MB/min
        maxFootprint: 320MB
        onBackground: {release: 60MB, time: 200ms}
        onMemoryWarning: {release: 40MB}
      game:
        name: Dungeon
        launch: {footprint: 480MB, time: 4s}
        resumeTime: 600ms
        growth: 10MB/min
        maxFootprint: 600MB
        onBackground: {release: 40MB, time: 1s}
        onMemoryWarning: {release: 20MB}
      notes:
        name: Notes
        launch: {footprint: 22MB, time: 600ms}
        onBackground: {release: 9MB}
      weather:
        name: Weather
        launch: {footprint: 14MB, time: 700ms}
        modes: [fetch]
        fetch: {interval: 30m, time: 2s, allocates: 3MB}
    script:
      - {at: 0s, open: mail}
      - {at: 2m, open: weather}
      - {at: 3m, open: music}
      - {at: 3m5s, play: music}
      - {at: 4m, open: maps}
      - {at: 4m10s, track: maps}
      - {at: 20m, untrack: maps}
      - {at: 21m, open: safari}
      - {at: 30m, interrupt: notificationCenter, length: 8s}
      - {at: 35m, interrupt: call, answer: true, length: 3m}
      - {at: 40m, open: notes}
      - {at: 45m, open: game}
      - {at: 50m, allocate: game, size: 60MB}
      - {at: 55m, free: game, size: 40MB}
      - {at: 1h, push: messages}
      - {at: 1h1m, open: messages}
      - {at: 1h5m, open: mail}
      - {at: 1h10m, home: true}
      - {at: 1h12m, push: mail}
      - {at: 1h20m, open: safari}
      - {at: 1h30m, open: game}
      - {at: 1h40m, stop: music}
      - {at: 1h41m, memoryWarning: true}
      - {at: 1h50m, quit: game}
      - {at: 2h, open: weather}
      - {at: 2h5m, quit: mail}
      - {at: 2h6m, push: mail}
      - {at: 2h30m, home: true}
    generate:
      switchEvery: 4m
      weights: {mail: 4, messages: 4, safari: 3, notes: 2, weather: 1, maps: 1, game: 1}
      homeEvery: 20m
    """

    static let backgroundHeavy = """
    memprof: 1
    name: background-heavy
    seed: 11
    duration: 1h
    device: iphone-6-plus
    apps:
      uploader:
        name: Photo Uploader
        launch: {footprint: 80MB, time: 1s}
        onBackground: {release: 20MB, time: 400ms}
        backgroundTask: {time: 4m, allocates: 30MB, work: {kernel: compress, size: 4MB}}
      sync:
        name: Sync
        launch: {footprint: 40MB}
        onBackground: {release: 10MB}
        backgroundTask: {time: 12m, endsOnExpiration: true, allocates: 10MB}
      exporter:
        name: Video Exporter
        launch: {footprint: 110MB, time: 2s}
        backgroundTask: {time: 15m, allocates: 60MB}
      news:
        name: News
        launch: {footprint: 50MB}
        onBackground: {release: 20MB}
        modes: [fetch, remote-notification]
        fetch: {interval: 10m, time: 45s, allocates: 8MB, work: {kernel: sort, size: 2MB}}
        push: {time: 5s}
      chat:
        name: Chat
        launch: {footprint: 35MB}
        onBackground: {release: 20MB}
        modes: [remote-notification, voip]
        push: {time: 40s, allocates: 4MB}
        voip: {keepalive: 10m, time: 1s}
      journal:
        name: Journal
        launch: {footprint: 18MB}
        onBackground: {release: 6MB, time: 8s}
      timer:
        name: Timer
        launch: {footprint: 12MB}
      game:
        name: Racer
        launch: {footprint: 500MB, time: 5s}
        growth: 12MB/min
        maxFootprint: 600MB
        onBackground: {release: 30MB}
    script:
      - {at: 0s, open: uploader}
      - {at: 1m, open: sync}
      - {at: 2m, open: exporter}
      - {at: 3m, open: news}
      - {at: 4m, open: chat}
      - {at: 5m, open: journal}
      - {at: 6m, open: timer}
      - {at: 7m, open: uploader}
      - {at: 8m, home: true}
      - {at: 9m, push: news}
      - {at: 12m, push: chat}
      - {at: 14m, open: game}
      - {at: 24m, open: sync}
      - {at: 25m, open: exporter}
      - {at: 26m, open: timer}
      - {at: 27m, open: journal}
      - {at: 28m, open: chat}
      - {at: 30m, voipCall: chat, length: 5m}
      - {at: 31m, open: game}
      - {at: 45m, home: true}
      - {at: 46m, push: chat}
      - {at: 50m, open: news}
      - {at: 55m, home: true}
    """

    static let ipadAfternoon = """
    memprof: 1
    name: ipad-afternoon
    seed: 3
    duration: 4h
    device: ipad-air-2
    policy: {preset: seed-2015, evictionOrder: largest}
    apps:
      photos:
        name: Photo Editor
        launch: {footprint: 380MB, time: 2.5s}
        resumeTime: 400ms
        growth: 8MB/min
        maxFootprint: 700MB
        onBackground: {release: 120MB, time: 1.5s}
        onMemoryWarning: {release: 60MB}
        backgroundTask: {time: 2m, endsOnExpiration: true, allocates: 80MB}
      mail:
        name: Mail
        launch: {footprint: 60MB, time: 1.2s}
        onBackground: {release: 30MB}
        modes: [fetch, remote-notification]
        fetch: {interval: 20m, time: 5s, allocates: 8MB}
        push: {time: 2s}
      safari:
        name: Safari
        launch: {footprint: 200MB, time: 1.5s}
        growth: 5MB/min
        maxFootprint: 450MB
        onBackground: {release: 80MB}
        onMemoryWarning: {release: 50MB}
      video:
        name: Video
        launch: {footprint: 140MB, time: 1s}
        onBackground: {release: 30MB}
        modes: [audio]
      game:
        name: Strategy Game
        launch: {footprint: 900MB, time: 6s}
        resumeTime: 800ms
        growth: 6MB/min
        maxFootprint: 1100MB
        onBackground: {release: 60MB, time: 2s}
      notes:
        name: Notes
        launch: {footprint: 24MB}
        onBackground: {release: 10MB}
      calculator:
        name: Calculator
        launch: {footprint: 9MB, time: 300ms}
      books:
        name: Books
        launch: {footprint: 70MB}
        onBackground: {release: 40MB}
    script:
      - {at: 0s, open: mail}
      - {at: 3m, open: safari}
      - {at: 15m, open: photos}
      - {at: 40m, open: notes}
      - {at: 42m, open: calculator}
      - {at: 43m, open: video}
      - {at: 43m10s, play: video}
      - {at: 50m, open: books}
      - {at: 1h, open: game}
      - {at: 1h45m, open: photos}
      - {at: 2h, stop: video}
      - {at: 2h10m, open: game}
      - {at: 2h40m, push: mail}
      - {at: 3h, open: safari}
    generate:
      switchEvery: 6m
      weights: {safari: 3, mail: 3, notes: 2, books: 2, calculator: 1, photos: 1}
      homeEvery: 30m
    """
}
