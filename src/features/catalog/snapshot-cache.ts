// Public answers kept as bytes, made once per catalog snapshot (docs/decisions/130).
// The one freshness rule for every cached catalog answer: an entry is served only while the
// snapshot it was made from is still the one the service hands out. The service keeps the
// same snapshot object while the rows read every CATALOG_TTL_MS are unchanged, and replaces
// it after an edit (at once on the editing instance, within 5 s on the others), so a change
// empties the cache. Answers that also read the database (the unit page) expire on their
// own as well. An entry's compressed forms live and go with it (docs/decisions/160).
import { createHash } from 'node:crypto';
import { compressorsAt, type CompressEncoding } from '../../http/compression';
import type { CatalogSnapshot } from './catalog.snapshot';

/**
 * Made once per answer per snapshot, so stronger than @fastify/compress's per-request
 * brotli 4: quality 5 is ~8 % smaller on the 160 KB home page. Quality 6–8 gain ≤ 1.4 % more
 * but their match finder's tables take 4–13 MB of native memory per call, which malloc then
 * keeps (RSS); 9 and up also block the event loop for 40–200 ms (figures in decision 160).
 */
const COMPRESS = compressorsAt({ br: 5, gzip: 9 });

/** A kept answer: its bytes and the compressed forms made so far. */
export interface CachedAnswer {
  readonly bytes: Buffer;
  /** the opaque part of its entity tag: a hash of the bytes, so an unchanged answer keeps it across snapshots */
  readonly tag: string;
}

interface Entry extends CachedAnswer {
  key: string;
  encoded: Partial<Record<CompressEncoding, Buffer>>;
  /** identity and compressed bytes together: what the byte bound counts */
  size: number;
  /** ms timestamp; Infinity for answers made from the snapshot alone */
  expires: number;
  /** the cache's clock when the entry was kept or last moved to the recent end */
  touched: number;
}

export interface SnapshotCacheLimits {
  /** at most this many answers… */
  entries: number;
  /** …and this many bytes of them: the least recently used go first */
  bytes: number;
}

export class SnapshotCache {
  private snapshot: CatalogSnapshot | null = null;
  private readonly entries = new Map<string, Entry>();
  private size = 0;
  /** counts keeps and moves: how far from the recent end an entry's place is */
  private clock = 0;

  constructor(private readonly limits: SnapshotCacheLimits) {}

  /** The answer kept for `key` from `snap`, unless `snap` is another snapshot or the entry expired at `now`. */
  get(snap: CatalogSnapshot, key: string, now = 0): CachedAnswer | undefined {
    if (snap !== this.snapshot) {
      this.reset(snap);
      return undefined;
    }
    const entry = this.entries.get(key);
    if (!entry || entry.expires <= now) return undefined;
    // Most recently used last: Map keeps insertion order. An entry in the recent half
    // stays where it is: moving on every hit (delete, set) was ~2 % of a cached search's
    // CPU, and a hot answer is always in the recent half.
    if (this.clock - entry.touched >= this.entries.size >> 1) {
      this.entries.delete(key);
      this.entries.set(key, entry);
      entry.touched = ++this.clock;
    }
    return entry;
  }

  /** Even an expired entry of this snapshot: better than an error page while the database is down. */
  stale(snap: CatalogSnapshot, key: string): CachedAnswer | undefined {
    return snap === this.snapshot ? this.entries.get(key) : undefined;
  }

  /**
   * Keeps `bytes` for `key`. An answer made from a snapshot that is no longer the latest
   * one seen (a request that started before a reload) is not kept, but is still returned.
   */
  set(snap: CatalogSnapshot, key: string, bytes: Buffer, ttlMs = Infinity, now = 0): CachedAnswer {
    const entry: Entry = {
      bytes,
      tag: createHash('sha1').update(bytes).digest('base64url').slice(0, 22),
      key,
      encoded: {},
      size: bytes.length,
      expires: ttlMs === Infinity ? Infinity : now + ttlMs,
      touched: ++this.clock,
    };
    if (snap !== this.snapshot || bytes.length > this.limits.bytes) return entry;
    this.remove(key);
    this.evict(1, bytes.length);
    this.entries.set(key, entry);
    this.size += bytes.length;
    return entry;
  }

  /**
   * `answer` compressed with `encoding`: made the first time a client asks for it, then kept
   * with the answer (and counted in the byte bound) until the answer itself goes.
   */
  encoded(answer: CachedAnswer, encoding: CompressEncoding): Buffer {
    const entry = answer as Entry;
    const kept = entry.encoded[encoding];
    if (kept) return kept;
    const bytes = COMPRESS[encoding](entry.bytes);
    entry.encoded[encoding] = bytes;
    entry.size += bytes.length;
    // An answer already dropped (or never kept) is not counted: it goes with this request.
    if (this.entries.get(entry.key) === entry) {
      this.size += bytes.length;
      this.evict(0, 0);
    }
    return bytes;
  }

  /** answers and bytes held (tests, diagnostics) */
  stats(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.size };
  }

  private remove(key: string) {
    const old = this.entries.get(key);
    if (!old) return;
    this.entries.delete(key);
    this.size -= old.size;
  }

  /** Drops the least recently used until `entries` more answers and `bytes` more bytes fit. */
  private evict(entries: number, bytes: number) {
    while (
      this.entries.size > 0 &&
      (this.entries.size + entries > this.limits.entries || this.size + bytes > this.limits.bytes)
    ) {
      this.remove(this.entries.keys().next().value as string);
    }
  }

  private reset(snap: CatalogSnapshot) {
    this.snapshot = snap;
    this.entries.clear();
    this.size = 0;
  }
}
