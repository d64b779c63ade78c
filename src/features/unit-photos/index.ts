import fp from 'fastify-plugin';
import { withStaffSession } from '../../http/session';
import { createLocalStorage } from '../storage/index';
import { invalidateCatalogCache } from '../catalog/index';
import { createPhotosRepository } from './photos.repository';
import { createPhotosService } from './photos.service';
import { photoFileRoutes, photosStaffRoutes } from './photos.routes';

/** Unit photos: the staff screen /admin/conteudo/unidades/:id/fotos and the public files /fotos/unidades/… */
export default fp(
  async (app) => {
    const storage = createLocalStorage(app.config.uploadsDir);
    const service = createPhotosService(createPhotosRepository(app.db), storage, () => invalidateCatalogCache(app));
    photoFileRoutes(app, storage);
    await app.register(withStaffSession(photosStaffRoutes(service)));
  },
  { name: 'feature-unit-photos', fastify: '5.x', dependencies: ['db', 'errors', 'forms', 'auth', 'feature-catalog'] },
);
