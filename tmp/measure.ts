import { readFileSync } from 'node:fs';
import { processImage, decodeGate } from '../src/features/storage/images';
const side = Number(process.env.SIDE ?? 3072);
const n = Number(process.env.N ?? 1);
const input = readFileSync('/tmp/imgs/48mp.jpg');
const rss = () => Math.round(process.memoryUsage().rss / 1e6);
// warm sharp
const small = await (await import('sharp')).default({ create: { width: 10, height: 10, channels: 3, background: '#fff' } }).jpeg().toBuffer();
await processImage(small, { variants: [{ name: '', maxSide: side }] });
global.gc?.();
const idle = rss();
let peak = idle;
const timer = setInterval(() => (peak = Math.max(peak, rss())), 20);
const t0 = Date.now();
const res = await Promise.all(Array.from({ length: n }, () => processImage(Buffer.from(input), { variants: [{ name: '', maxSide: side }] })));
const ms = Date.now() - t0;
clearInterval(timer);
console.log({ side, n, ms, idle, peak, above: peak - idle, out: res[0]![0]!.width + 'x' + res[0]![0]!.height, size: res[0]![0]!.size, gatePeak: decodeGate.peak });
