import type { StorageDriver } from '../storage/storage.driver';
import { MAIN_OUTPUT } from '../tools/tool-definition';
import { contentTypeOf } from '../media/content-types';
import type { Job } from './job.entity';

/** How long a result's signed download URLs stay valid. */
export const RESULT_URL_SECONDS = 3600;

/** Every stored object of a job's outputs: the main one and the further named ones (retention and cleanup delete them together). */
export function storedOutputKeys(job: Pick<Job, 'outputKey' | 'outputKeys'>): string[] {
  return [...(job.outputKey ? [job.outputKey] : []), ...Object.values(job.outputKeys ?? {})];
}

/**
 * A completed job's download URLs by output name (`output` for the main one), each signed now and
 * served with its format's Content-Type; none once retention removed the outputs.
 */
export async function signOutputs(storage: StorageDriver, job: Job): Promise<Record<string, string>> {
  const r = job.result;
  if (job.state !== 'completed' || !r || job.outputExpiredAt) return {};
  const files: [string, string, string, string][] = []; // name, key, file name, format
  if (job.outputKey && r.outputFileName && r.outputFormat) files.push([MAIN_OUTPUT, job.outputKey, r.outputFileName, r.outputFormat]);
  for (const [name, output] of Object.entries(r.outputs ?? {})) {
    const key = job.outputKeys?.[name];
    if (key) files.push([name, key, output.fileName, output.format]);
  }
  const urls = await Promise.all(files.map(([, key, fileName, format]) => storage.signedUrl(key, { fileName, expiresIn: RESULT_URL_SECONDS, contentType: contentTypeOf(format) })));
  return Object.fromEntries(files.map(([name], i) => [name, urls[i]]));
}
