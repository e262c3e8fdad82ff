import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import type { OperationId } from '../../generated/types';
import { projectRoot } from '../common/project-root';
import type { ErrorDetail } from '../common/domain-error';
import { MAX_JSON_DEPTH, tooDeep } from '../common/json-depth';
import { isStorableInstant } from '../common/instants';

/** What the server needs to know about one operation of openapi.yaml. */
export interface CompiledOperation {
  operationId: OperationId;
  /** Upper-case HTTP method and the contract's path template, e.g. `GET /v1/jobs/{id}`. */
  method: string;
  pathTemplate: string;
  /** false when the operation declares `security: []`. */
  authenticated: boolean;
  /** `x-required-scope`: a scope name, `by-tool` (decided by the jobs service) or null (any valid key). */
  scope: string | null;
  /** Every success (2xx) response with a body is application/json: none streams a file. */
  answersJson: boolean;
  /** The JSON body's validator; undefined when the operation takes no JSON body. */
  body?: ValidateFunction;
  bodyRequired: boolean;
  query: ValidateFunction;
  path: ValidateFunction;
  headers: ValidateFunction;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The contract operation the route is bound to (OperationBinding sets it). */
    operation?: CompiledOperation;
  }
}

type Json = Record<string, any>;
const HTTP_METHODS = ['get', 'head', 'options', 'post', 'put', 'patch', 'delete'] as const;

/**
 * openapi.yaml compiled into Ajv validators, once at boot. Request validation comes only from
 * here, so the contract and the server cannot disagree on what a valid request is.
 */
export class Contract {
  readonly document: Json;
  readonly text: string;
  private readonly operations = new Map<string, CompiledOperation>();
  private readonly componentValidators = new Map<string, ValidateFunction>();
  private readonly documentValidators = new WeakMap<Json, ValidateFunction>();
  private readonly bodyAjv: Ajv;
  private readonly paramAjv: Ajv;

  constructor(file = join(projectRoot(), 'openapi.yaml')) {
    this.text = readFileSync(file, 'utf8');
    this.document = parse(this.text);
    this.bodyAjv = makeAjv(false);
    this.paramAjv = makeAjv(true);
    for (const ajv of [this.bodyAjv, this.paramAjv]) {
      ajv.addSchema({ components: rewriteRefs(this.document.components) }, 'oas');
    }
    this.compileOperations();
  }

  operation(id: string): CompiledOperation {
    const op = this.operations.get(id);
    if (!op) throw new Error(`Operation ${id} is not in openapi.yaml`);
    return op;
  }

  /** Every operation of the contract. */
  allOperations(): CompiledOperation[] {
    return [...this.operations.values()];
  }

  /** A validator for a component schema, e.g. the per-tool options schemas; compiled once. */
  schemaValidator(name: string): ValidateFunction {
    let validate = this.componentValidators.get(name);
    if (!validate) {
      validate = refusingNul(this.bodyAjv.compile({ $ref: `oas#/components/schemas/${name}` }));
      this.componentValidators.set(name, validate);
    }
    return validate;
  }

  /**
   * A validator for any schema object of the document (e.g. a response body's), compiled once.
   * The tests check every response the server gives against these (test/support/contract-check.ts).
   */
  schemaFor(schema: Json): ValidateFunction {
    let validate = this.documentValidators.get(schema);
    if (!validate) {
      validate = this.bodyAjv.compile(rewriteRefs(schema));
      this.documentValidators.set(schema, validate);
    }
    return validate;
  }

