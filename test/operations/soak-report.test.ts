// The soak's RSS verdict: growth over the window after the warm-up (or after a restart), a miss
// above 5%, and a window too short to measure (a 2-minute run with a kill) shown as unmeasured
// rather than as a number it does not have.
import { describe, expect, it } from 'vitest';
import { verdicts } from '../../bench/soak/report';
import type { Point, SoakResult } from '../../bench/soak/run';

const delivery = { label: 'x', queued: 1, delivered: 1, duplicates: [], undelivered: 0, worstLateMs: 0 };

/** A run of `seconds` whose one instance's RSS goes linearly from 100 MB by `growth`. */
function run(seconds: number, growth: number, restartAt?: number): SoakResult {
  const rss: Point[] = [];
  for (let t = 0; t <= seconds * 1000; t += 5_000) rss.push({ t, value: 100 * (1 + (growth * t) / (seconds * 1000)) });
  return {
    plan: { rssFrom: seconds / 3 },
    instances: ['a'],
    samples: new Map(),
    groups: new Map(),
    faults: [],
    forms: [],
    mail: delivery,
    webhooks: delivery,
    rss: new Map([['a', rss]]),
    heap: new Map([['a', rss]]),
    restarts: new Map(restartAt === undefined ? [] : [['a', [restartAt * 1000]]]),
  } as unknown as SoakResult;
}

const rssVerdict = (r: SoakResult) => verdicts(r).find((v) => v.label.startsWith('RSS da instância a'))!;

describe('the soak report’s RSS verdict', () => {
  it('passes a flat series and misses one that grows by more than 5% over the window', () => {
    expect(rssVerdict(run(1800, 0.01))).toMatchObject({ pass: true });
    expect(rssVerdict(run(1800, 0.01)).unmeasured).toBeUndefined();
    const grown = rssVerdict(run(1800, 0.2));
    expect(grown.pass).toBe(false);
    expect(grown.value).toMatch(/\(1[0-9]\.[0-9]%\)/);
  });

  it('calls a window too short after a restart unmeasured, without a NaN, and never a miss', () => {
    const short = rssVerdict(run(120, 0.2, 80));
    expect(short).toMatchObject({ pass: true, unmeasured: true });
    expect(short.value).toContain('curta demais para medir');
    expect(short.value).not.toContain('NaN');
  });
});
