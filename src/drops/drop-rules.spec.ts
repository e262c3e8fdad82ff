import { DomainError } from '../common/domain-error';
import { checkDropRules, checkTemplateKinds, stepRefusingKind } from './drop-rules';

const drop = { allowedKinds: 'any' as const, autoConvertTo: null, autoCompress: false, processWith: null, maxFileSizeMB: 25, expiresAt: null };
const details = (fn: () => void) => {
  try {
    fn();
  } catch (err) {
    return (err as DomainError).details;
  }
  return undefined;
};

describe('processWith rules', () => {
  it('a template is not combined with autoConvertTo or autoCompress (400 naming body/processWith)', () => {
    const now = new Date();
    expect(() => checkDropRules({ ...drop, processWith: 'tpl_a' }, 25, false, now)).not.toThrow();
    expect(details(() => checkDropRules({ ...drop, processWith: 'tpl_a', autoConvertTo: 'webp' }, 25, false, now))).toEqual([
      { path: 'body/processWith', message: 'cannot be combined with autoConvertTo' },
    ]);
    expect(details(() => checkDropRules({ ...drop, processWith: 'tpl_a', autoCompress: true }, 25, false, now))).toEqual([
      { path: 'body/processWith', message: 'cannot be combined with autoCompress' },
    ]);
  });

  const image = { slug: 'image-thumbnail', kind: 'image' as const };
  const any = { slug: 'media-info', kind: 'any' as const };

  it('finds the first step reading the arriving file that does not take its kind; steps reading another step do not count', () => {
    const steps = [
      { name: 'info', tool: any, input: null },
      { name: 'thumb', tool: image, input: null },
      { name: 'again', tool: { slug: 'video-convert', kind: 'video' as const }, input: 'thumb' },
    ];
    expect(stepRefusingKind(steps, 'image')).toBeUndefined();
    expect(stepRefusingKind(steps, 'video')?.name).toBe('thumb');
    expect(stepRefusingKind([{ name: 'info', tool: any, input: null }], 'unknown')?.name).toBe('info');
  });

  it("a one-kind drop refuses a template it cannot feed; an 'any' drop takes every template", () => {
    const steps = [{ name: 'thumb', tool: image, input: null }];
    expect(() => checkTemplateKinds('image', steps)).not.toThrow();
    expect(() => checkTemplateKinds('any', steps)).not.toThrow();
    expect(() => checkTemplateKinds('video', steps)).toThrow(DomainError);
    expect(details(() => checkTemplateKinds('video', steps))?.[0].path).toBe('body/processWith');
  });
});
