// Gives memory back after a burst of traffic (docs/decisions/175). Under load V8 promotes the
// objects of the requests in flight at each young-generation collection; that garbage, and
// the pages old space grew into, stay until the next full collection, which may not come
// for a long time once the load stops: an instance that served a burst kept 25–35 MB it no
// longer used. When the event loop has been idle for a moment and the heap has grown since
// the last release, one full collection in V8's "last resort" mode (its low-memory
// notification: compacts and returns free pages to the system) gives them back, ~60 ms of
// work done while nothing waits for it. Needs `--expose-gc` (npm start passes it).
import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import v8 from 'node:v8';

export interface IdleMemoryOptions {
  /** how often the loop's utilisation and the heap are looked at */
  intervalMs: number;
  /** this many quiet looks in a row make the process idle */
  idleChecks: number;
  /** a looking interval with the loop busy less than this share of the time is quiet */
  quietUtilization: number;
  /** release only when V8's heap grew at least this much since the last release */
  growthBytes: number;
}

const IDLE_MEMORY_DEFAULTS: IdleMemoryOptions = {
  intervalMs: 250,
  idleChecks: 2,
  quietUtilization: 0.05,
  growthBytes: 8 * 1024 * 1024,
};

export interface IdleMemoryRelease {
  stop(): void;
}

/**
 * Starts watching; null when the process runs without `--expose-gc` (nothing to call).
 * `onRelease` hears each release (heap size before and after, how long it took).
 */
export function startIdleMemoryRelease(
  onRelease: (event: { heapBeforeBytes: number; heapAfterBytes: number; ms: number }) => void = () => {},
  options: IdleMemoryOptions = IDLE_MEMORY_DEFAULTS,
): IdleMemoryRelease | null {
  const gc = globalThis.gc;
  if (typeof gc !== 'function') return null;
  const heapSize = () => v8.getHeapStatistics().total_heap_size;
  let baseline = heapSize();
  let quiet = 0;
  let last: EventLoopUtilization = performance.eventLoopUtilization();
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const { utilization } = performance.eventLoopUtilization(now, last);
    last = now;
    quiet = utilization < options.quietUtilization ? quiet + 1 : 0;
    if (quiet < options.idleChecks) return;
    const before = heapSize();
    // A heap that shrank on its own (a regular full collection) is the new baseline.
    if (before < baseline) baseline = before;
    if (before - baseline < options.growthBytes) return;
    const started = performance.now();
    gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
    baseline = heapSize();
    quiet = 0;
    last = performance.eventLoopUtilization();
    onRelease({ heapBeforeBytes: before, heapAfterBytes: baseline, ms: performance.now() - started });
  }, options.intervalMs);
  // Never what keeps the process alive, nor what holds a shutdown.
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
