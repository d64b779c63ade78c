// The public forms' pages: each loads the script that renews a used envio_id on a page
// shown from history (docs/decisions/183), and the survey, free-message and thanks pages
// name their canonical address with Open Graph tags (absolute, from PUBLIC_URL).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../helpers/app';

const BASE = 'https://www.exemplo.com.br';
let t: TestContext;
let unitId: number;

beforeAll(async () => {
  t = await createTestApp({ env: { PUBLIC_URL: BASE } });
  unitId = (
    await t.db.selectFrom('unidades').select('id').where('ativo', '=', 1).orderBy('id').executeTakeFirstOrThrow()
  ).id;
});
afterAll(async () => t?.close());

describe('public form pages', () => {
  it('every form page loads envio-fresh.js and is still sent with no-store', async () => {
    const kiosk = `/NPS/nps_app_php/quiosque.php?unidade_id=${unitId}`;
    for (const url of [
      '/pages/Franquia/index.php',
      `/NPS/nps_app_php/index.php?unidade_id=${unitId}`,
      '/NPS/nps_app_php/fale_aqui.php',
      kiosk,
      `/aula-experimental?unidade=${unitId}`,
    ]) {
      const res = await t.app.inject(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toContain('src="/assets/envio-fresh.js"');
      expect(res.body, url).toMatch(/name="envio_id" value="[A-Za-z0-9_-]{22}"/);
      expect(res.headers['cache-control'], url).toContain('no-store');
    }
  });

  it('survey, free-message and thanks pages carry a canonical link and Open Graph tags', async () => {
    const pages: [string, string][] = [
      ['/NPS/nps_app_php/index.php', '/NPS/nps_app_php/index.php'],
      [`/NPS/nps_app_php/index.php?unidade=${unitId}&origem=cartaz`, `/NPS/nps_app_php/index.php?unidade_id=${unitId}`],
      ['/NPS/nps_app_php/obrigado.php', '/NPS/nps_app_php/obrigado.php'],
      ['/NPS/nps_app_php/fale_aqui.php', '/NPS/nps_app_php/fale_aqui.php'],
      ['/pages/Franquia/obrigado.php', '/pages/Franquia/obrigado.php'],
    ];
    for (const [url, canonical] of pages) {
      const res = await t.app.inject(url);
      expect(res.statusCode, url).toBe(200);
      const href = `${BASE}${canonical}`.replace(/&/g, '&amp;');
      expect(res.body, url).toContain(`<link rel="canonical" href="${href}"/>`);
      expect(res.body, url).toContain(`<meta property="og:url" content="${href}"/>`);
      expect(res.body, url).toMatch(/<meta property="og:title" content="[^"]+"\/>/);
      expect(res.body, url).toMatch(/<meta property="og:description" content="[^"]+"\/>/);
      expect(res.body, url).toContain(`<meta property="og:image" content="${BASE}/`);
      expect(res.body, url).toContain('<meta property="og:locale" content="pt_BR"/>');
    }
  });
});
