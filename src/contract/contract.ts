import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import type { OperationId } from '../../generated/types';
import { projectRoot } from '../common/project-root';
import type { ErrorDetail } from '../common/api-error';

/** What the server needs to know about one operation of openapi.yaml. */
export interface CompiledOperation {
  operationId: OperationId;
  /** false when the operation declares `security: []`. */
  authenticated: boolean;
  /** `x-required-scope`: a scope name, `by-tool` (decided by the jobs service) or null (any valid key). */
  scope: string | null;
  /** The JSON body's validator; undefined when the operation takes no JSON body. */
  body?: ValidateFunction;
  bodyRequired: boolean;
  query: ValidateFunction;
  path: ValidateFunction;
  headers: ValidateFunction;
}

type Json = Record<string, any>;
const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/**
 * openapi.yaml compiled into Ajv validators, once at boot. Request validation comes only from
 * here, so the contract and the server cannot disagree on what a valid request is.
 */
export class Contract {
  readonly document: Json;
  readonly text: string;
  private readonly operations = new Map<string, CompiledOperation>();
  private readonly componentValidators = new Map<string, ValidateFunction>();
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

  /** A validator for a component schema, e.g. the per-tool options schemas; compiled once. */
  schemaValidator(name: string): ValidateFunction {
    let validate = this.componentValidators.get(name);
    if (!validate) {
      validate = this.bodyAjv.compile({ $ref: `oas#/components/schemas/${name}` });
      this.componentValidators.set(name, validate);
    }
    return validate;
  }

  componentSchema(name: string): Json {
    return this.document.components.schemas[name];
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
          authenticated: security.length > 0,
          scope: op['x-required-scope'] ?? null,
          body: jsonSchema ? this.bodyAjv.compile(rewriteRefs(jsonSchema)) : undefined,
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
    return this.paramAjv.compile({
      type: 'object',
      properties: Object.fromEntries(own.map((p) => [key(p.name), rewriteRefs(p.schema ?? {})])),
      required: own.filter((p) => p.required).map((p) => key(p.name)),
    });
  }

  private deref(node: Json): Json {
    if (!node.$ref) return node;
    const parts = String(node.$ref).replace(/^#\//, '').split('/');
    return parts.reduce((acc: Json, part) => acc[part.replace(/~1/g, '/').replace(/~0/g, '~')], this.document);
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
  return ajv;
}

/** Points the document's local $refs at the schema registered under the id `oas`. */
function rewriteRefs<T>(node: T): T {
  if (Array.isArray(node)) return node.map(rewriteRefs) as T;
  if (node && typeof node === 'object') {
    return Object.fromEntries(
      Object.entries(node).map(([k, v]) => [
        k,
        k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `oas${v}` : rewriteRefs(v),
      ]),
    ) as T;
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
