import { Injectable, Logger } from '@nestjs/common';
import NodeClam from 'clamscan';
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { AppConfig } from '../config/config';

/** The scanner did not answer (down, restarting, timed out): the file waits and is scanned again later. */
export class ScannerUnavailableError extends Error {}

export type ScanVerdict = { infected: false } | { infected: true; signature: string } | { failed: string };

/** Errors of the connection to clamd, not of the file. */
const CONNECTION_ERRORS = new Set(['ENOENT', 'ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND']);

/**
 * ClamAV's `clamd`, spoken to over its socket (CLAMD_SOCKET) or TCP (CLAMD_HOST + CLAMD_PORT) with
 * INSTREAM through the `clamscan` package: the file streams from storage to the scanner, never whole
 * in memory, and nothing but clamd is needed on this machine. Off when neither is configured.
 */
@Injectable()
export class ClamdScanner {
  private readonly logger = new Logger(ClamdScanner.name);
  readonly enabled: boolean;
  private client?: Promise<NodeClam>;

  constructor(private readonly config: AppConfig) {
    this.enabled = Boolean(config.CLAMD_SOCKET || config.CLAMD_HOST);
  }

  private clam(): Promise<NodeClam> {
    this.client ??= new NodeClam().init({
      removeInfected: false,
      preference: 'clamdscan',
      clamscan: { active: false },
      clamdscan: {
        socket: this.config.CLAMD_SOCKET || false,
        host: this.config.CLAMD_SOCKET ? false : this.config.CLAMD_HOST,
        port: this.config.CLAMD_SOCKET ? false : this.config.CLAMD_PORT,
        timeout: this.config.CLAMD_TIMEOUT_S * 1000,
        localFallback: false,
        active: true,
        // clamd may be down at boot: files then wait, so the client must not refuse to exist.
        bypassTest: true,
      },
    });
    return this.client;
  }

  /** Scans a stream: clean, infected (with the signature), or failed (clamd could not judge it). Throws ScannerUnavailableError when clamd does not answer. */
  async scan(stream: Readable): Promise<ScanVerdict> {
    try {
      const result = await (await this.clam()).scanStream(stream);
      if (result.isInfected) return { infected: true, signature: String(result.viruses?.[0] ?? 'unknown').replace(/\.UNOFFICIAL$/, '') };
      if (result.isInfected === false) return { infected: false };
      return { failed: 'The scanner gave no verdict.' };
    } catch (err) {
      stream.destroy();
      if (isConnectionError(err)) throw new ScannerUnavailableError(`clamd unavailable: ${describe(err)}`);
      this.logger.warn({ err: describe(err) }, 'Scan failed');
      return { failed: describe(err) };
    }
  }

  scanFile(path: string): Promise<ScanVerdict> {
    return this.scan(createReadStream(path));
  }

  /** clamd's PING answered PONG. */
  async ping(): Promise<boolean> {
    try {
      const socket = await (await this.clam()).ping();
      socket.end();
      return true;
    } catch {
      return false;
    }
  }
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function isConnectionError(err: unknown): boolean {
  const e = err as { code?: unknown; data?: { err?: { code?: unknown } }; message?: unknown } | undefined;
  const codes = [e?.code, e?.data?.err?.code].filter((c): c is string => typeof c === 'string');
  if (codes.some((c) => CONNECTION_ERRORS.has(c))) return true;
  return typeof e?.message === 'string' && /connect|timed? ?out|socket|closed|ECONN|ENOENT/i.test(e.message);
}
