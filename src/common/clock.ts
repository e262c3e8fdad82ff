import { Injectable } from '@nestjs/common';

/** The time as the rules see it. One provider, so tests can move it (idempotency windows). */
@Injectable()
export class Clock {
  now(): Date {
    return new Date();
  }
}
