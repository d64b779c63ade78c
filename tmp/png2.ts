import sharp from 'sharp';
import { writeFileSync } from 'node:fs';
import { processImage } from '../src/features/storage/images';
const rss = () => Math.round(process.memoryUsage().rss / 1e6);
// a screenshot-like PNG: big flat areas with some structure (~ a few MB)
const tile = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 20 } } }).png().toBuffer();
const buf = await sharp({ create: { width: 8000, height: 6000, channels: 3, background: '#e0e0e0' }, limitInputPixels: false })
  .composite(Array.from({ length: 20 }, (_, i) => ({ input: tile, left: (i * 397) % 7600, top: (i * 281) % 5700 })))
  .png().toBuffer();
const file = '/tmp/imgs/48mp-flat.png';
writeFileSync(file, buf);
global.gc?.();
const idle = rss();
let peak = idle;
const timer = setInterval(() => (peak = Math.max(peak, rss())), 10);
const t0 = Date.now();
const [out] = await processImage(file, { variants: [{ name: '', maxSide: 2048 }] });
clearInterval(timer);
console.log('png', (buf.length / 1e6).toFixed(1), 'MB', Date.now() - t0, 'ms', 'above', peak - idle, out!.width, out!.height, (out!.size / 1e6).toFixed(2), 'MB out');
