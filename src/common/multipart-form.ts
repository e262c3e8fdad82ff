import type { Readable } from 'node:stream';

/** The file part of a multipart body, not yet read: whoever receives it streams or drains it. */
export interface IncomingFile {
  fileName: string;
  /** The client's claim; never trusted for the kind (the bytes are sniffed). */
  mimeType: string;
  stream: Readable;
  /** True once the parser's own ceiling cut the stream short. */
  readonly truncated: boolean;
}

export interface MultipartReadOptions {
  /** The size the file may have; a body whose Content-Length already says more is refused unread. */
  maxFileBytes: number;
  /** The caller's own 413. */
  tooLarge: () => Error;
  /** The part holding the file; omitted: the first file part, whatever its name. */
  fileField?: string;
}

/**
 * A multipart/form-data request body as services see it: no Fastify in sight. Reading is lazy so
 * that a service checks what it can without the body first (a missing or closed drop answers
 * before a byte of the upload is read); `read` then parses the text fields up to the file and
 * hands the file over as a stream. 415 when the body is not multipart.
 */
export interface MultipartForm {
  read(options: MultipartReadOptions): Promise<{ fields: Record<string, string>; file: IncomingFile | undefined }>;
  /**
   * The text fields sent after the file (`curl -F file=@x -F senderName=Ada` puts them there), read
   * once the file's stream has been consumed, to the end of the body. Bounded by the parser's part
   * limits (app.factory: 20 fields of 16 KiB); another file part is drained unread.
   */
  fieldsAfterFile(): Promise<Record<string, string>>;
}
