import { OPERATIONS } from '../../generated/types';
import { Contract } from './contract';

describe('Contract', () => {
  const contract = new Contract();

  it('compiles every operation of openapi.yaml', () => {
    for (const op of OPERATIONS) expect(contract.operation(op.operationId).operationId).toBe(op.operationId);
  });

  it('reads security and scope from the document', () => {
    expect(contract.operation('createDrop')).toMatchObject({ authenticated: true, scope: 'drops:write' });
    expect(contract.operation('getPublicDrop')).toMatchObject({ authenticated: false });
    expect(contract.operation('createJob').scope).toBe('by-tool');
  });

  it('rejects unknown fields and bad values in drop bodies', () => {
    const body = contract.operation('createDrop').body!;
    expect(body({ name: 'ok' })).toBe(true);
    expect(body({ name: 'ok', emoji: '✿', accentColor: '#3366FF' })).toBe(true);
    expect(body({ name: 'ok', isActive: false })).toBe(false); // set through PATCH only
    expect(body({ name: 'ok', accentColor: 'blue' })).toBe(false);
    expect(body({ name: '' })).toBe(false);
    expect(body({ name: 'ok', slug: 'A_B' })).toBe(false);
    expect(body({ name: 'ok', autoConvertTo: 'bmp' })).toBe(false);
    expect(body({ name: 'ok', autoConvertTo: null, expiresAt: null })).toBe(true);
  });

  it('coerces query strings to the declared types', () => {
    const query = contract.operation('listSubmissions').query;
    const q: Record<string, unknown> = { limit: '5', isRead: 'true' };
    expect(query(q)).toBe(true);
    expect(q).toEqual({ limit: 5, isRead: true });
    expect(query({ limit: '0' })).toBe(false);
    expect(query({ isRead: 'maybe' })).toBe(false);
  });

  it('validates tool options with the component schemas', () => {
    const resize = contract.schemaValidator('ImageResizeOptions');
    expect(resize({ width: 720 })).toBe(true);
    expect(resize({ maintainAspectRatio: false })).toBe(false);
    expect(resize({ width: 0 })).toBe(false);
    expect(resize({ width: 10, extra: 'ignored' })).toBe(true);
  });

  it("checks a job body only for what every tool agrees on; each tool's own variant checks the rest", () => {
    const body = contract.operation('createJob').body!;
    expect(body({ tool: 'image-blur', input: { url: 'http://x' } })).toBe(true); // unknown_tool is the service's answer
    expect(body({ input: { url: 'http://x' } })).toBe(true); // which form (tool, steps, template) is the service's question
    expect(body({ steps: { a: { tool: 'image-resize' } }, input: { url: 'http://x' } })).toBe(true);
    expect(body({ steps: 'a, b', input: { url: 'http://x' } })).toBe(false);
    expect(body({ template: 'tpl_x', input: { url: 'http://x' } })).toBe(true);
    expect(body({ template: 42 })).toBe(false);
    expect(body({ tool: 'image-resize', options: 'wide' })).toBe(false);
    expect(body({ tool: 'image-resize', webhookUrl: 'ftp://x' })).toBe(false);
    const resize = contract.variantValidator('JobCreate', 'image-resize')!;
    expect(resize({ tool: 'image-resize', options: { width: 320, unknown: 'ignored' } })).toBe(true);
    expect(resize({ tool: 'image-resize', options: { width: '320px' } })).toBe(false);
    expect(resize({ tool: 'image-convert', options: { width: 320 } })).toBe(false);
    expect(contract.variantValidator('JobCreate', 'image-blur')).toBeUndefined();
    expect(contract.variantValidator('JobCreate', 'constructor')).toBeUndefined();
  });
});
