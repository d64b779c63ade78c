import fp from 'fastify-plugin';

/** Feature plugin: franchise. Routes are registered here. */
export default fp(
  async (_app) => {
    // filled in by the franchise feature
  },
  { name: 'feature-franchise', fastify: '5.x', dependencies: ['db', 'errors', 'forms', 'auth'] },
);
