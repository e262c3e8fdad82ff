import { type StepRow, templateError, templateOutputs } from './template-outputs';

const step = (over: Partial<StepRow>): StepRow => ({
  stepName: 'thumb',
  tool: 'image-thumbnail',
  state: 'completed',
  outputKey: 'k-thumb',
  outputKeys: null,
  result: { outputFormat: 'webp', outputSize: 120, outputFileName: 'photo.webp' },
  errorCode: null,
  errorMessage: null,
  ...over,
});

describe('templateOutputs', () => {
  it("names each completed step's main file after the step and its further files <step>.<output>, in the steps' order", () => {
    const storyboard = step({
      stepName: 'storyboard',
      tool: 'video-storyboard',
      outputKey: 'k-sprite',
      outputKeys: { vtt: 'k-vtt' },
      result: { outputFormat: 'jpeg', outputSize: 900, outputFileName: 'clip.jpg', outputs: { vtt: { format: 'vtt', size: 40, fileName: 'clip.vtt' } } },
    });
    expect(templateOutputs([step({}), storyboard])).toEqual([
      { name: 'thumb', storageKey: 'k-thumb', fileName: 'photo.webp', size: 120, contentType: 'image/webp' },
      { name: 'storyboard', storageKey: 'k-sprite', fileName: 'clip.jpg', size: 900, contentType: 'image/jpeg' },
      { name: 'storyboard.vtt', storageKey: 'k-vtt', fileName: 'clip.vtt', size: 40, contentType: 'text/vtt' },
    ]);
  });

  it('keeps nothing of steps that failed, never ran or wrote no file', () => {
    const steps = [
      step({ stepName: 'a', state: 'failed', errorCode: 'processing_failed' }),
      step({ stepName: 'b', state: 'failed', errorCode: 'upstream_failed', outputKey: null, result: null }),
      step({ stepName: 'info', tool: 'media-info', outputKey: null, result: { message: 'probed' } }),
      step({ stepName: 'c' }),
    ];
    expect(templateOutputs(steps).map((o) => o.name)).toEqual(['c']);
  });
});

describe('templateError', () => {
  const pipeline = { state: 'failed' as const, errorCode: 'processing_failed', errorMessage: 'Step "webp" failed.' };

  it('names the step that failed, not the steps it took down with it', () => {
    const steps = [
      step({ stepName: 'small', state: 'failed', errorCode: 'upstream_failed', errorMessage: 'Step "webp" failed.' }),
      step({ stepName: 'webp', tool: 'image-convert', state: 'failed', errorCode: 'timeout', errorMessage: 'The tool took too long.' }),
    ];
    expect(templateError(pipeline, steps)).toEqual({
      code: 'timeout',
      message: 'Step "webp" (image-convert) failed: The tool took too long. The original file is kept, with the files of the steps that completed.',
    });
  });

  it("falls back on the pipeline's own error, and says so when it was canceled", () => {
    expect(templateError(pipeline, [step({})])).toMatchObject({ code: 'processing_failed', message: expect.stringMatching(/^Step "webp" failed\. The original/) });
    expect(templateError({ state: 'canceled', errorCode: null, errorMessage: null }, [step({ state: 'canceled' })])).toMatchObject({ code: 'canceled' });
  });
});
