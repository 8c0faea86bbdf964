// Large JSON bodies of the CPU-heavy routes (POST /v1/score, /v1/extract: up to 8 MB of documents) are parsed
// and validated on the CPU pool, not on the event loop: JSON.parse with the prototype-poisoning scan, the
// scan for text PostgreSQL cannot store and Ajv (whose maxLength counts a 5 MB string's characters) would
// hold the loop for each such request, and /healthz and status reads would wait behind them. The thread takes
// the body's bytes (moved, not copied) and does what the inline path does, in its order and with the same Ajv
// setup (validation.ts); its refusals become the very errors the inline path raises, so a client sees the
// same problem+json whatever the size. Small bodies stay on Fastify's own parser.
import AjvCompiler from '@fastify/ajv-compiler';
import type { FastifyError, FastifyInstance, FastifyRequest, FastifySchemaCompiler } from 'fastify';
import { errorCodes } from 'fastify';
import type { FastifyValidationResult } from 'fastify/types/schema.js';
import { InputError } from '../errors.js';
import type { JsonBodyTask } from '../services/pools/cpu-tasks.js';
import {
  BODY_OPTIONS,
  finiteNumbersOnly,
  isValidatedOnPool,
  markValidatedOnPool,
  type RouteValidator,
  TEXT_PART_OPTIONS,
  tooDeepError,
} from '../validation.js';
import { jsonBodyParser } from './json-body.js';
import { fieldName } from './problems.js';

/** Bodies above this go to the pool (the pool's own threshold for running a task inline). */
export const LARGE_JSON_BODY_BYTES = 64 * 1024;

/**
 * Registers, in the calling route plugin's scope only, the application/json parser that sends large bodies to
 * the pool; returns the route's `validatorCompiler`, which skips bodies the pool has validated.
 */
export function largeJsonBodies(
  app: FastifyInstance,
  route: JsonBodyTask['route'],
): FastifySchemaCompiler<unknown> {
  const inline = jsonBodyParser(app);
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer' },
    (request: FastifyRequest, body: Buffer, done: (error: Error | null, value?: unknown) => void) => {
      if (body.length <= LARGE_JSON_BODY_BYTES) {
        inline(request, body.toString('utf8'), done);
        return;
      }
      app.runtime.cpu.run('parseJsonBody', { bytes: body, route }, 'body').then((result) => {
        if (result.ok) {
          markValidatedOnPool(result.body);
          done(null, result.body);
        } else if ('tooDeep' in result) {
          done(tooDeepError());
        } else if ('syntax' in result) {
          done(new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY());
        } else if ('unstorable' in result) {
          // as problems.ts's preValidation hook words it
          const field = fieldName(result.unstorable.path) || 'body';
          const message = result.unstorable.message;
          done(new InputError(`${field}: ${message}`, field, { errors: [{ field, in: 'body', message }] }));
        } else {
          // as Fastify raises a failed schema validation: problems.ts maps it to the same 400
          const error = new Error('body validation failed') as FastifyError & { validationContext: string };
          error.validation = result.issues as FastifyError['validation'];
          error.validationContext = 'body';
          error.statusCode = 400;
          done(error);
        }
      }, done);
    },
  );
  const pool = AjvCompiler();
  const bodies = pool({}, { customOptions: BODY_OPTIONS }) as unknown as RouteValidator;
  const textParts = finiteNumbersOnly(
    pool({}, { customOptions: TEXT_PART_OPTIONS }) as unknown as RouteValidator,
  );
  return ({
    schema,
    httpPart,
    method,
    url,
  }: {
    schema: unknown;
    httpPart?: string;
    method: string;
    url: string;
  }) => {
    if (httpPart !== 'body') return textParts({ schema, httpPart, method, url }) as FastifyValidationResult;
    const validate = bodies({ schema, httpPart, method, url }) as ((data: unknown) => boolean) & {
      errors?: unknown;
    };
    const skipping = (data: unknown) => {
      if (isValidatedOnPool(data)) return true;
      const valid = validate(data);
      skipping.errors = validate.errors;
      return valid;
    };
    skipping.errors = null as unknown;
    return skipping as FastifyValidationResult;
  };
}
