import { readFileSync } from 'node:fs';
import sharp from 'sharp';
sharp.cache(false);
const input = readFileSync('/tmp/imgs/48mp.jpg');
const rss = () => Math.round(process.memoryUsage().rss / 1e6);
const ext = () => Math.round(process.memoryUsage().external / 1e6);
const mode = process.env.MODE ?? 'seq';
let peak = rss();
const timer = setInterval(() => (peak = Math.max(peak, rss())), 10);
const idle = rss();
const one = async () => {
  const t = Date.now();
  await sharp(input, { sequentialRead: mode !== 'rand', limitInputPixels: 50e6 }).rotate().resize({ width: 3072, height: 3072, fit: 'inside' }).jpeg({ quality: 85 }).toBuffer();
  return Date.now() - t;
};
for (let i = 0; i < 5; i++) { const ms = await one(); console.log(i, ms, 'ms rss', rss(), 'peak', peak, 'ext', ext()); }
clearInterval(timer);
console.log({ idle, peak });
