import path from 'node:path';
import fp from 'fastify-plugin';
import compress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import { COMPRESS_OPTIONS } from './compression';

/** Compressed responses (gzip/brotli when asked) and the files under public/ with cache headers. */
export default fp<{ root: string }>(
  async (app, { root }) => {
    // Cached catalog answers arrive already compressed (Content-Encoding set): compress skips them.
    await app.register(compress, { global: true, ...COMPRESS_OPTIONS });
    await app.register(fastifyStatic, {
      root: path.resolve(root),
      prefix: '/',
      wildcard: false,
      index: false,
      cacheControl: true,
      maxAge: '1h',
      setHeaders(reply, filePath) {
        // Bundles are rebuilt on each deploy; a short cache with revalidation is safe.
        if (filePath.includes(`${path.sep}assets${path.sep}`))
          reply.header('cache-control', 'public, max-age=300, must-revalidate');
      },
    });
  },
  { name: 'static', fastify: '5.x', dependencies: ['security-headers'] },
);
