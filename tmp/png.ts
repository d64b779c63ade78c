import sharp from 'sharp';
import { writeFileSync } from 'node:fs';
import { processImage } from '../src/features/storage/images';
const rss = () => Math.round(process.memoryUsage().rss / 1e6);
for (const fmt of ['png', 'webp'] as const) {
  const buf = await sharp({ create: { width: 8000, height: 6000, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 3 } } })[fmt]().toBuffer();
  const file = `/tmp/imgs/48mp.${fmt}`;
  writeFileSync(file, buf);
  global.gc?.();
  const idle = rss();
  let peak = idle;
  const timer = setInterval(() => (peak = Math.max(peak, rss())), 10);
  const t0 = Date.now();
  const [out] = await processImage(file, { variants: [{ name: '', maxSide: 2048 }] });
  clearInterval(timer);
  console.log(fmt, (buf.length / 1e6).toFixed(1), 'MB', Date.now() - t0, 'ms', 'above', peak - idle, out!.width, out!.height);
}
