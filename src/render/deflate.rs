//! The zlib stream of a board PNG: deflate with the fixed Huffman code and
//! matches at two distances only, one byte back (a run of one colour) and
//! one image row back (the row above: a square's rows repeat).
//!
//! A board image is flat colour and rows that repeat the row above, so
//! these two distances find what a general compressor's hash chains would,
//! in one pass without a hash table. Sizes stay within a few percent of
//! zlib at level 1 (`cargo run --release --example png_options`).
//!
//! The other half of the speed: a tile's row below the same tile's row
//! above always codes to the same bits. [`RowCoder::prepare`] codes it
//! once per tile set ([`PreparedRow`]); drawing a board then mostly copies
//! bits ([`Stream::paste`]). Repeats of the row above that cross from one
//! segment into the next are joined into one long match ([`Stream`] keeps
//! the pending repeat open).

/// Longest match deflate can say.
const MAX_MATCH: usize = 258;
/// Shortest match deflate can say.
const MIN_MATCH: usize = 3;
/// Farthest a match may reach back.
pub const MAX_DISTANCE: usize = 32_768;

/// A little-endian bit sink, as deflate packs its codes.
pub struct BitWriter {
    out: Vec<u8>,
    acc: u64,
    bits: u32,
}

impl BitWriter {
    /// A writer appending to `out`.
    pub fn new(out: Vec<u8>) -> BitWriter {
        BitWriter {
            out,
            acc: 0,
            bits: 0,
        }
    }

    /// Pads to a byte boundary and returns the bytes.
    pub fn finish(mut self) -> Vec<u8> {
        while self.bits > 0 {
            self.out.push(self.acc as u8);
            self.acc >>= 8;
            self.bits = self.bits.saturating_sub(8);
        }
        self.out
    }
}

/// Where codes go: a [`BitWriter`], or [`Bits`] kept for pasting.
pub trait Sink {
    /// Appends the low `n` bits of `value` (`n` ≤ 32).
    fn put(&mut self, value: u32, n: u32);
}

impl Sink for BitWriter {
    #[inline]
    fn put(&mut self, value: u32, n: u32) {
        debug_assert!(n <= 32 && (n == 32 || value >> n == 0));
        self.acc |= u64::from(value) << self.bits;
        self.bits += n;
        if self.bits >= 32 {
            self.out.extend_from_slice(&(self.acc as u32).to_le_bytes());
            self.acc >>= 32;
            self.bits -= 32;
        }
    }
}

/// Codes kept to be pasted into a stream later, packed into words of at
/// most 32 bits so that pasting is a few wide writes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Bits {
    words: Vec<(u32, u8)>,
}

impl Bits {
    /// Whether nothing was coded.
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }
}

impl Sink for Bits {
    #[inline]
    fn put(&mut self, value: u32, n: u32) {
        if let Some((last, width)) = self.words.last_mut()
            && u32::from(*width) + n <= 32
        {
            *last |= value << *width;
            *width += n as u8;
            return;
        }
        self.words.push((value, n as u8));
    }
}

/// `code` of `len` bits, bit-reversed: Huffman codes go most significant
/// bit first into deflate's least-significant-first stream.
const fn reversed(code: u32, len: u32) -> u32 {
    code.reverse_bits() >> (32 - len)
}

/// The fixed-code bits of every literal byte (RFC 1951, 3.2.6).
const fn literal_codes() -> [(u32, u32); 256] {
    let mut table = [(0, 0); 256];
    let mut i = 0;
    while i < 256 {
        table[i] = if i < 144 {
            (reversed(0x30 + i as u32, 8), 8)
        } else {
            (reversed(0x190 + (i as u32 - 144), 9), 9)
        };
        i += 1;
    }
    table
}

