// Demo photos: drawn here with sharp (an SVG scene → JPEG), so nothing is fetched at run
// time and no image file is shipped. They go through the same pipeline as staff uploads.
import { nowIso, type Db } from '../../db/index';
import type { FileStorage } from '../../platform/storage/index';
import { loadSharp } from '../../platform/storage/images';
import { storeUnitPhoto } from './photos.pipeline';
import { createPhotosRepository } from './photos.repository';

interface Scene {
  alt: string;
  svg: (hue: number) => string;
}

const W = 1600;
const H = 1000;

const weights = (hue: number) => `
<rect width="${W}" height="${H}" fill="hsl(${hue} 25% 82%)"/>
<rect y="620" width="${W}" height="380" fill="hsl(${hue} 12% 28%)"/>
${[0, 1, 2, 3]
  .map(
    (i) => `<rect x="${120 + i * 360}" y="120" width="280" height="360" rx="8" fill="hsl(${hue} 60% 92%)"/>
<rect x="${120 + i * 360}" y="120" width="280" height="360" rx="8" fill="none" stroke="hsl(${hue} 20% 55%)"
 stroke-width="10"/>`,
  )
  .join('')}
<rect x="100" y="560" width="1400" height="24" rx="12" fill="hsl(${hue} 10% 20%)"/>
${Array.from(
  { length: 9 },
  (_, i) => `<circle cx="${190 + i * 150}" cy="540" r="${34 + (i % 3) * 8}" fill="hsl(${(hue + 180) % 360} 10% 18%)"/>
<rect x="${150 + i * 150}" y="532" width="80" height="16" fill="#9aa4ab"/>`,
).join('')}
<rect x="520" y="700" width="560" height="40" rx="20" fill="hsl(${hue} 65% 40%)"/>
<rect x="600" y="740" width="24" height="160" fill="#2b3137"/>
<rect x="976" y="740" width="24" height="160" fill="#2b3137"/>`;

const cardio = (hue: number) => `
<defs><linearGradient id="g" x1="0" x2="0" y1="0" y2="1">
<stop offset="0" stop-color="hsl(${hue} 70% 70%)"/><stop offset="1" stop-color="hsl(${hue} 40% 90%)"/>
</linearGradient></defs>
<rect width="${W}" height="${H}" fill="url(#g)"/>
<rect y="660" width="${W}" height="340" fill="hsl(${hue} 10% 24%)"/>
${[0, 1, 2, 3, 4]
  .map(
    (i) => `<g transform="translate(${110 + i * 300} 360)">
<rect x="0" y="250" width="240" height="60" rx="14" fill="#1e2428"/>
<rect x="170" y="0" width="26" height="260" rx="10" fill="#39424a"/>
<rect x="130" y="-20" width="110" height="60" rx="12" fill="hsl(${(hue + 200) % 360} 70% 45%)"/></g>`,
  )
  .join('')}`;

const studio = (hue: number) => `
<rect width="${W}" height="${H}" fill="hsl(${hue} 35% 88%)"/>
<rect y="640" width="${W}" height="360" fill="hsl(30 45% 55%)"/>
${Array.from(
  { length: 12 },
  (_, i) => `<rect x="${i * 140}" y="640" width="4" height="360" fill="hsl(30 40% 45%)"/>`,
).join('')}
<rect x="80" y="90" width="1440" height="440" rx="6" fill="hsl(${hue} 40% 96%)" stroke="hsl(${hue} 20% 70%)"
 stroke-width="8"/>
${[0, 1, 2, 3]
  .map(
    (i) => `<rect x="${160 + i * 360}" y="760" width="260" height="70" rx="14"
 fill="hsl(${(hue + 40 * i) % 360} 60% 50%)"/>`,
  )
  .join('')}
<circle cx="1320" cy="820" r="90" fill="hsl(${(hue + 150) % 360} 55% 55%)"/>`;

export const DEMO_SCENES: Scene[] = [
  { alt: 'Área de musculação com halteres e bancos', svg: weights },
  { alt: 'Esteiras e bicicletas na área de cardio', svg: cardio },
  { alt: 'Estúdio de aulas coletivas com colchonetes', svg: studio },
];

export async function demoPhoto(scene: Scene, hue: number): Promise<Buffer> {
  const sharp = await loadSharp();
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">` +
    `${scene.svg(hue)}</svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

/** Adds up to `perUnit` drawn photos to every active unit that has none. */
export async function seedDemoPhotos(db: Db, storage: FileStorage, perUnit = 3, only?: number[]): Promise<number> {
  let q = db.selectFrom('unidades').select(['id']).where('ativo', '=', 1).orderBy('id');
  if (only) q = q.where('id', 'in', only);
  const units = await q.execute();
  let added = 0;
  for (const [u, unit] of units.entries()) {
    const has = await db.selectFrom('unidade_fotos').select('id').where('unidade_id', '=', unit.id).executeTakeFirst();
    if (has) continue;
    for (let i = 0; i < Math.min(perUnit, DEMO_SCENES.length); i++) {
      const scene = DEMO_SCENES[(u + i) % DEMO_SCENES.length]!;
      const stored = await storeUnitPhoto(storage, unit.id, await demoPhoto(scene, (u * 47 + i * 90) % 360));
      const now = nowIso();
      await db.transaction().execute(async (trx) => {
        const repo = createPhotosRepository(trx);
        const id = await repo.insert(
          {
            unidade_id: unit.id,
            ordem: i + 1,
            alt: scene.alt,
            hash: stored.hash,
            largura: stored.largura,
            altura: stored.altura,
            formatos: stored.formatos,
          },
          now,
        );
        await repo.insertFiles(id, stored.keys);
        await storage.commit(trx, stored.keys);
      });
      added++;
    }
  }
  return added;
}
