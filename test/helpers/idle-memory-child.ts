// Run by test/idle-memory.test.ts in a process of its own (with or without --expose-gc):
// a burst that promotes garbage the way requests in flight do, then quiet. Prints what the
// release watcher did as one JSON line.
import { startIdleMemoryRelease } from '../../src/lib/idle-memory';

const events: { at: number; heapBeforeBytes: number; heapAfterBytes: number; ms: number }[] = [];
const watch = startIdleMemoryRelease((e) => events.push({ at: Date.now(), ...e }), {
  intervalMs: 50,
  idleChecks: 2,
  quietUtilization: 0.05,
  growthBytes: 8 * 1024 * 1024,
});
if (!watch) {
  console.log(JSON.stringify({ started: false }));
} else {
  // Objects kept across a few turns survive young collections and land in old space.
  let kept: unknown[][] = [];
  const burstEnds = Date.now() + 1_500;
  const turn = () => {
    kept.push(Array.from({ length: 2_000 }, (_, i) => ({ i, s: `item ${i}` })));
    if (kept.length > 20) kept = kept.slice(10);
    if (Date.now() < burstEnds) return setImmediate(turn);
    kept = [];
    const quietFrom = Date.now();
    setTimeout(() => {
      watch.stop();
      console.log(JSON.stringify({ started: true, quietFrom, events }));
    }, 1_000);
  };
  turn();
}
