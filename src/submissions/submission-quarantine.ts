import { Inject, Injectable } from '@nestjs/common';
import type { Readable } from 'node:stream';
import { Clock } from '../common/clock';
import { Transactions } from '../database/transactions';
import { StorageTombstonesRepository } from '../storage/storage-tombstones.repository';
import { ObjectNotFoundError, STORAGE, type StorageDriver } from '../storage/storage.driver';
import { ScanRepository } from './scan.repository';

/** Quarantined files live under their own key, `qrn_<key>`: no URL was ever signed for it. */
const PREFIX = 'qrn_';

export function quarantineKey(key: string): string {
  return key.startsWith(PREFIX) ? key : `${PREFIX}${key}`;
}

/**
 * Puts an infected submission's files out of reach of every link made before its verdict (in
 * advisory mode the owner may have one). The processed file and the template's outputs go with
 * the original: a job scans its input and refuses malware (`input_infected`), but one that ran
 * before clamd knew the signature may have made them. Each file is remembered as quarantined (a URL to its key then answers 403 `quarantined`, not 404) and
 * moved to its quarantine key: a signed URL names the old key, so it finds nothing — on local disk
 * and on S3 alike, and the file route queries nothing on a download that succeeds. The verdict is
 * recorded only after the move, so a client that sees `infected` can no longer fetch the bytes.
 * Every step may run again: a scan that died half-way is redone by the sweep (see `readable`).
 */
@Injectable()
export class SubmissionQuarantine {
  constructor(
    private readonly scans: ScanRepository,
    private readonly tombstones: StorageTombstonesRepository,
    private readonly transactions: Transactions,
    @Inject(STORAGE) private readonly storage: StorageDriver,
    private readonly clock: Clock,
  ) {}

  /** Hides the files, then records the verdict; false when another scan recorded it first. */
  async settleInfected(id: string, signature: string): Promise<boolean> {
    const keys = await this.hide(id);
    return this.transactions.run(async (tx) => {
      await this.scans.renameKeys(tx, id, keys, PREFIX);
      return this.scans.settle(id, 'infected', signature, tx);
    });
  }

  /**
   * The stored bytes to scan. A scan that moved the file and died before recording its verdict
   * left the row `pending` with its old key: the sweep scans the quarantined copy and finishes.
   */
  async readable(key: string): Promise<Readable> {
    try {
      return await this.storage.read(key);
    } catch (err) {
      if (err instanceof ObjectNotFoundError && (await this.tombstones.find(key))?.reason === 'quarantined') return this.storage.read(quarantineKey(key));
      throw err;
    }
  }

  private async hide(id: string): Promise<string[]> {
    const keys = await this.scans.unhiddenKeys(id, PREFIX);
    if (keys.length === 0) return keys;
    await this.transactions.run((tx) => this.tombstones.record(tx, keys, 'quarantined', this.clock.now()));
    for (const key of keys) {
      try {
        await this.storage.move(key, quarantineKey(key));
      } catch (err) {
        if (!(err instanceof ObjectNotFoundError)) throw err; // gone already (the submission was deleted): nothing to hide
      }
    }
    return keys;
  }
}
