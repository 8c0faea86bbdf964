// Every error leaves as application/problem+json (RFC 9457). TrawlError codes and Fastify's validation
// errors are mapped here, once; a 5xx never carries internals (they go to the log with the request id).
// Also here: text PostgreSQL cannot store is refused before validation (any route, any part of the request),
// a known path asked with another method is a 405 with Allow, and the router's own errors (a malformed
// percent-encoding, a too-long parameter) are problems too (`frameworkErrors`, a server option), as are the
// errors Node's HTTP parser raises before Fastify has a request (`clientErrorHandler`, a server option) and
// an unmet Expect (417). Problem types are trawl's words, never a framework's codes (FRAMEWORK_PROBLEMS).
import { type IncomingMessage, maxHeaderSize, type ServerResponse } from 'node:http';
import { type Duplex, Stream } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { InputError, TrawlError, type TrawlErrorCode } from '../errors.js';
import { isUnreachable, RETRY_AFTER_SECS } from '../outage.js';
import { PATTERN_MESSAGES } from '../schemas/common.js';
import { findUnstorableText } from '../services/content/input-text.js';
import { isValidatedOnPool } from '../validation.js';

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
  408: 'Request Timeout',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  417: 'Expectation Failed',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export function problemType(code: string): string {
  return `urn:trawl:problem:${code.replaceAll('_', '-')}`;
}

/**
 * The kinds of error Fastify and Node's HTTP parser raise, in trawl's words: a problem `type` never names a
 * framework's code. A code not listed is named by its status (415 → unsupported-media-type), and any other
 * fault of Node's parser (llhttp's HPE_ codes: a bad request line, header or framing) is a malformed request.
 */
const FRAMEWORK_PROBLEMS: Readonly<Record<string, string>> = {
  FST_ERR_BAD_URL: 'bad-url',
  FST_ERR_MAX_PARAM_LENGTH: 'path-parameter-too-long',
  FST_ERR_CTP_INVALID_JSON_BODY: 'invalid-json',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'empty-body',
  FST_ERR_CTP_BODY_TOO_LARGE: 'body-too-large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported-media-type',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'bad-content-length',
  HPE_INVALID_METHOD: 'unknown-method',
  HPE_HEADER_OVERFLOW: 'headers-too-large',
  ERR_HTTP_REQUEST_TIMEOUT: 'request-timeout',
};

export function frameworkProblemType(code: string | undefined, status: number): string {
  const listed = code === undefined ? undefined : FRAMEWORK_PROBLEMS[code];
  if (listed) return problemType(listed);
  if (code?.startsWith('HPE_')) return problemType('malformed-request');
  return problemType((TITLES[status] ?? TITLES[400]!).toLowerCase().replaceAll(' ', '-'));
}

