// The brand's generated files: the theme stylesheet and the 1200×630 share card.
import { createHash } from 'node:crypto';
import fp from 'fastify-plugin';
import type sharp from 'sharp';
import { brand, cardSvg, configureBrand, themeCss } from './index';

export interface BrandRoutesOptions {
  /**
   * sharp, loaded on first use (`loadSharp` of platform/storage/images.ts). buildApp hands it
   * in: the brand sits below the views and the platform, so it imports neither.
   */
  loadSharp: () => Promise<typeof sharp>;
}

export default fp<BrandRoutesOptions>(
  async (app, { loadSharp }) => {
    const b = configureBrand(app.config);
    const css = Buffer.from(themeCss(b.colors));
    let card: Promise<Buffer> | null = null;
    const etag = (buf: Buffer) => `"${createHash('sha256').update(buf).digest('base64url').slice(0, 16)}"`;
    const cssTag = etag(css);

    app.get(b.theme, async (request, reply) => {
      reply.header('cache-control', 'public, max-age=3600').header('etag', cssTag);
      if (request.headers['if-none-match'] === cssTag) return reply.code(304).send();
      return reply.type('text/css; charset=utf-8').send(css);
    });

    app.get(b.card, async (_request, reply) => {
      // Rendered once per process from the name and colours (about 50 ms), then kept.
      // sharp is loaded here, on the first request for the card, not at start (docs/decisions/135).
      card ??= loadSharp().then((sharp) =>
        sharp(Buffer.from(cardSvg(brand())))
          .png({ compressionLevel: 9, palette: true })
          .toBuffer(),
      );
      try {
        const png = await card;
        return reply.type('image/png').header('cache-control', 'public, max-age=86400').send(png);
      } catch (err) {
        card = null;
        throw err;
      }
    });
  },
  { name: 'brand', fastify: '5.x' },
);
