import type { Job } from './job.entity';
import { toJobView } from './job-views';

const base: Job = {
  id: 'job_1',
  accountId: 'acc_1',
  apiKeyId: 'key_1',
  tool: 'video-storyboard',
  queue: 'video-standard-queue',
  queuePrefix: null,
  state: 'completed',
  progress: 100,
  input: { url: 'http://x/clip.mp4' },
  options: {},
  webhookUrl: null,
  cost: 2,
  result: null,
  outputKey: null,
  outputExpiredAt: null,
  errorCode: null,
  errorMessage: null,
  refunded: false,
  enqueuedAt: null,
  waitingForSlot: false,
  submissionId: null,
  createdAt: new Date(0),
  startedAt: new Date(0),
  finishedAt: new Date(0),
};

describe('toJobView: result.outputs', () => {
  const storyboard: Job = {
    ...base,
    outputKey: 'obj_sprite',
    outputKeys: { vtt: 'obj_vtt' },
    result: {
      outputFormat: 'jpeg',
      outputSize: 100,
      outputFileName: 'clip.jpg',
      width: 320,
      height: 90,
      outputDetails: { tiles: 4, columns: 2 },
      outputs: { vtt: { format: 'vtt', size: 50, fileName: 'clip.vtt', details: { cues: 4 } } },
    },
  };

  it('the main output under `output` (the same URL as downloadUrl), the further ones by name, each with its content type and metadata', () => {
    const view = toJobView(storyboard, { output: 'https://u/sprite', vtt: 'https://u/vtt' });
    expect(view.result).toMatchObject({ downloadUrl: 'https://u/sprite', outputFormat: 'jpeg', outputSize: 100 });
    expect(view.result!.outputs).toEqual({
      output: { downloadUrl: 'https://u/sprite', contentType: 'image/jpeg', size: 100, fileName: 'clip.jpg', format: 'jpeg', width: 320, height: 90, tiles: 4, columns: 2 },
      vtt: { downloadUrl: 'https://u/vtt', contentType: 'text/vtt', size: 50, fileName: 'clip.vtt', format: 'vtt', cues: 4 },
    });
    expect(Object.keys(view.result!.outputs)).toEqual(['output', 'vtt']);
  });

  it('expired: every output keeps its description without a URL', () => {
    const view = toJobView({ ...storyboard, outputExpiredAt: new Date(1000) });
    expect(view.result).toMatchObject({ downloadUrl: null, expiredAt: new Date(1000).toISOString() });
    expect(Object.values(view.result!.outputs).map((o) => o.downloadUrl)).toEqual([null, null]);
  });

  it('a tool that wrote no file: no URL, no format or size, outputs {}, its details in the result', () => {
    const view = toJobView({ ...base, tool: 'video-thumbnail', result: { details: { placeholder: 'x' } } });
    expect(view.result).toEqual({ status: 'done', outputFormat: null, downloadUrl: null, expiredAt: null, outputSize: null, outputs: {}, placeholder: 'x' });
  });

  it('a file-writing job read without its signed URL shows no result (as before)', () => {
    expect(toJobView(storyboard).result).toBeNull();
  });
});
