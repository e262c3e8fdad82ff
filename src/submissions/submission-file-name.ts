import { nameMatchingType, sanitizeFileName } from '../common/file-sniffer';
import type { Drop } from '../drops/drop.entity';

/**
 * The name a submission's file is stored, listed, downloaded and zipped under — the one rule for
 * every intake path (the single POST, the drop page and any other tus client), applied by
 * IntakeService.record: the sender's name, sanitized; on a single-kind drop, with the extension of
 * the type sniffed from the bytes, because such a drop vouches for the type: `invoice.html`
 * holding a PNG becomes `invoice.png`, downloaded as an image rather than opened as a page.
 * A drop that takes any kind keeps the sender's extension (the bytes are served as opaque data).
 */
export function submissionFileName(drop: Pick<Drop, 'allowedKinds'>, senderFileName: string | undefined, sniffedExt: string | undefined): string {
  const safeName = sanitizeFileName(senderFileName);
  return drop.allowedKinds === 'any' ? safeName : nameMatchingType(safeName, sniffedExt);
}
