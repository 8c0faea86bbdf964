// application/json bodies, on every route: Fastify's own parser (secure-json-parse refusing __proto__ and
// constructor.prototype) behind a bound on nesting depth (validation.ts MAX_JSON_DEPTH), so a body nested
// tens of thousands deep is a 400 naming the limit instead of a stack overflow in whatever walks it next.
// The score and extract routes parse large bodies on the CPU pool (large-json-body.ts) with the same bound.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { nestsTooDeep, tooDeepError } from '../validation.js';

type Done = (error: Error | null, value?: unknown) => void;

/** Fastify's JSON body parser, refusing a body nested deeper than MAX_JSON_DEPTH before it is parsed. */
export function jsonBodyParser(app: FastifyInstance) {
  const parse = app.getDefaultJsonParser('error', 'error');
  return (request: FastifyRequest, text: string, done: Done) => {
    if (nestsTooDeep(text)) {
      done(tooDeepError());
      return;
    }
    parse(request, text, done);
  };
}

export default fp(
  async (app: FastifyInstance) => {
    const parse = jsonBodyParser(app);
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) =>
      parse(request, body as string, done),
    );
  },
  { name: 'json-body' },
);
