import { Contract } from './contract';

type Json = Record<string, any>;
const METHODS = ['get', 'head', 'options', 'post', 'put', 'patch', 'delete'] as const;

interface Example {
  where: string;
  status: number;
  key: string;
  value: unknown;
  schema: Json;
}

/** Every example of every request body and response of every operation (paths and x-webhooks), `$ref`s resolved. */
function responseExamples(contract: Contract): Example[] {
  const doc = contract.document;
  const found: Example[] = [];
  for (const group of [doc.paths, doc['x-webhooks']] as Json[]) {
    for (const item of Object.values<Json>(group)) {
      for (const method of METHODS) {
        const op: Json | undefined = item[method];
        if (!op) continue;
        // The request body's examples (status 0) as well: the webhook payloads are request bodies.
        const bodies: [string, Json][] = [...(op.requestBody ? [['0', op.requestBody] as [string, Json]] : []), ...Object.entries<Json>(op.responses ?? {})];
        for (const [status, declared] of bodies) {
          const response = contract.deref(declared);
          for (const [type, media] of Object.entries<Json>(response.content ?? {})) {
            const where = `${op.operationId} ${status} ${type}`;
            if (media.example !== undefined) found.push({ where, status: Number(status), key: 'example', value: media.example, schema: media.schema });
            for (const [key, example] of Object.entries<Json>(media.examples ?? {})) {
              found.push({ where, status: Number(status), key, value: contract.deref(example).value, schema: media.schema });
            }
          }
        }
      }
    }
  }
  return found;
}

/** `ErrorCode`'s description lists each code with its HTTP status(es): "- `code` — 400 (403 …): …". */
function documentedStatuses(contract: Contract): Map<string, number[]> {
  const description: string = contract.componentSchema('ErrorCode').description;
  const statuses = new Map<string, number[]>();
  for (const line of description.split('\n')) {
    const m = /^- `(\w+)` — ([^:]*):/.exec(line);
    if (m)
      statuses.set(
        m[1],
        [...m[2].matchAll(/\b\d{3}\b/g)].map((s) => Number(s[0])),
      );
  }
  return statuses;
}

describe('response examples of openapi.yaml', () => {
  const contract = new Contract();
  const examples = responseExamples(contract);
  const errorCodes: string[] = contract.componentSchema('ErrorCode').enum;

  it('finds the examples (the walk itself works)', () => {
    expect(examples.length).toBeGreaterThan(300);
    expect(examples.filter((e) => e.where === 'getDrop 404 application/json').map((e) => e.key)).toEqual(['not_found']);
  });

  it('every example is valid against its schema', () => {
    const invalid = examples
      .filter((e) => e.schema && e.value !== undefined)
      .flatMap((e) => {
        const validate = contract.schemaFor(e.schema);
        return validate(e.value) ? [] : [`${e.where} ${e.key}: ${JSON.stringify(validate.errors)}`];
      });
    expect(invalid).toEqual([]);
  });

  it("every JSON error response shows at least one example, named by its code, and each code is the ErrorCode enum's and documented with that status", () => {
    const statuses = documentedStatuses(contract);
    const problems: string[] = [];
    const doc = contract.document;
    for (const item of Object.values<Json>(doc.paths)) {
      for (const method of METHODS) {
        const op: Json | undefined = item[method];
        for (const [status, declared] of Object.entries<Json>(op?.responses ?? {})) {
          const media = contract.deref(declared).content?.['application/json'];
          if (Number(status) >= 400 && Number(status) !== 503 && media && Object.keys(media.examples ?? {}).length === 0) {
            problems.push(`${op!.operationId} ${status}: no examples`);
          }
        }
      }
    }
    for (const e of examples.filter((x) => x.status >= 400)) {
      const code = (e.value as { error?: { code?: string } })?.error?.code;
      if (code === undefined) continue; // a non-error body (readiness) or HTML
      if (!errorCodes.includes(code)) problems.push(`${e.where} ${e.key}: ${code} is not an ErrorCode`);
      if (e.key !== 'example' && e.key !== code) problems.push(`${e.where}: example ${e.key} carries ${code}`);
      if (!statuses.get(code)?.includes(e.status)) problems.push(`${e.where} ${e.key}: ${code} is documented as ${String(statuses.get(code))}, not ${e.status}`);
    }
    expect(problems).toEqual([]);
  });

  it('the check bites: an example with a code outside the enum is invalid against Error', () => {
    const validate = contract.schemaFor(contract.document.components.schemas.Error);
    expect(validate({ error: { code: 'not_found', message: 'Drop not found.' } })).toBe(true);
    expect(validate({ error: { code: 'drop_not_found', message: 'Drop not found.' } })).toBe(false);
    expect(validate({ error: { code: 'not_found' } })).toBe(false);
  });
});
