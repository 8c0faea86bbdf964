// The one Ajv setup of request validation, shared by the app (app.ts builds Fastify's validators with it) and
// by the CPU pool's threads, which validate large JSON bodies off the event loop (plugins/large-json-body.ts):
// both must accept and refuse exactly the same bodies, with the same errors.
import AjvCompiler from '@fastify/ajv-compiler';

// Unknown fields are errors, not silently dropped. A body is left as sent (its defaults are the services' to
// fill: normalizeCrawlRequest stores what a crawl runs with); a query string gets its schema's defaults, once,
// so handlers read them from the schema (Defaulted in schemas/common.ts) instead of repeating them.
export const AJV_OPTIONS = { removeAdditional: false, allErrors: true } as const;

/** JSON bodies are typed already: no coercion ("100" for an integer is a 400), no defaults. */
export const BODY_OPTIONS = { ...AJV_OPTIONS, coerceTypes: false, useDefaults: false } as const;
/** Query strings and path parameters arrive as text: coerced to their schema's types, defaults filled in. */
export const TEXT_PART_OPTIONS = { ...AJV_OPTIONS, coerceTypes: 'array', useDefaults: true } as const;

export type BuildCompiler = AjvCompiler.BuildCompilerFromPool;
export type RouteValidator = (route: {
  schema?: unknown;
  httpPart?: string;
  method?: string;
  url?: string;
}) => unknown;

export interface ValidationIssue {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

type Validate = ((data: unknown) => boolean) & { errors?: ValidationIssue[] | null };

/** A body validator for `schema`, built as the app builds its own (the same compiler, the same options). */
export function bodyValidator(schema: unknown): (data: unknown) => ValidationIssue[] | null {
  const compile = AjvCompiler()({}, { customOptions: BODY_OPTIONS }) as unknown as RouteValidator;
  const validate = compile({ schema, httpPart: 'body', method: 'POST', url: '/' }) as Validate;
  return (data) => (validate(data) ? null : (validate.errors ?? []));
}

/** Large bodies already parsed and validated on the CPU pool (plugins/large-json-body.ts). */
const validatedOnPool = new WeakSet<object>();

export function markValidatedOnPool(body: unknown): void {
  if (typeof body === 'object' && body !== null) validatedOnPool.add(body);
}

/** The route's validator and the unstorable-text check let these by: the pool ran both already. */
export function isValidatedOnPool(body: unknown): boolean {
  return typeof body === 'object' && body !== null && validatedOnPool.has(body);
}
