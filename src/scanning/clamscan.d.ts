/** The part of `clamscan` (no published types) this service uses. */
declare module 'clamscan' {
  import type { Socket } from 'node:net';
  import type { Readable } from 'node:stream';

  interface ScanResult {
    isInfected: boolean | null;
    viruses?: string[];
  }

  export default class NodeClam {
    init(options: Record<string, unknown>): Promise<NodeClam>;
    scanStream(stream: Readable): Promise<ScanResult>;
    ping(): Promise<Socket>;
  }
}
