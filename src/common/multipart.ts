import { type CallHandler, createParamDecorator, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { Multipart, MultipartFile } from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { catchError, type Observable, throwError } from 'rxjs';
import { DomainError } from './domain-error';
import type { IncomingFile, MultipartForm, MultipartReadOptions } from './multipart-form';
import { asMultipartError } from './multipart-errors';

/** Room for the multipart envelope and the text fields on top of the file itself. */
const MULTIPART_OVERHEAD = 64 * 1024;

/**
 * The request body as a {@link MultipartForm} (@fastify/multipart underneath, registered in
 * app.factory with the global part limits). Use with {@link MultipartInterceptor}.
 */
export const Form = createParamDecorator((_data: unknown, context: ExecutionContext): MultipartForm => {
  return fastifyForm(context.switchToHttp().getRequest<FastifyRequest>());
});

/**
 * Parser failures (malformed body, part limits) become 4xx envelopes, wherever they surface —
 * in `read` or while a service streams the file. After a refused upload the connection closes
 * with the answer: the rest of the body is not worth receiving.
 */
@Injectable()
export class MultipartInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    return next.handle().pipe(
      catchError((caught: unknown) => {
        const err = asMultipartError(caught);
        if (err instanceof DomainError) reply.header('connection', 'close');
        return throwError(() => err);
      }),
    );
  }
}

export function fastifyForm(request: FastifyRequest): MultipartForm {
  // One iterator for both reads: the fields after the file come from where `read` stopped.
  let parts: AsyncIterableIterator<Multipart> | undefined;
  return {
    async read({ maxFileBytes, tooLarge, fileField }: MultipartReadOptions) {
      if (!request.isMultipart()) {
        throw new DomainError('unsupported_media_type', 'Send the file as multipart/form-data.');
      }
      if (Number(request.headers['content-length']) > maxFileBytes + MULTIPART_OVERHEAD) throw tooLarge();
      // Stepped by hand rather than for-await, which would end the iterator on return.
      parts = request.parts();
      const fields: Record<string, string> = {};
      for (;;) {
        const next = await parts.next();
        if (next.done) return { fields, file: undefined };
        const part = next.value;
        if (part.type === 'field') {
          const value = part.value;
          if (typeof value === 'string') fields[part.fieldname] = value;
          continue;
        }
        if (fileField !== undefined && part.fieldname !== fileField) {
          part.file.resume();
          continue;
        }
        return { fields, file: incomingFile(part) };
      }
    },
    async fieldsAfterFile() {
      const fields: Record<string, string> = {};
      if (!parts) return fields;
      for (;;) {
        const next = await parts.next();
        if (next.done) return fields;
        const part = next.value;
        if (part.type === 'field') {
          if (typeof part.value === 'string') fields[part.fieldname] = part.value;
        } else {
          part.file.resume();
        }
      }
    },
  };
}

function incomingFile(part: MultipartFile): IncomingFile {
  return {
    fileName: part.filename,
    mimeType: part.mimetype,
    stream: part.file,
    get truncated() {
      return part.file.truncated;
    },
  };
}
