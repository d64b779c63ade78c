import fp from 'fastify-plugin';

/** Feature plugin: feedback. Routes are registered here. */
export default fp(
  async (_app) => {
    // filled in by the feedback feature
  },
  { name: 'feature-feedback', fastify: '5.x', dependencies: ['db', 'errors', 'forms', 'auth'] },
);