  /** Resolves a local `$ref` (e.g. `#/components/examples/JobNotFound`); other nodes are returned as they are. */
  deref(node: Json): Json {
    if (!node.$ref) return node;
    const parts = String(node.$ref).replace(/^#\//, '').split('/');
    return parts.reduce((acc: Json, part) => acc[part.replace(/~1/g, '/').replace(/~0/g, '~')], this.document);
  }

  componentSchema(name: string): Json {
    return this.document.components.schemas[name];
  }

  /**
   * The validator of the variant a discriminated `oneOf` schema (JobCreate) picks for a
   * discriminator value (a tool slug); undefined when no variant has that value.
   */
  variantValidator(schemaName: string, value: string): ValidateFunction | undefined {
    const mapping: Record<string, string> = this.componentSchema(schemaName).discriminator?.mapping ?? {};
    const ref = Object.prototype.hasOwnProperty.call(mapping, value) ? mapping[value] : undefined;
    return ref ? this.schemaValidator(ref.split('/').pop()!) : undefined;
  }

  /**
   * What the request guard checks of a body. A discriminated `oneOf` is checked only for what
   * all its variants agree on: the handler picks the variant and validates against it, so that
   * an unknown discriminator value gets its own error (`unknown_tool`) instead of a oneOf mismatch.
   * A `oneOf` of request forms with such a one among them (JobRequest: one tool, steps, a
   * template) is flattened the same way; the handler tells the forms apart.
   */
  private requestSchema(schema: Json): Json {
    const resolved = this.deref(schema);
    if (!Array.isArray(resolved.oneOf)) return schema;
    const forms: Json[] = resolved.oneOf.map((v: Json) => this.deref(v));
    const nested = forms.filter((f) => f.discriminator && Array.isArray(f.oneOf));
    if (!resolved.discriminator && nested.length === 0) return schema;
    const variants: Json[] = forms.flatMap((f) => (Array.isArray(f.oneOf) ? f.oneOf.map((v: Json) => this.deref(v)) : [f]));
    const tags = new Set<string>([resolved, ...nested].map((f) => f.discriminator?.propertyName).filter(Boolean));
    const names = new Set(variants.flatMap((v) => Object.keys(v.properties ?? {})));
    const properties: Json = {};
    for (const name of names) {
      const given = variants.map((v) => v.properties?.[name]).filter(Boolean);
      if (tags.has(name)) properties[name] = { type: 'string', maxLength: 64 };
      else if (given.every((f) => JSON.stringify(f) === JSON.stringify(given[0]))) properties[name] = given[0];
      else properties[name] = { type: 'object' };
    }
    const common = variants.map((v) => v.required ?? []).reduce((a: string[], b: string[]) => a.filter((n) => b.includes(n)));
    const tag = resolved.discriminator?.propertyName as string | undefined;
    const required = tag ? [tag, ...common.filter((n: string) => n !== tag)] : common;
    return { type: 'object', required, properties };
  }

  private compileOperations(): void {
    const globalSecurity = this.document.security ?? [];
    for (const [path, item] of Object.entries<Json>(this.document.paths)) {
      for (const method of HTTP_METHODS) {
        const op: Json | undefined = item[method];
        if (!op) continue;
        const params: Json[] = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p) => this.deref(p));
        const bodyDef = op.requestBody ? this.deref(op.requestBody) : undefined;
        const jsonSchema = bodyDef?.content?.['application/json']?.schema;
        const security = op.security ?? globalSecurity;
        this.operations.set(op.operationId, {
          operationId: op.operationId,
          method: method.toUpperCase(),
          pathTemplate: path,
          authenticated: security.length > 0,
          scope: op['x-required-scope'] ?? null,
          answersJson: Object.entries<Json>(op.responses ?? {})
            .filter(([status]) => status.startsWith('2'))
            .every(([, response]) => Object.keys(this.deref(response).content ?? { 'application/json': {} }).every((type) => type === 'application/json')),
          body: jsonSchema ? refusingNul(this.bodyAjv.compile(rewriteRefs(this.requestSchema(jsonSchema)))) : undefined,
          bodyRequired: Boolean(bodyDef?.required),
          query: this.paramValidator(params, 'query'),
          path: this.paramValidator(params, 'path'),
          headers: this.paramValidator(params, 'header'),
        });
      }
    }
  }

  private paramValidator(params: Json[], where: string): ValidateFunction {
    const own = params.filter((p) => p.in === where);
    const key = (name: string) => (where === 'header' ? name.toLowerCase() : name);
    // Only the operation's own parameters are checked for NUL: other headers are not stored.
    const names = new Set(own.map((p) => key(p.name)));
    return refusingNul(
      this.paramAjv.compile({
        type: 'object',
        properties: Object.fromEntries(own.map((p) => [key(p.name), rewriteRefs(p.schema ?? {})])),
        required: own.filter((p) => p.required).map((p) => key(p.name)),
      }),
      (name) => names.has(name),
    );
  }
}