interface ValidationIssue {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

/** `['scope', 'include', 2]` → `scope.include[2]`, the field a person would name. */
export function fieldName(segments: ReadonlyArray<string | number>): string {
  return segments.reduce<string>(
    (path, segment) =>
      typeof segment === 'number' || /^\d+$/.test(segment)
        ? `${path}[${segment}]`
        : path
          ? `${path}.${segment}`
          : segment,
    '',
  );
}

/** Ajv's `/scope/include/2` + missing/additional property → `scope.include[2]`. */
export function fieldOf(issue: ValidationIssue): string {
  const segments = issue.instancePath
    .split('/')
    .slice(1)
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'));
  const extra = issue.params.missingProperty ?? issue.params.additionalProperty;
  if (typeof extra === 'string') segments.push(extra);
  return fieldName(segments);
}

const listOf = (values: unknown[]) => values.map((value) => JSON.stringify(value)).join(', ');

function describe(issue: ValidationIssue): string {
  if (issue.keyword === 'additionalProperties')
    return `unknown field ${String(issue.params.additionalProperty)}`;
  if (issue.keyword === 'required') return `${String(issue.params.missingProperty)} is required`;
  if (issue.keyword === 'enum' && Array.isArray(issue.params.allowedValues))
    return `must be one of ${listOf(issue.params.allowedValues)}`;
  if (issue.keyword === 'pattern') {
    const known = PATTERN_MESSAGES[String(issue.params.pattern)];
    if (known) return known;
  }
  return issue.message ?? 'is invalid';
}

/**
 * Ajv's issues as a person reads them: a union of constants (TypeBox's enums) is one "must be one of …"
 * rather than an issue per constant, and a string that misses a pattern the schemas explain (an http(s) URL)
 * says so alone, without the length or format issues that follow from it.
 */
export function readableIssues(issues: ValidationIssue[]): ValidationIssue[] {
  let result = issues;
  for (const union of issues.filter((issue) => issue.keyword === 'anyOf')) {
    const branches = result.filter((issue) => issue.schemaPath.startsWith(`${union.schemaPath}/`));
    if (branches.length === 0 || !branches.every((issue) => issue.keyword === 'const')) continue;
    const merged: ValidationIssue = {
      ...union,
      keyword: 'enum',
      params: { allowedValues: branches.map((issue) => issue.params.allowedValue) },
    };
    result = result
      .filter((issue) => !branches.includes(issue))
      .map((issue) => (issue === union ? merged : issue));
  }
  const explained = new Set(
    result
      .filter((issue) => issue.keyword === 'pattern' && PATTERN_MESSAGES[String(issue.params.pattern)])
      .map((issue) => issue.instancePath),
  );
  return result.filter(
    (issue) => !explained.has(issue.instancePath) || !['minLength', 'format'].includes(issue.keyword),
  );
}

function send(reply: FastifyReply, status: number, body: Record<string, unknown>) {
  return reply
    .status(status)
    .type('application/problem+json')
    .send({ title: TITLES[status] ?? 'Error', status, ...body });
}

/** A problem's JSON, for answers given outside Fastify's reply (on the raw socket, or Node's response). */
function problemJson(status: number, body: Record<string, unknown>): string {
  return JSON.stringify({ title: TITLES[status] ?? 'Error', status, ...body });
}

const CLIENT_ERROR_STATUS: Readonly<Record<string, number>> = {
  HPE_HEADER_OVERFLOW: 431,
  ERR_HTTP_REQUEST_TIMEOUT: 408,
};

/**
 * Errors Node's HTTP parser raises before Fastify has a request (a server option, `clientErrorHandler`): an
 * unknown method, a malformed request line, header or framing, headers over Node's size limit, a request
 * not received in time. There is no reply to send through, so the problem is written on the socket, as Node
 * and Fastify write their own, unless a response to this connection has begun; then the socket is closed.
 */
export function clientErrorHandler(
  this: FastifyInstance,
  error: Error & { code?: string; reason?: string },
  socket: Duplex,
) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  this.log.debug({ err: error }, 'client error');
  const status = CLIENT_ERROR_STATUS[error.code ?? ''] ?? 400;
  const detail =
    status === 431
      ? `the request line and headers are larger than this server takes (${maxHeaderSize} bytes)`
      : status === 408
        ? 'the request was not received in time'
        : `the request is not valid HTTP/1.1${error.reason ? `: ${error.reason}` : ''}`;
  // Node's own handler checks the same (a pipelined request's response may be on its way)
  const answering = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !answering?.headersSent) {
    const json = problemJson(status, { type: frameworkProblemType(error.code, status), detail });
    const head = [
      `HTTP/1.1 ${status} ${TITLES[status]}`,
      'Content-Type: application/problem+json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(json)}`,
      'Connection: close',
    ];
    socket.write(`${head.join('\r\n')}\r\n\r\n${json}`);
  }
  socket.destroy(error);
}

/** A 5xx: logged with its cause, answered without it (a 5xx body never carries internals). */
function sendInternal(request: FastifyRequest, reply: FastifyReply, status: number, error: unknown) {
  request.log.error({ err: error }, 'request failed');
  return send(reply, status, {
    type: problemType('internal'),
    detail: 'the service could not complete the request',
    instance: request.url,
  });
}

