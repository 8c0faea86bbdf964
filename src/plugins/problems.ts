// Every error leaves as application/problem+json (RFC 9457). TrawlError codes and Fastify's validation
// errors are mapped here, once; a 5xx never carries internals (they go to the log with the request id).
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { TrawlError, type TrawlErrorCode } from '../errors.js';
import { isUnreachable, RETRY_AFTER_SECS } from '../outage.js';

const STATUS: Record<TrawlErrorCode, number> = {
  bad_request: 400,
  validation: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unprocessable: 422,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
};

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export function problemType(code: string): string {
  return `urn:trawl:problem:${code.replaceAll('_', '-')}`;
}

interface ValidationIssue {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

/** Ajv's `/scope/include/2` + missing/additional property → `scope.include[2]`, the field a person would name. */
export function fieldOf(issue: ValidationIssue): string {
  const segments = issue.instancePath
    .split('/')
    .slice(1)
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'));
  const extra = issue.params.missingProperty ?? issue.params.additionalProperty;
  if (typeof extra === 'string') segments.push(extra);
  return segments.reduce(
    (path, segment) =>
      /^\d+$/.test(segment) ? `${path}[${segment}]` : path ? `${path}.${segment}` : segment,
    '',
  );
}

function describe(issue: ValidationIssue): string {
  if (issue.keyword === 'additionalProperties')
    return `unknown field ${String(issue.params.additionalProperty)}`;
  if (issue.keyword === 'required') return `${String(issue.params.missingProperty)} is required`;
  return issue.message ?? 'is invalid';
}

function send(reply: FastifyReply, status: number, body: Record<string, unknown>) {
  return reply
    .status(status)
    .type('application/problem+json')
    .send({ title: TITLES[status] ?? 'Error', status, ...body });
}

export default fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      const instance = request.url;
      if (error.validation) {
        const context = error.validationContext ?? 'body';
        const errors = error.validation.map((issue) => {
          const field = fieldOf(issue as ValidationIssue);
          return { field: field || context, in: context, message: describe(issue as ValidationIssue) };
        });
        const first = errors[0]!;
        return send(reply, 400, {
          type: problemType('validation'),
          detail: `${first.field}: ${first.message}`,
          field: first.field,
          errors,
          instance,
        });
      }
      // a dependency that is down (outage.ts): 503 with Retry-After, never a 500 (a TrawlError keeps its own
      // code: a document that could not be fetched is the client's 422, whatever refused the connection)
      if (error instanceof TrawlError ? error.code === 'unavailable' : isUnreachable(error)) {
        request.log.warn({ err: error }, 'request failed: a dependency is not answering');
        reply.header('retry-after', String(RETRY_AFTER_SECS));
        return send(reply, 503, {
          type: problemType('unavailable'),
          detail:
            error instanceof TrawlError ? error.message : 'the database is not answering; retry shortly',
          retryAfterSecs: RETRY_AFTER_SECS,
          instance,
        });
      }
      if (error instanceof TrawlError) {
        const status = STATUS[error.code];
        if (status >= 500) request.log.error({ err: error }, 'request failed');
        return send(reply, status, {
          type: problemType(error.code),
          detail: status >= 500 ? 'the service could not complete the request' : error.message,
          ...(error.field ? { field: error.field } : {}),
          ...(error.detail ?? {}),
          instance,
        });
      }
      const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
      if (status >= 500) {
        request.log.error({ err: error }, 'request failed');
        return send(reply, status, {
          type: problemType('internal'),
          detail: 'the service could not complete the request',
          instance,
        });
      }
      // Fastify's own 4xx (bad JSON, wrong content type, body too large): their messages are safe to show.
      return send(reply, status, {
        type: problemType(error.code?.toLowerCase() ?? 'bad-request'),
        detail: error.message,
        ...(error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' ? { field: 'content-type' } : {}),
        ...(status === 400 && error.code?.startsWith('FST_ERR_CTP') ? { field: 'body' } : {}),
        instance,
      });
    });

    app.setNotFoundHandler((request, reply) =>
      send(reply, 404, {
        type: problemType('not-found'),
        detail: `no route ${request.method} ${request.url.split('?')[0]}`,
        instance: request.url,
      }),
    );
  },
  { name: 'problems' },
);
