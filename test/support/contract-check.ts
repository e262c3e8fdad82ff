import type { Middleware } from 'openapi-fetch';
import { Contract } from '../../src/contract/contract';

/**
 * Every response a test receives is checked against openapi.yaml: the status is one the operation
 * declares, the body is valid against the schema declared for that status and content type (Ajv,
 * formats on, the server's own compiled contract) and the declared response headers are present.
 * A mismatch throws, so the test that received the response fails with the operation, the status
 * and Ajv's errors. Used by the generated client (a middleware, see test-app.ts), by
 * `contractFetch` for raw fetch calls and by `assertContract` for node:http answers; the Dredd
 * hooks load it too (test/dredd/hooks-contract.js).
 */

type Json = Record<string, any>;

export interface ObservedResponse {
  method: string;
  /** The request's path (query string allowed), or a full URL. */
  url: string;
  status: number;
  /** Header lookup, case-insensitive. */
  header(name: string): string | null | undefined;
  /** The body as text; undefined when it was not read (binary media). */
  text?: string;
}

export interface MatchedOperation {
  operationId: string;
  method: string;
  template: string;
  operation: Json;
}

export class ContractViolation extends Error {
  constructor(
    readonly label: string,
    readonly problems: string[],
  ) {
    super(`Response breaks the contract: ${label}\n  - ${problems.join('\n  - ')}`);
    this.name = 'ContractViolation';
  }
}

const METHODS = ['get', 'head', 'options', 'post', 'put', 'patch', 'delete'];
/** Body media types whose content is read and checked; anything else (files) is checked by Content-Type only. */
const TEXTUAL = /^(application\/json|text\/)/;

let shared: ContractChecker | undefined;

/** One checker per process: compiling the contract takes a moment. */
export function contractChecker(): ContractChecker {
  shared ??= new ContractChecker();
  return shared;
}

export class ContractChecker {
  readonly contract: Contract;
  private readonly routes: { method: string; template: string; pattern: RegExp; params: number; operation: Json }[] = [];

