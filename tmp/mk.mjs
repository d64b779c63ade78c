import sharp from 'sharp';
const w = 8000, h = 6000;
const t0 = Date.now();
// a photo-like image: smooth gradient + mild noise
const noise = await sharp({ create: { width: w, height: h, channels: 3, noise: { type: 'gaussian', mean: 128, sigma: 40 } } }).raw().toBuffer();
const img = sharp(noise, { raw: { width: w, height: h, channels: 3 } }).blur(1.2).jpeg({ quality: 92 });
await img.toFile('/tmp/imgs/48mp.jpg');
console.log('made', Date.now() - t0);