/// Length symbols 257..=285: (first length, extra bits).
const LENGTH_BASE: [(u16, u8); 29] = [
    (3, 0),
    (4, 0),
    (5, 0),
    (6, 0),
    (7, 0),
    (8, 0),
    (9, 0),
    (10, 0),
    (11, 1),
    (13, 1),
    (15, 1),
    (17, 1),
    (19, 2),
    (23, 2),
    (27, 2),
    (31, 2),
    (35, 3),
    (43, 3),
    (51, 3),
    (59, 3),
    (67, 4),
    (83, 4),
    (99, 4),
    (115, 4),
    (131, 5),
    (163, 5),
    (195, 5),
    (227, 5),
    (258, 0),
];

/// Distance symbols 0..=29: (first distance, extra bits).
const DISTANCE_BASE: [(u16, u8); 30] = [
    (1, 0),
    (2, 0),
    (3, 0),
    (4, 0),
    (5, 1),
    (7, 1),
    (9, 2),
    (13, 2),
    (17, 3),
    (25, 3),
    (33, 4),
    (49, 4),
    (65, 5),
    (97, 5),
    (129, 6),
    (193, 6),
    (257, 7),
    (385, 7),
    (513, 8),
    (769, 8),
    (1025, 9),
    (1537, 9),
    (2049, 10),
    (3073, 10),
    (4097, 11),
    (6145, 11),
    (8193, 12),
    (12289, 12),
    (16385, 13),
    (24577, 13),
];

/// The fixed-code bits of every match length 3..=258, symbol and extra
/// bits in one value.
fn length_codes() -> Vec<(u32, u32)> {
    let mut table = vec![(0, 0); MAX_MATCH + 1];
    for (len, entry) in table.iter_mut().enumerate().skip(MIN_MATCH) {
        let symbol = LENGTH_BASE
            .iter()
            .rposition(|&(base, _)| usize::from(base) <= len)
            .unwrap_or(0);
        let (base, extra) = LENGTH_BASE[symbol];
        let code = 257 + symbol as u32;
        let (bits, n) = if code < 280 {
            (reversed(code - 256, 7), 7)
        } else {
            (reversed(0xC0 + (code - 280), 8), 8)
        };
        let extra_value = (len - usize::from(base)) as u32;
        *entry = (bits | extra_value << n, n + u32::from(extra));
    }
    table
}

/// The fixed-code bits of distance `d` (1..=32768), symbol and extra bits.
fn distance_code(d: usize) -> (u32, u32) {
    let symbol = DISTANCE_BASE
        .iter()
        .rposition(|&(base, _)| usize::from(base) <= d)
        .unwrap_or(0);
    let (base, extra) = DISTANCE_BASE[symbol];
    (
        reversed(symbol as u32, 5) | ((d - usize::from(base)) as u32) << 5,
        5 + u32::from(extra),
    )
}

/// How many leading bytes of `a` equal those of `b`.
#[inline]
fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    let max = a.len().min(b.len());
    let mut n = 0;
    while n + 8 <= max {
        let x = u64::from_le_bytes(a[n..n + 8].try_into().unwrap_or_default());
        let y = u64::from_le_bytes(b[n..n + 8].try_into().unwrap_or_default());
        if x != y {
            return n + ((x ^ y).trailing_zeros() / 8) as usize;
        }
        n += 8;
    }
    while n < max && a[n] == b[n] {
        n += 1;
    }
    n
}

/// How many bytes of `row` from `x` on repeat `row[x - 1]`, at most `max`.
#[inline]
fn run_len(row: &[u8], x: usize, max: usize) -> usize {
    // Each byte equal to the one before it, compared a word at a time.
    common_prefix(&row[x..x + max], &row[x - 1..x - 1 + max])
}

/// The fixed code tables and the row distance of one image width.
#[derive(Debug)]
pub struct RowCoder {
    literals: [(u32, u32); 256],
    lengths: Vec<(u32, u32)>,
    run: (u32, u32),
    above: (u32, u32),
}

/// A tile row coded once: it repeats the row above for `lead` bytes, then
/// `middle` codes the bytes up to `middle_end`, then it repeats the row
/// above again to the end (`trail` bytes).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PreparedRow {
    lead: u16,
    middle: Bits,
    middle_end: u16,
    trail: u16,
}

