// The answer of every POST that makes a resource: 201 when it exists already, 202 when a job is making it
// (poll it), and its URL in Location either way (RFC 9110 §10.2.2, §15.3.2), so a client follows one header.
import type { FastifyReply } from 'fastify';

/** `location`: the resource's URL; `queued`: a job is still making it. */
export function sendCreated(
  reply: FastifyReply,
  resource: object,
  options: { location: string; queued: boolean },
) {
  return reply
    .status(options.queued ? 202 : 201)
    .header('location', options.location)
    .send(resource);
}
