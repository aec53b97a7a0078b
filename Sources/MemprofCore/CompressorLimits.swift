/// The bound of xnu's in-RAM compressor on a phone or iPad: how many pages it may hold, and the
/// point past which xnu calls it low on space (`vm_compressor_low_on_space`).
///
/// What xnu does, at xnu-11215.1.10 osfmk/vm/vm_compressor.c (the same at xnu-4903.221.2
/// :648-683 and xnu-7195.50.7.100.1 :682-748):
/// - off macOS the pool is sized to `max_mem`, all of RAM (:890), in segments of
///   `C_SEG_BUFSIZE_DEFAULT` (256 KB, :88) each taking a page more (`c_seg_allocsize`, :921):
///   `c_segments_limit` = RAM ÷ (256 KB + a page) (:927);
/// - the pages it may hold, counted uncompressed (`c_segment_pages_compressed_limit`), are those
///   segments' pages times `compressor_pool_multiplier` (:941), 2 on an iPhone or iPad of 2 GB or
///   less and 1 above (:894-899), and never fewer than RAM's pages (:943-948);
/// - it is low on space once it holds more than 98% of them
///   (`c_segment_pages_compressed_nearing_limit`, :953; `vm_compressor_compressed_pages_nearing_limit`,
///   :518-528), or once its segments pass 98% of `c_segments_limit` (:938). The segments hold the
///   compressed bytes, which live in RAM and never reach RAM's size: memprof checks the pages.
///
/// Low on space, the freezer freezes nothing (`vm_map_freeze` refuses with
/// `FREEZER_ERROR_NO_COMPRESSOR_SPACE`, xnu-11215.1.10 osfmk/vm/vm_map.c:21714-21715 and :21859-21860; `freeze:` is refused),
/// and in the eras of ``XNUSettings/compressorSpaceKills`` jetsam kills up the bands for
/// `vm-compressor-space-shortage` until it is not.
public struct CompressorLimits: Sendable, Hashable {
    /// `c_segment_pages_compressed_limit`: the pages the pool may hold, uncompressed.
    public var pagesLimit: Int64
    /// `c_segment_pages_compressed_nearing_limit`: 98% of ``pagesLimit``; more is low on space.
    public var nearingLimitPages: Int64

    /// The bound on `device` (its RAM as `max_mem`, its page size as `PAGE_SIZE`).
    public init(device: Device) {
        let segmentBytes: Bytes = 256 * .kilobyte
        let page = max(1, device.pageSize)
        let segments = device.ram / (segmentBytes + page)
        let multiplier: Int64 = device.ram <= 2 * .gigabyte ? 2 : 1
        pagesLimit = max(segments * (segmentBytes / page) * multiplier, device.ram / page)
        nearingLimitPages = pagesLimit * 98 / 100
    }
}
