import fp from 'fastify-plugin';

/** Feature plugin: mail. Routes are registered here. */
export default fp(
  async (_app) => {
    // filled in by the mail feature
  },
  { name: 'feature-mail', fastify: '5.x', dependencies: ['db', 'errors', 'forms', 'auth'] },
);
