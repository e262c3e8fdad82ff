type Json = Record<string, any>;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/**
 * The document /docs renders: the contract as written, served from this deployment's
 * PUBLIC_BASE_URL, with a curl and a TypeScript (@dropline/client) sample for each operation
 * (`x-codeSamples`), built from the operation's own request example.
 */
export function docsDocument(contract: Json, publicBaseUrl: string): Json {
  const doc: Json = structuredClone(contract);
  doc.servers = [{ url: publicBaseUrl, description: 'This deployment' }];
  for (const [path, item] of Object.entries<Json>(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op || op['x-codeSamples']) continue;
      op['x-codeSamples'] = codeSamples(doc, publicBaseUrl, path, method, op);
    }
  }
  return doc;
}

function codeSamples(doc: Json, base: string, path: string, method: string, op: Json): Json[] {
  const authenticated = !(Array.isArray(op.security) && op.security.length === 0);
  const params: Json[] = [...(doc.paths[path].parameters ?? []), ...(op.parameters ?? [])].map((p) => deref(doc, p));
  const concretePath = path.replace(/\{(\w+)\}/g, (_m, name) => String(params.find((p) => p.name === name && p.in === 'path')?.example ?? `{${name}}`));
  const body = jsonExample(doc, op);
  const curl = [
    `curl -s -X ${method.toUpperCase()} '${base}${concretePath}'`,
    ...(authenticated ? [`  -H "Authorization: Bearer $DROPLINE_API_KEY"`] : []),
    ...(body !== undefined ? [`  -H 'Content-Type: application/json'`, `  -d '${JSON.stringify(body).replace(/'/g, "'\\''")}'`] : []),
  ].join(' \\\n');
  const pathParams = params.filter((p) => p.in === 'path');
  const options = [
    ...(pathParams.length ? [`params: { path: { ${pathParams.map((p) => `${p.name}: ${JSON.stringify(p.example ?? '')}`).join(', ')} } }`] : []),
    ...(body !== undefined ? [`body: ${JSON.stringify(body)}`] : []),
  ];
  const ts = [
    `import { createClient } from '@dropline/client';`,
    ``,
    `const client = createClient({ baseUrl: '${base}'${authenticated ? ', apiKey: process.env.DROPLINE_API_KEY' : ''} });`,
    `const { data, error } = await client.${method.toUpperCase()}('${path}'${options.length ? `, { ${options.join(', ')} }` : ''});`,
  ].join('\n');
  return [
    { lang: 'Shell', label: 'curl', source: curl },
    { lang: 'TypeScript', label: '@dropline/client', source: ts },
  ];
}

function jsonExample(doc: Json, op: Json): unknown {
  if (!op.requestBody) return undefined;
  const media = deref(doc, op.requestBody).content?.['application/json'];
  if (!media) return undefined;
  if (media.example !== undefined) return media.example;
  const first = Object.values<Json>(media.examples ?? {})[0];
  return first ? deref(doc, first).value : undefined;
}

function deref(doc: Json, node: Json): Json {
  if (!node?.$ref) return node;
  return String(node.$ref)
    .replace(/^#\//, '')
    .split('/')
    .reduce((acc: Json, part) => acc[part.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
}
