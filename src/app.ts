// The app as one Fastify plugin, built the same way by server.ts, the tests and the OpenAPI generator.
// Plugins load in passes (fastify/demo): external (swagger, problems) → routes (routes/index.ts; folder = prefix).
import AjvCompiler from '@fastify/ajv-compiler';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import fp from 'fastify-plugin';
import auth from './plugins/auth.js';
import dashboard from './plugins/dashboard.js';
import idempotency from './plugins/idempotency.js';
import jsonBody from './plugins/json-body.js';
import metrics from './plugins/metrics.js';
import problems, { clientErrorHandler, frameworkErrors } from './plugins/problems.js';
import queueBoard from './plugins/queue-board.js';
import rateLimit from './plugins/rate-limit.js';
import swagger from './plugins/swagger.js';
import routes from './routes/index.js';
import type { Runtime } from './runtime.js';
import {
  BODY_OPTIONS,
  type BuildCompiler,
  finiteNumbersOnly,
  type RouteValidator,
  TEXT_PART_OPTIONS,
} from './validation.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Services, database and queues. Throws when the app was built without them (OpenAPI generation). */
    readonly runtime: Runtime;
  }
}

/**
 * Query strings and path parameters arrive as text, so "100" is coerced to the integer their schema names
 * (and one value to a one-item array), and their defaults are filled in; a JSON body is typed already, so
 * "100" for an integer or a string for an array is a 400 there, as the OpenAPI file says. A number in text
 * must be finite ("Infinity", "1e309" are a 400: finiteNumbersOnly).
 */
const buildValidator: BuildCompiler = (externalSchemas, options) => {
  const pool = AjvCompiler();
  const compilerFor = (customOptions: typeof BODY_OPTIONS | typeof TEXT_PART_OPTIONS) =>
    pool(externalSchemas, {
      plugins: options?.plugins,
      onCreate: options?.onCreate,
      customOptions,
    }) as unknown as RouteValidator;
  const lenient = finiteNumbersOnly(compilerFor(TEXT_PART_OPTIONS));
  const strict = compilerFor(BODY_OPTIONS);
  const compile: RouteValidator = (route) => (route.httpPart === 'body' ? strict : lenient)(route);
  return compile as unknown as ReturnType<BuildCompiler>;
};

/**
 * Fastify's request serializer with a signed link's token left out of the logged URL: the token stands for an
 * API key (for one page, for minutes), and logs are read by more people than keys are given to.
 */
function requestForLog(request: FastifyRequest) {
  return {
    method: request.method,
    url: request.url.replace(/([?&]token=)[^&#]*/gi, '$1[redacted]'),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

export function serverOptions(logger: FastifyBaseLogger | false): FastifyServerOptions {
  return {
    // Fastify keeps the serializers of the logger it is given over its own
    ...(logger
      ? { loggerInstance: logger.child({}, { serializers: { req: requestForLog } }) }
      : { logger: false }),
    // 5xx bodies never carry internals; request ids tie a problem to its log line
    requestIdHeader: 'x-request-id',
    bodyLimit: 8 * 1024 * 1024,
    schemaController: { compilersFactory: { buildValidator } },
    // the router's own 400/414 (bad %-encoding, over-long parameter) as problem+json like every other error
    frameworkErrors,
    // and Node's HTTP parser's (unknown method, bad framing, headers too large): problems on the raw socket
    clientErrorHandler,
  };
}

export async function app(instance: FastifyInstance, options: { runtime?: Runtime }): Promise<void> {
  instance.decorate('runtime', {
    getter() {
      if (!options.runtime) throw new Error('this app was built without a runtime (OpenAPI generation only)');
      return options.runtime;
    },
  });
  await instance.register(problems);
  await instance.register(jsonBody);
  await instance.register(swagger);
  // API keys and rate limits need the database (and Redis); an app built for OpenAPI generation has neither.
  if (options.runtime) {
    await instance.register(metrics);
    await instance.register(auth);
    await instance.register(idempotency);
    await instance.register(rateLimit);
    // the BullMQ board at /admin/queues (admin key): it reads the runtime's queues
    await instance.register(queueBoard);
  }
  await instance.register(routes);
  // the dashboard at / (a client of /v1; hidden from OpenAPI)
  await instance.register(dashboard);
}

export async function buildApp(options: {
  runtime?: Runtime;
  logger?: FastifyBaseLogger;
}): Promise<FastifyInstance> {
  const instance = Fastify(serverOptions(options.logger ?? false)).withTypeProvider<TypeBoxTypeProvider>();
  // fp: the app's decorators (runtime, swagger) and handlers belong to the root instance the caller holds
  await instance.register(fp(app), { runtime: options.runtime });
  await instance.ready();
  return instance as unknown as FastifyInstance;
}
