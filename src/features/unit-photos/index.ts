// Unit photos: the staff screen where admins upload, order and describe up to 8 photos per
// unit, and the public, content-hashed copies the site serves.
import fp from 'fastify-plugin';
import { transactional } from '../../db/transactional';
import { invalidateCatalogCache } from '../catalog/index';
import { createPhotosRepository } from './photos.repository';
import { createPhotosService } from './photos.service';
import { photoFileRoutes, photosStaffRoutes } from './photos.routes';
import { staffScope } from '../../staff/scope';

/** Unit photos: the staff screen /admin/conteudo/unidades/:id/fotos and the public files /fotos/unidades/… */
export default fp(
  async (app) => {
    const storage = app.storage;
    const service = createPhotosService(transactional(app.db, createPhotosRepository), storage, () =>
      invalidateCatalogCache(app),
    );
    photoFileRoutes(app, storage);
    await staffScope(app, { role: 'admin' }, photosStaffRoutes(service));
  },
  {
    name: 'feature-unit-photos',
    fastify: '5.x',
    dependencies: ['db', 'errors', 'forms', 'identity', 'feature-catalog', 'storage'],
  },
);