  constructor(contract = new Contract()) {
    this.contract = contract;
    for (const [template, item] of Object.entries<Json>(contract.document.paths)) {
      for (const method of METHODS) {
        if (!item[method]) continue;
        const source = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+');
        this.routes.push({
          method: method.toUpperCase(),
          template,
          pattern: new RegExp(`^${source}/?$`),
          params: (template.match(/\{/g) ?? []).length,
          operation: item[method],
        });
      }
    }
    // A literal segment wins over a template variable (`/v1/drops/x` is never `/v1/{a}/x`).
    this.routes.sort((a, b) => a.params - b.params);
  }

  /** The operation a request names: by method and path template (HEAD is checked as its GET). */
  match(method: string, url: string): MatchedOperation | undefined {
    const path = new URL(url, 'http://localhost').pathname;
    // HEAD is checked as its own operation where the contract has one (tus), else as its GET.
    const own = this.routes.find((r) => r.method === method.toUpperCase() && r.pattern.test(path));
    const verb = !own && method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase();
    const route = own ?? this.routes.find((r) => r.method === verb && r.pattern.test(path));
    return route && { operationId: route.operation.operationId, method: verb, template: route.template, operation: route.operation };
  }

  /** The operation of a method and an OpenAPI path template (as the generated client knows it). */
  byTemplate(method: string, template: string): MatchedOperation | undefined {
    const route = this.routes.find((r) => r.method === method.toUpperCase() && r.template === template);
    return route && { operationId: route.operation.operationId, method: route.method, template, operation: route.operation };
  }

  /** What is wrong with a response; empty when it is what the contract promises. */
  problems(op: MatchedOperation, res: ObservedResponse): string[] {
    const responses: Json = op.operation.responses ?? {};
    const key = [String(res.status), `${String(res.status)[0]}XX`, 'default'].find((k) => responses[k]);
    if (!key) return [`status ${res.status} is not declared (declared: ${Object.keys(responses).join(', ')})`];
    const declared = this.contract.deref(responses[key]);
    const problems: string[] = [];

    for (const [name, raw] of Object.entries<Json>(declared.headers ?? {})) {
      const header = this.contract.deref(raw);
      const value = res.header(name);
      if (value === null || value === undefined) {
        // Declared `required: false` (Preference-Applied): present only when the request asked for it.
        if (header.required !== false) problems.push(`header ${name} is missing`);
        continue;
      }
      const schema = header.schema ?? {};
      const candidate = schema.type === 'integer' || schema.type === 'number' ? Number(value) : value;
      if (value === '' || !this.contract.schemaFor(schema)(candidate)) problems.push(`header ${name}: ${JSON.stringify(value)} is not a valid ${schema.type ?? 'value'}`);
    }

    const content: Json = declared.content ?? {};
    const mediaType = (res.header('content-type') ?? '').split(';')[0].trim().toLowerCase();
    const hasBody = res.text !== undefined && res.text.length > 0;
    if (Object.keys(content).length === 0) {
      if (hasBody && res.method.toUpperCase() !== 'HEAD') problems.push(`status ${res.status} declares no body, got ${JSON.stringify(res.text!.slice(0, 200))}`);
      return problems;
    }
    // A declared range (`image/*`, `*/*`) covers every type in it, as in OpenAPI.
    const media = content[mediaType] ?? content[`${mediaType.split('/')[0]}/*`] ?? content['*/*'];
    if (!media) {
      problems.push(`Content-Type ${JSON.stringify(mediaType)} is not declared (declared: ${Object.keys(content).join(', ')})`);
      return problems;
    }
    if (res.method.toUpperCase() === 'HEAD' || res.text === undefined || !media.schema || !TEXTUAL.test(mediaType)) return problems;

    // `format: binary` is the raw bytes of a file (a JSON waveform served as application/json too).
    if (media.schema.format === 'binary') return problems;
    let body: unknown = res.text;
    if (mediaType === 'application/json') {
      try {
        body = JSON.parse(res.text);
      } catch {
        return [...problems, `body is not JSON: ${JSON.stringify(res.text.slice(0, 200))}`];
      }
    }
    const validate = this.contract.schemaFor(media.schema);
    if (!validate(body)) {
      for (const e of validate.errors ?? []) {
        problems.push(`body${e.instancePath} ${e.message}${e.params && Object.keys(e.params).length ? ` ${JSON.stringify(e.params)}` : ''}`);
      }
      problems.push(`the body was ${JSON.stringify(body).slice(0, 500)}`);
    }
    return problems;
  }

  /** Throws a ContractViolation naming the operation, the status and the problems. */
  assert(op: MatchedOperation, res: ObservedResponse): void {
    const problems = this.problems(op, res);
    if (problems.length > 0) throw new ContractViolation(`${op.operationId} (${op.method} ${op.template}) → ${res.status}`, problems);
  }
}

/** Whether a response's body is read for the check (JSON, HTML, text) or left alone (files). */
function readsBody(headers: { get(name: string): string | null }): boolean {
  return TEXTUAL.test((headers.get('content-type') ?? '').toLowerCase());
}

/** openapi-fetch middleware: every response of the generated client is checked (test-app.ts installs it). */
export const contractMiddleware: Middleware = {
  async onResponse({ request, response, schemaPath }) {
    const checker = contractChecker();
    const op = checker.byTemplate(request.method, schemaPath);
    if (!op) throw new ContractViolation(`${request.method} ${schemaPath}`, ['the client called an operation openapi.yaml does not have']);
    const text = readsBody(response.headers) ? await response.clone().text() : undefined;
    checker.assert(op, { method: request.method, url: request.url, status: response.status, header: (n) => response.headers.get(n), text });
    return undefined;
  },
};

/**
 * fetch, with the answer checked against the contract. For calls the generated client cannot
 * make (hand-built bodies, headers, query strings, signed URLs). Throws on a URL no operation of
 * openapi.yaml serves: call fetch itself for /metrics, /docs and other non-contract paths.
 */
export async function contractFetch(input: string | URL, init: RequestInit & { duplex?: 'half' } = {}): Promise<Response> {
  const method = (init.method ?? 'GET').toUpperCase();
  const url = String(input);
  const checker = contractChecker();
  const op = checker.match(method, url);
  if (!op) throw new ContractViolation(`${method} ${url}`, ['no operation of openapi.yaml serves this method and path']);
  const response = await fetch(input, init);
  const text = method !== 'HEAD' && readsBody(response.headers) ? await response.clone().text() : undefined;
  checker.assert(op, { method, url, status: response.status, header: (n) => response.headers.get(n), text });
  return response;
}

/** Checks an answer read some other way (node:http); `headers` as node gives them (lower-case keys). */
export function assertContract(method: string, url: string, answer: { status: number; headers: Headers | Record<string, string | string[] | undefined>; text?: string }): void {
  const checker = contractChecker();
  const op = checker.match(method, url);
  if (!op) throw new ContractViolation(`${method} ${url}`, ['no operation of openapi.yaml serves this method and path']);
  const { headers } = answer;
  const header = (name: string) => {
    if (headers instanceof Headers) return headers.get(name);
    const value = headers[name.toLowerCase()];
    return Array.isArray(value) ? value.join(', ') : value;
  };
  checker.assert(op, { method, url, status: answer.status, header, text: answer.text });
}
