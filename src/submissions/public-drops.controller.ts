import { Controller, Get, HttpCode, Param, Post, Req, Res, UseInterceptors } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PublicDrop } from '../../generated/types';
import { Clock } from '../common/clock';
import { Form, MultipartInterceptor } from '../common/multipart';
import type { MultipartForm } from '../common/multipart-form';
import { Operation } from '../contract/operation.decorator';
import type { Ok } from '../contract/operation-types';
import { DropsService } from '../drops/drops.service';
import type { Drop } from '../drops/drop.entity';
import { IntakeService } from './intake.service';
import { toPublicSubmissionView } from './submission-views';
import { UploadSlots } from './upload-slots';

/** What senders use: no authentication, rate-limited per client IP by the ApiKeyGuard. */
@Controller('v1/public/drops')
export class PublicDropsController {
  constructor(
    private readonly intake: IntakeService,
    private readonly drops: DropsService,
    private readonly clock: Clock,
    private readonly slots: UploadSlots,
  ) {}

  @Get(':slug')
  @Operation('getPublicDrop')
  async get(@Param('slug') slug: string): Promise<Ok<'getPublicDrop'>> {
    return { drop: toPublicDropView(await this.drops.findBySlug(slug), this.clock.now()) };
  }

  @Post(':slug/submissions')
  @HttpCode(201)
  @Operation('createPublicSubmission')
  @UseInterceptors(MultipartInterceptor)
  async submit(
    @Param('slug') slug: string,
    @Form() form: MultipartForm,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Ok<'createPublicSubmission'>> {
    return this.slots.during(req, reply, async () => ({ submission: toPublicSubmissionView(await this.intake.receive(slug, form)) }));
  }
}

export function toPublicDropView(drop: Drop, now: Date): PublicDrop {
  const expired = drop.expiresAt !== null && drop.expiresAt.getTime() <= now.getTime();
  return {
    slug: drop.slug,
    name: drop.name,
    description: drop.description,
    emoji: drop.emoji,
    accentColor: drop.accentColor,
    allowedKinds: drop.allowedKinds,
    maxFileSizeMB: drop.maxFileSizeMB,
    requireSenderEmail: drop.requireSenderEmail,
    requireMessage: drop.requireMessage,
    acceptingSubmissions: drop.isActive && !expired,
  };
}