impl RowCoder {
    /// A coder for an image whose rows (filter byte included) are `stride`
    /// bytes apart in the stream (`stride` ≤ [`MAX_DISTANCE`]).
    pub fn new(stride: usize) -> RowCoder {
        RowCoder {
            literals: literal_codes(),
            lengths: length_codes(),
            run: distance_code(1),
            above: distance_code(stride.clamp(1, MAX_DISTANCE)),
        }
    }

    #[inline]
    fn literal(&self, sink: &mut impl Sink, byte: u8) {
        let (bits, n) = self.literals[usize::from(byte)];
        sink.put(bits, n);
    }

    #[inline]
    fn matched(&self, sink: &mut impl Sink, len: usize, (bits, n): (u32, u32)) {
        let (len_bits, len_n) = self.lengths[len];
        sink.put(len_bits, len_n);
        sink.put(bits, n);
    }

    /// Codes `row[x0..end]`, where `above` is the row above if the decoder
    /// holds it one stride back; runs reach back no further than `row[x0]`
    /// (or `row[x0 - 1]` if `run_from_before`).
    fn code_span<S: Sink>(
        &self,
        stream: &mut Stream<'_, S>,
        (row, above): (&[u8], Option<&[u8]>),
        x0: usize,
        end: usize,
        run_from_before: bool,
    ) {
        let mut x = x0;
        while x < end {
            let repeat = above.map_or(0, |above| common_prefix(&row[x..end], &above[x..end]));
            let run = if x > x0 || run_from_before {
                run_len(row, x, (end - x).min(MAX_MATCH))
            } else {
                0
            };
            // Joining the pending repeat costs nothing; a new one needs to
            // be long enough for a match, or to reach the segment's end
            // (where the next segment may carry it on).
            let repeat_pays = stream.pending > 0 || repeat >= MIN_MATCH || x + repeat == end;
            if repeat > 0 && repeat_pays && run < repeat + MIN_MATCH {
                stream.repeat_above(&row[x..x + repeat]);
                x += repeat;
            } else if run >= MIN_MATCH {
                stream.flush();
                self.matched(stream.sink, run, self.run);
                stream.tail = [row[x + run - 2], row[x + run - 1]];
                x += run;
            } else {
                stream.flush();
                self.literal(stream.sink, row[x]);
                stream.tail = [stream.tail[1], row[x]];
                x += 1;
            }
        }
    }

    /// Codes one tile row for pasting: `above` is the same tile's previous
    /// row (`None` for a tile's top row, whose row above is another tile).
    pub fn prepare(&self, row: &[u8], above: Option<&[u8]>) -> PreparedRow {
        let len = row.len();
        let lead = above.map_or(0, |above| common_prefix(row, above));
        if lead == len {
            return PreparedRow {
                lead: len as u16,
                middle_end: len as u16,
                ..PreparedRow::default()
            };
        }
        let trail = above.map_or(0, |above| {
            row[lead..]
                .iter()
                .rev()
                .zip(above[lead..].iter().rev())
                .take_while(|(a, b)| a == b)
                .count()
        });
        let middle_end = len - trail;
        let mut bits = Bits::default();
        let mut stream = Stream::new(self, &mut bits);
        self.code_span(&mut stream, (row, above), lead, middle_end, lead > 0);
        stream.flush();
        PreparedRow {
            lead: lead as u16,
            middle: bits,
            middle_end: middle_end as u16,
            trail: trail as u16,
        }
    }
}

/// A stream being coded: the sink, the repeat of the row above not yet
/// said (so that repeats join across segments), and the last two bytes
/// (to say a repeat too short for a match as literals).
pub struct Stream<'a, S: Sink> {
    coder: &'a RowCoder,
    sink: &'a mut S,
    pending: usize,
    tail: [u8; 2],
}