/** The router's errors, before any route or hook runs: a malformed %-encoding (400), a too-long parameter (414). */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 400;
  if (status >= 500) return sendInternal(request, reply, status, error);
  return send(reply, status, {
    type: frameworkProblemType(error.code, status),
    detail: error.message,
    field: 'path',
    instance: request.url,
  });
}

const PARTS = [
  ['params', 'params'],
  ['query', 'querystring'],
  ['body', 'body'],
] as const;

/** Parsed JSON and query objects are walked; a stream (an uploaded edges file) is its route's to read. */
function isParsed(value: unknown): boolean {
  if (typeof value === 'string') return true;
  return value !== null && typeof value === 'object' && !(value instanceof Stream) && !Buffer.isBuffer(value);
}

export default fp(
  async (app: FastifyInstance) => {
    // An `Expect` other than 100-continue: Node would answer 417 itself, with no body.
    app.server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
      const json = problemJson(417, {
        type: problemType('expectation-failed'),
        detail: `this server meets no expectation but 100-continue; it was sent Expect: ${request.headers.expect}`,
        field: 'expect',
        instance: request.url,
      });
      response.writeHead(417, {
        'content-type': 'application/problem+json; charset=utf-8',
        'content-length': Buffer.byteLength(json),
        connection: 'close',
      });
      response.end(json);
    });

    app.addHook('preValidation', async (request: FastifyRequest) => {
      for (const [key, part] of PARTS) {
        const value = request[key];
        if (!isParsed(value) || isValidatedOnPool(value)) continue;
        const found = findUnstorableText(value);
        if (!found) continue;
        const field = fieldName(found.path) || part;
        throw new InputError(`${field}: ${found.message}`, field, {
          errors: [{ field, in: part, message: found.message }],
        });
      }
    });

    // every method some route takes: a path that is unknown to this method but known to another is a 405
    const methods = new Set<string>();
    app.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) methods.add(method.toUpperCase());
    });
    const allowedMethods = (path: string) =>
      [...methods].filter((method) => {
        try {
          return app.findRoute({ method: method as 'GET', url: path }) !== null;
        } catch {
          return false;
        }
      });

    app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      const instance = request.url;
      if (error.validation) {
        const context = error.validationContext ?? 'body';
        const errors = readableIssues(error.validation as ValidationIssue[]).map((issue) => {
          const field = fieldOf(issue);
          return { field: field || context, in: context, message: describe(issue) };
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
        // a problem that says when to come back says it in the header too (RFC 9110 §10.2.3)
        const retryAfterSecs = error.detail?.retryAfterSecs;
        if (typeof retryAfterSecs === 'number' && !reply.hasHeader('retry-after'))
          reply.header('retry-after', retryAfterSecs);
        return send(reply, status, {
          type: problemType(error.code),
          detail: status >= 500 ? 'the service could not complete the request' : error.message,
          ...(error.field ? { field: error.field } : {}),
          ...(error.detail ?? {}),
          instance,
        });
      }
      const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
      if (status >= 500) return sendInternal(request, reply, status, error);
      // Fastify's own 4xx (bad JSON, wrong content type, body too large): their messages are safe to show.
      return send(reply, status, {
        type: frameworkProblemType(error.code, status),
        detail: error.message,
        ...(error.code?.startsWith('FST_ERR_CTP')
          ? { field: error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' ? 'content-type' : 'body' }
          : {}),
        instance,
      });
    });

    app.setNotFoundHandler((request, reply) => {
      const path = request.url.split('?')[0]!;
      const allowed = allowedMethods(path);
      if (allowed.length > 0) {
        return send(reply.header('allow', allowed.join(', ')), 405, {
          type: problemType('method-not-allowed'),
          detail: `${path} does not take ${request.method}; it takes ${allowed.join(', ')}`,
          field: 'method',
          instance: request.url,
        });
      }
      return send(reply, 404, {
        type: problemType('not-found'),
        detail: `no route ${request.method} ${path}`,
        instance: request.url,
      });
    });
  },
  { name: 'problems' },
);
