import { Controller, Get, HttpCode, Param, Post, Req, Res, UseInterceptors } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Clock } from '../common/clock';
import { Form, MultipartInterceptor } from '../common/multipart';
import type { MultipartForm } from '../common/multipart-form';
import { Operation } from '../contract/operation.decorator';
import type { Ok } from '../contract/operation-types';
import { DropsService } from '../drops/drops.service';
import { DropGate, dropPasswordHeader } from '../drops/drop-gate';
import { requestActor } from '../drops/drop-events.repository';
import { toPublicDropView } from '../drops/drop-views';
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
    private readonly gate: DropGate,
  ) {}

  @Get(':slug')
  @Operation('getPublicDrop')
  async get(@Param('slug') slug: string, @Req() req: FastifyRequest): Promise<Ok<'getPublicDrop'>> {
    const drop = await this.drops.findBySlug(slug);
    await this.gate.admit(drop, { password: dropPasswordHeader(req.headers), ip: req.ip });
    return { drop: toPublicDropView(drop, this.clock.now()) };
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
    const actor = requestActor(req.ip, req.headers['user-agent']);
    try {
      return await this.slots.during(req.ip, req.raw, reply.raw, async () => ({
        submission: toPublicSubmissionView(await this.intake.receive(slug, form, { password: dropPasswordHeader(req.headers), ip: req.ip }, actor)),
      }));
    } catch (err) {
      await this.intake.recordRefusal(slug, actor, err);
      throw err;
    }
  }
}