impl<'a, S: Sink> Stream<'a, S> {
    /// A stream coding into `sink` with `coder`'s tables.
    pub fn new(coder: &'a RowCoder, sink: &'a mut S) -> Stream<'a, S> {
        Stream {
            coder,
            sink,
            pending: 0,
            tail: [0; 2],
        }
    }

    /// `bytes` repeat the row above (said later, joined with what follows).
    #[inline]
    fn repeat_above(&mut self, bytes: &[u8]) {
        self.pending += bytes.len();
        self.note_tail(bytes);
    }

    #[inline]
    fn note_tail(&mut self, bytes: &[u8]) {
        match bytes {
            [] => {}
            [b] => self.tail = [self.tail[1], *b],
            [.., a, b] => self.tail = [*a, *b],
        }
    }

    /// Says the pending repeat of the row above.
    #[inline(always)]
    pub fn flush(&mut self) {
        if self.pending > 0 {
            self.say_pending();
        }
    }

    #[inline(never)]
    fn say_pending(&mut self) {
        let mut left = std::mem::take(&mut self.pending);
        if left < MIN_MATCH {
            // The last `left` bytes of the stream, as literals.
            for &byte in &self.tail[2 - left..] {
                self.coder.literal(self.sink, byte);
            }
            return;
        }
        while left > 0 {
            // Never leave a remainder shorter than a match can say.
            let take = if left > MAX_MATCH && left - MAX_MATCH < MIN_MATCH {
                left - MIN_MATCH
            } else {
                left.min(MAX_MATCH)
            };
            self.coder.matched(self.sink, take, self.coder.above);
            left -= take;
        }
    }

    /// Codes a whole row; `above` is the row one stride back, if the
    /// stream has one there.
    pub fn code(&mut self, row: &[u8], above: Option<&[u8]>) {
        self.code_part(row, above, 0, row.len());
    }

    /// Codes `row[start..end]`, the bytes of `row` before `start` being the
    /// last ones in the stream.
    pub fn code_part(&mut self, row: &[u8], above: Option<&[u8]>, start: usize, end: usize) {
        let coder = self.coder;
        coder.code_span(self, (row, above), start, end, start > 0);
    }

    /// Codes one byte that repeats the byte one stride back (a row's filter
    /// byte below another's).
    pub fn repeat_byte(&mut self, byte: u8) {
        self.repeat_above(&[byte]);
    }

    /// Codes one byte as a literal.
    pub fn literal(&mut self, byte: u8) {
        self.flush();
        self.coder.literal(self.sink, byte);
        self.tail = [self.tail[1], byte];
    }

    /// Pastes a prepared tile row whose bytes are `row`. Only valid where
    /// the stream one stride back holds what `prepared` was coded against.
    #[inline]
    pub fn paste(&mut self, prepared: &PreparedRow, row: &[u8])
    where
        S: PasteBits,
    {
        let lead = usize::from(prepared.lead);
        let middle_end = usize::from(prepared.middle_end);
        self.repeat_above(&row[..lead]);
        if middle_end > lead {
            self.flush();
            self.sink.paste(&prepared.middle);
            self.note_tail(&row[..middle_end]);
        }
        self.repeat_above(&row[middle_end..]);
    }
}

/// A sink that kept [`Bits`] can be pasted into.
pub trait PasteBits: Sink {
    /// Appends `bits`.
    fn paste(&mut self, bits: &Bits);
}

impl PasteBits for BitWriter {
    #[inline]
    fn paste(&mut self, bits: &Bits) {
        for &(value, n) in &bits.words {
            self.put(value, u32::from(n));
        }
    }
}

/// Starts a zlib stream holding one final fixed-code deflate block.
pub fn begin_zlib(out: &mut BitWriter) {
    // CMF 0x78 (deflate, 32 KiB window), FLG 0x01 (fastest, check bits).
    out.put(0x78, 8);
    out.put(0x01, 8);
    // BFINAL = 1, BTYPE = 01 (fixed Huffman codes).
    out.put(1, 1);
    out.put(1, 2);
}

