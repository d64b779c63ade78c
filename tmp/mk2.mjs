import sharp from 'sharp';
const t0 = Date.now();
const w = 8000, h = 6000;
// gradient background composited with gaussian noise
const buf = await sharp({ create: { width: w, height: h, channels: 3, noise: { type: 'gaussian', mean: 128, sigma: Number(process.argv[2] ?? 12) } } }).jpeg({ quality: 90 }).toBuffer();
console.log(buf.length, Date.now() - t0);
