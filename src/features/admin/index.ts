import fp from 'fastify-plugin';

/** Feature plugin: admin. Routes are registered here. */
export default fp(
  async (_app) => {
    // filled in by the admin feature
  },
  { name: 'feature-admin', fastify: '5.x', dependencies: ['db', 'errors', 'forms', 'auth'] },
);
