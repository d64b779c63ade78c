import type { FastifyInstance } from 'fastify';

export default async function diagnosticRoutes(_app: FastifyInstance) {
  // filled in below
}
