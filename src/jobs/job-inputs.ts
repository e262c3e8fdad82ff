import { Injectable } from '@nestjs/common';
import type { Account } from '../accounts/account.entity';
import { limitsOf, MB } from '../config/plans';
import { takesKind, type ToolDefinition } from '../tools/tool-definition';
import { UploadsService } from '../uploads/uploads.service';
import type { JobInput } from './job.entity';
import { DomainError } from '../common/domain-error';
import { article } from '../common/words';

/** A submitted job's input as the worker will read it: a URL, or an upload's stored object named at admission. */
@Injectable()
export class JobInputs {
  constructor(private readonly uploads: UploadsService) {}

  /** `readers`: the tools that will read the input (one, or a pipeline's first steps). */
  async resolve(account: Pick<Account, 'id' | 'plan'>, input: { url?: string; fileId?: string }, readers: readonly Pick<ToolDefinition, 'slug' | 'kind'>[]): Promise<JobInput> {
    if (!input.fileId) return input;
    const upload = await this.uploads.findCurrent(account.id, input.fileId);
    if (!upload) {
      throw DomainError.validation('input.fileId does not name a current upload of this account (uploads are kept 24 h).', [
        { path: 'body/input/fileId', message: 'no such upload' },
      ]);
    }
    // The upload's kind was sniffed when it arrived: a mismatch is known now, not when a worker fails.
    const tool = readers.find((t) => !takesKind(t.kind, upload.fileKind));
    if (tool) {
      throw new DomainError(
        'unsupported_input',
        `${tool.slug} takes ${article(tool.kind)} ${tool.kind} file; upload ${upload.id} is ${article(upload.fileKind)} ${upload.fileKind} file (${upload.fileMime}).`,
      );
    }
    // A job's input obeys the plan's upload limit however the file arrived (the plan may have changed since).
    const limitMB = limitsOf(account.plan).maxFileSizeMB;
    if (upload.fileSize > limitMB * MB) throw new DomainError('file_too_large', `The file exceeds the ${account.plan} plan's upload limit of ${limitMB} MB.`);
    return { fileId: input.fileId, storageKey: upload.storageKey, fileName: upload.fileName, size: upload.fileSize };
  }
}
