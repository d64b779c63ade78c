import sharp from 'sharp';
import { pngBomb, jpegBomb } from '../test/helpers/upload';
for (const b of [pngBomb(), await jpegBomb()]) console.log(b.length, await sharp(b, { limitInputPixels: false }).metadata().then((m) => [m.format, m.width, m.height], (e) => String(e)));