/// Ends the stream of [`begin_zlib`]: end of block, padding, and the
/// Adler-32 of the uncompressed bytes.
pub fn end_zlib(mut out: BitWriter, adler: u32) -> Vec<u8> {
    // End of block: symbol 256, seven zero bits.
    out.put(0, 7);
    let mut bytes = out.finish();
    bytes.extend_from_slice(&adler.to_be_bytes());
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inflate(z: &[u8]) -> Vec<u8> {
        miniz_oxide::inflate::decompress_to_vec_zlib(z).expect("valid zlib")
    }

    /// Codes rows of `width` bytes each behind a zero filter byte.
    fn compress(rows: &[Vec<u8>]) -> (Vec<u8>, Vec<u8>) {
        let stride = rows.first().map_or(1, |r| r.len() + 1);
        let coder = RowCoder::new(stride);
        let mut out = BitWriter::new(Vec::new());
        begin_zlib(&mut out);
        let mut raw = Vec::new();
        let mut stream = Stream::new(&coder, &mut out);
        for (i, row) in rows.iter().enumerate() {
            if i == 0 {
                stream.literal(0);
            } else {
                stream.repeat_byte(0);
            }
            stream.code(row, i.checked_sub(1).map(|j| &rows[j][..]));
            raw.push(0);
            raw.extend_from_slice(row);
        }
        stream.flush();
        let mut adler = simd_adler32::Adler32::new();
        adler.write(&raw);
        (end_zlib(out, adler.finish()), raw)
    }

    #[test]
    fn rows_of_runs_repeats_and_noise_round_trip() {
        let rows: Vec<Vec<u8>> = (0..60u32)
            .map(|r| {
                (0..97u32)
                    .map(|x| match r % 7 {
                        0 => 0,
                        1 | 2 => (x / 10) as u8,
                        3 => (x * 31 + r * 17) as u8,
                        _ => ((x / 5) * 3) as u8,
                    })
                    .collect()
            })
            .collect();
        let (z, raw) = compress(&rows);
        assert_eq!(inflate(&z), raw);
        assert!(z.len() < raw.len() / 2, "{} of {}", z.len(), raw.len());
    }

    #[test]
    fn every_repeat_length_round_trips() {
        for width in [1, 2, 3, 4, 255, 256, 257, 258, 259, 260, 261, 515, 517] {
            let rows = vec![vec![7u8; width]; 4];
            let (z, raw) = compress(&rows);
            assert_eq!(inflate(&z), raw, "width {width}");
        }
    }

    #[test]
    fn prepared_rows_paste_where_their_row_above_stands() {
        let width = 40;
        let tile: Vec<Vec<u8>> = (0..6u8)
            .map(|y| {
                (0..width as u8)
                    .map(|x| if (10..30).contains(&x) { y / 2 } else { 9 })
                    .collect()
            })
            .collect();
        let coder = RowCoder::new(width + 1);
        let prepared: Vec<PreparedRow> = (0..tile.len())
            .map(|y| coder.prepare(&tile[y], y.checked_sub(1).map(|a| &tile[a][..])))
            .collect();
        assert!(prepared[1].middle.is_empty(), "row 1 repeats row 0");
        let mut out = BitWriter::new(Vec::new());
        begin_zlib(&mut out);
        let mut stream = Stream::new(&coder, &mut out);
        let mut raw = Vec::new();
        for (y, row) in tile.iter().enumerate() {
            if y == 0 {
                stream.literal(0);
            } else {
                stream.repeat_byte(0);
            }
            stream.paste(&prepared[y], row);
            raw.push(0);
            raw.extend_from_slice(row);
        }
        stream.flush();
        let mut adler = simd_adler32::Adler32::new();
        adler.write(&raw);
        assert_eq!(inflate(&end_zlib(out, adler.finish())), raw);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

        /// Any rows, drawn from few values so that runs and repeats abound.
        #[test]
        fn any_rows_round_trip(
            width in 1usize..600,
            cells in proptest::collection::vec(0u8..4, 1..4000),
        ) {
            let rows: Vec<Vec<u8>> = cells
                .chunks(width)
                .filter(|c| c.len() == width)
                .map(|c| c.iter().map(|v| v * 60).collect())
                .collect();
            let (z, raw) = compress(&rows);
            proptest::prop_assert_eq!(inflate(&z), raw);
        }
    }
}
