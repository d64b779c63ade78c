// Public answers kept as bytes, made once per catalog snapshot (docs/decisions/130).
// The one freshness rule for every cached catalog answer: an entry is served only while the
// snapshot it was made from is still the one the service hands out. The service keeps the
// same snapshot object while the rows read every CATALOG_TTL_MS are unchanged, and replaces
// it after an edit (at once on the editing instance, within 5 s on the others), so a change
// empties the cache. Answers that also read the database (the unit page) expire on their
// own as well.
import type { CatalogSnapshot } from './catalog.service';

interface Entry {
  bytes: Buffer;
  /** ms timestamp; Infinity for answers made from the snapshot alone */
  expires: number;
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

  constructor(private readonly limits: SnapshotCacheLimits) {}

  /** The bytes kept for `key` from `snap`, unless `snap` is another snapshot or the entry expired at `now`. */
  get(snap: CatalogSnapshot, key: string, now = 0): Buffer | undefined {
    if (snap !== this.snapshot) {
      this.reset(snap);
      return undefined;
    }
    const entry = this.entries.get(key);
    if (!entry || entry.expires <= now) return undefined;
    // Most recently used last: Map keeps insertion order.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.bytes;
  }

  /** Even an expired entry of this snapshot: better than an error page while the database is down. */
  stale(snap: CatalogSnapshot, key: string): Buffer | undefined {
    return snap === this.snapshot ? this.entries.get(key)?.bytes : undefined;
  }

  /**
   * Keeps `bytes` for `key`. An answer made from a snapshot that is no longer the latest
   * one seen (a request that started before a reload) is not kept.
   */
  set(snap: CatalogSnapshot, key: string, bytes: Buffer, ttlMs = Infinity, now = 0): Buffer {
    if (snap !== this.snapshot || bytes.length > this.limits.bytes) return bytes;
    const old = this.entries.get(key);
    if (old) {
      this.size -= old.bytes.length;
      this.entries.delete(key);
    }
    while (this.entries.size >= this.limits.entries || this.size + bytes.length > this.limits.bytes) {
      const [oldestKey, oldest] = this.entries.entries().next().value as [string, Entry];
      this.entries.delete(oldestKey);
      this.size -= oldest.bytes.length;
    }
    this.entries.set(key, { bytes, expires: ttlMs === Infinity ? Infinity : now + ttlMs });
    this.size += bytes.length;
    return bytes;
  }

  /** answers and bytes held (tests, diagnostics) */
  stats(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.size };
  }

  private reset(snap: CatalogSnapshot) {
    this.snapshot = snap;
    this.entries.clear();
    this.size = 0;
  }
}
