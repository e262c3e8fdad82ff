import { Injectable } from '@nestjs/common';
import type { Template as TemplateView, TemplateCreate, TemplateUpdate } from '../../generated/types';
import { DomainError } from '../common/domain-error';
import { decodeCursor, paginate } from '../common/cursor';
import { newId } from '../common/ids';
import { PipelineCheck } from '../tools/pipeline-check';
import type { PipelineStepSpec } from '../tools/pipeline-plan';
import type { Template } from './template.entity';
import { TemplatesRepository } from './templates.repository';

/**
 * An account's saved pipelines. Steps are checked as a job's are when saved (400
 * `invalid_pipeline`); the scopes of their tools are the running key's business, checked when a
 * job runs the template.
 */
@Injectable()
export class TemplatesService {
  constructor(
    private readonly templates: TemplatesRepository,
    private readonly pipelines: PipelineCheck,
  ) {}

  async create(accountId: string, body: TemplateCreate): Promise<Template> {
    const steps = this.checked(body.steps);
    return this.templates.insert({ id: newId('tpl'), accountId, name: body.name, steps });
  }

  async list(accountId: string, limit: number, cursor?: string) {
    return paginate(await this.templates.listForAccount(accountId, limit + 1, decodeCursor(cursor)), limit);
  }

  /** The account's template, or 404 `not_found` (another account's too). */
  async get(accountId: string, id: string): Promise<Template> {
    const template = await this.templates.findForAccount(id, accountId);
    if (!template) throw DomainError.notFound('Template');
    return template;
  }

  async update(accountId: string, id: string, body: TemplateUpdate): Promise<Template> {
    const steps = body.steps === undefined ? undefined : this.checked(body.steps);
    const template = await this.templates.update(id, accountId, { name: body.name, steps });
    if (!template) throw DomainError.notFound('Template');
    return template;
  }

  async delete(accountId: string, id: string): Promise<void> {
    if (!(await this.templates.delete(id, accountId))) throw DomainError.notFound('Template');
  }

  toView(template: Template): TemplateView {
    return {
      id: template.id,
      name: template.name,
      steps: template.steps,
      createdAt: template.createdAt.toISOString(),
      updatedAt: template.updatedAt.toISOString(),
    };
  }

  /** The steps as stored: each with its tool, its options as the tool keeps them, and its input. */
  private checked(steps: TemplateCreate['steps']): Record<string, PipelineStepSpec> {
    const plan = this.pipelines.plan(steps);
    const byName = new Map(plan.map((s) => [s.name, s]));
    // Declaration order, as the client wrote them.
    return Object.fromEntries(
      Object.keys(steps).map((name) => {
        const step = byName.get(name)!;
        return [name, { tool: step.tool.slug, options: step.options, ...(step.input !== null ? { input: step.input } : {}) }];
      }),
    );
  }
}