function makeAjv(coerce: boolean): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    strict: false,
    coerceTypes: coerce,
    useDefaults: false,
    discriminator: false,
  });
  addFormats(ajv);
  // RFC 3339 allows a leap second (23:59:60) and years 0000-9999; neither Date nor Postgres can
  // hold every such value, and an Invalid Date became a 500. Only instants both accept pass.
  const rfc3339 = ajv.formats['date-time'] as { validate: (s: string) => boolean } | undefined;
  ajv.addFormat('date-time', {
    type: 'string',
    validate: (s: string) => Boolean(rfc3339?.validate(s)) && isStorableInstant(new Date(s)),
  });
  return ajv;
}

/**
 * Postgres text cannot hold U+0000 (an insert fails, which was a 500). Every string a request
 * carries — at any depth, keys included — is refused with a 400 naming the field before the
 * schema is even consulted. `checked` limits the walk of a top-level object to some of its keys.
 */
function refusingNul(validate: ValidateFunction, checked: (key: string) => boolean = () => true): ValidateFunction {
  const wrapped = ((data: unknown) => {
    const at = nulPath(data, '', checked);
    if (at !== undefined) {
      wrapped.errors = [{ instancePath: at, keyword: 'nul', schemaPath: '', params: {}, message: 'must not contain a NUL character (U+0000)' }];
      return false;
    }
    const valid = validate(data);
    wrapped.errors = validate.errors;
    return valid;
  }) as ValidateFunction;
  return wrapped;
}

/**
 * The JSON-pointer-like path of the first string (or key) holding U+0000, if any. The walk is
 * bounded like the parser bounds bodies (a deeper value is 400 `validation_failed`), so no value
 * can overflow the stack here.
 */
export function nulPath(value: unknown, at: string, checked: (key: string) => boolean = () => true, depth = 0): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? at : undefined;
  if (!value || typeof value !== 'object') return undefined;
  if (depth >= MAX_JSON_DEPTH) throw tooDeep();
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nulPath(value[i], `${at}/${i}`, undefined, depth + 1);
      if (found !== undefined) return found;
    }
  } else {
    for (const [key, child] of Object.entries(value)) {
      if (at === '' && !checked(key)) continue;
      if (key.includes('\u0000')) return `${at}/${key.replaceAll('\u0000', '\\0')}`;
      const found = nulPath(child, `${at}/${key}`, undefined, depth + 1);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** Points the document's local $refs at the schema registered under the id `oas`. */
function rewriteRefs<T>(node: T): T {
  if (Array.isArray(node)) return node.map(rewriteRefs) as T;
  if (node && typeof node === 'object') {
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `oas${v}` : rewriteRefs(v)])) as T;
  }
  return node;
}

/** Ajv errors as the envelope's `details`, with paths like `body/name`. */
export function toDetails(where: string, errors: ErrorObject[] | null | undefined): ErrorDetail[] {
  return (errors ?? []).map((e) => {
    let path = e.instancePath;
    if (e.keyword === 'required') path += `/${e.params.missingProperty}`;
    if (e.keyword === 'additionalProperties') path += `/${e.params.additionalProperty}`;
    let message = e.message ?? 'is invalid';
    if (e.keyword === 'additionalProperties') message = 'is not an accepted field';
    if (e.keyword === 'enum') message += `: ${(e.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    return { path: `${where}${path}`, message };
  });
}
