import type { FastifyReply, FastifyRequest } from 'fastify';

/** Props for the staff layout: name, role and a CSRF token for the logout button. */
export function staffLayout(request: FastifyRequest, reply: FastifyReply) {
  return request.staff
    ? { name: request.staff.nome, csrfToken: reply.generateCsrf(), papel: request.staff.papel }
    : null;
}
