import { Controller, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PublicDrop } from '../../generated/types';
import { ApiError } from '../common/api-error';
import { asMultipartError } from '../common/multipart-errors';
import { Operation } from '../contract/operation.decorator';
import { DropsService } from '../drops/drops.service';
import type { Drop } from '../drops/drop.entity';
import { IntakeService } from './intake.service';
import { toPublicSubmissionView } from './submission-views';

/** What senders use: no authentication, rate-limited per client IP by the ApiKeyGuard. */
@Controller('v1/public/drops')
export class PublicDropsController {
  constructor(
    private readonly intake: IntakeService,
    private readonly drops: DropsService,
  ) {}

  @Get(':slug')
  @Operation('getPublicDrop')
  async get(@Param('slug') slug: string) {
    return { drop: toPublicDropView(await this.drops.findBySlug(slug)) };
  }

  @Post(':slug/submissions')
  @HttpCode(201)
  @Operation('createPublicSubmission')
  async submit(@Param('slug') slug: string, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    try {
      return { submission: toPublicSubmissionView(await this.intake.receive(slug, req)) };
    } catch (caught) {
      const err = asMultipartError(caught);
      // The rest of a refused upload is not worth receiving: close the connection after the answer.
      if (err instanceof ApiError) reply.header('connection', 'close');
      throw err;
    }
  }
}

export function toPublicDropView(drop: Drop): PublicDrop {
  const expired = drop.expiresAt !== null && drop.expiresAt.getTime() <= Date.now();
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
