// The one Ajv setup of request validation, shared by the app (app.ts builds Fastify's validators with it) and
// by the CPU pool's threads, which validate large JSON bodies off the event loop (plugins/large-json-body.ts):
// both must accept and refuse exactly the same bodies, with the same errors.
import AjvCompiler from '@fastify/ajv-compiler';
import { InputError } from './errors.js';

// Unknown fields are errors, not silently dropped. A body is left as sent (its defaults are the services' to
// fill: normalizeCrawlRequest stores what a crawl runs with); a query string gets its schema's defaults, once,
// so handlers read them from the schema (Defaulted in schemas/common.ts) instead of repeating them.
export const AJV_OPTIONS = { removeAdditional: false, allErrors: true } as const;

/** JSON bodies are typed already: no coercion ("100" for an integer is a 400), no defaults. */
export const BODY_OPTIONS = { ...AJV_OPTIONS, coerceTypes: false, useDefaults: false } as const;
/** Query strings and path parameters arrive as text: coerced to their schema's types, defaults filled in. */
export const TEXT_PART_OPTIONS = { ...AJV_OPTIONS, coerceTypes: 'array', useDefaults: true } as const;

/**
 * JSON bodies nest objects and arrays at most this deep. No request schema goes past a handful of levels, and
 * a body nested tens of thousands deep would drive every walk over it (the unstorable-text scan, Ajv, a
 * stringify) into a stack overflow: it is refused before it is parsed.
 */
export const MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/** Whether the quote at `index` is escaped (preceded by an odd run of backslashes). */
function isEscaped(text: string, index: number): boolean {
  let backslashes = 0;
  for (let i = index - 1; text.charCodeAt(i) === BACKSLASH; i--) backslashes++;
  return backslashes % 2 === 1;
}

/**
 * Whether JSON text nests objects and arrays deeper than MAX_JSON_DEPTH, read without parsing it: brackets
 * inside strings do not count, and strings are skipped with indexOf (a 5 MB document is one jump). Text that
 * is not JSON may be miscounted; JSON.parse refuses it afterwards either way.
 */
export function nestsTooDeep(text: string): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === QUOTE) {
      let end = text.indexOf('"', i + 1);
      while (end > 0 && isEscaped(text, end)) end = text.indexOf('"', end + 1);
      if (end < 0) return false;
      i = end;
    } else if (code === OPEN_BRACKET || code === OPEN_BRACE) {
      if (++depth > MAX_JSON_DEPTH) return true;
    } else if (code === CLOSE_BRACKET || code === CLOSE_BRACE) {
      depth--;
    }
  }
  return false;
}

/** The 400 for a body nestsTooDeep refuses, the same from the event loop and from the CPU pool. */
export function tooDeepError(): InputError {
  const message = `nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep`;
  return new InputError(`body: ${message}`, 'body', {
    maxDepth: MAX_JSON_DEPTH,
    errors: [{ field: 'body', in: 'body', message }],
  });
}

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

/** `schema`'s JSON type for property `key` (an array's items' type), as Ajv names it in a type error. */
function typeOf(schema: unknown, key: string): string {
  const property = (schema as { properties?: Record<string, { type?: unknown; items?: { type?: unknown } }> })
    ?.properties?.[key];
  const type = property?.type === 'array' ? property.items?.type : property?.type;
  return type === 'integer' ? 'integer' : 'number';
}

/** Each number in a coerced query string or path that is not finite, as the type error Ajv gives "NaN". */
function nonFiniteIssues(data: unknown, schema: unknown): ValidationIssue[] {
  if (data === null || typeof data !== 'object') return [];
  const issues: ValidationIssue[] = [];
  for (const [key, value] of Object.entries(data)) {
    const items: unknown[] = Array.isArray(value) ? value : [value];
    items.forEach((item, index) => {
      if (typeof item !== 'number' || Number.isFinite(item)) return;
      const type = typeOf(schema, key);
      const pointer = key.replaceAll('~', '~0').replaceAll('/', '~1');
      issues.push({
        instancePath: Array.isArray(value) ? `/${pointer}/${index}` : `/${pointer}`,
        schemaPath: `#/properties/${pointer}/type`,
        keyword: 'type',
        message: `must be ${type}`,
        params: { type },
      });
    });
  }
  return issues;
}

/**
 * Text parts (query strings, path parameters) with one rule for every number: finite, or a 400 naming it.
 * Ajv's coercion turns "Infinity", "-Infinity" and "1e309" into ±Infinity after its type check (strictNumbers
 * refuses them only when they arrive as numbers), and then skips the range keywords for a non-finite number,
 * so they would reach PostgreSQL as 'Infinity'. The coerced values are flat (a value or an array of values).
 */
export function finiteNumbersOnly(compile: RouteValidator): RouteValidator {
  return (route) => {
    const validate = compile(route) as Validate;
    const checked = ((data: unknown) => {
      const valid = validate(data);
      const issues = nonFiniteIssues(data, route.schema);
      checked.errors =
        issues.length > 0 ? [...(valid ? [] : (validate.errors ?? [])), ...issues] : validate.errors;
      return valid && issues.length === 0;
    }) as Validate;
    checked.errors = null;
    return checked;
  };
}

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
