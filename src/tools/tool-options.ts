import { Injectable } from '@nestjs/common';
import { DomainError } from '../common/domain-error';
import { Contract, toDetails } from '../contract/contract';
import type { ToolDefinition } from './tool-definition';

/**
 * A tool's options, checked once against its schema in the contract (`optionsSchema`) and its
 * `extraCheck`, at the path the request gave them (`body/options`, `body/steps/<name>/options`):
 * 400 `validation_failed`. Unknown keys are dropped, not refused (docs/adding-a-tool.md).
 */
@Injectable()
export class ToolOptions {
  constructor(private readonly contract: Contract) {}

  check(tool: ToolDefinition, options: unknown, path: string): Record<string, unknown> {
    // Absent options are not checked against the schema (the spec's single-tool form allows it); the tool's defaults apply.
    if (options !== undefined) {
      const validate = this.contract.schemaValidator(tool.optionsSchema);
      if (!validate(options)) {
        const details = toDetails(path, validate.errors);
        throw DomainError.validation(`${details[0].path}: ${details[0].message}`, details);
      }
    }
    const given = (options ?? {}) as Record<string, unknown>;
    const extra = tool.extraCheck?.(given);
    if (extra) {
      const at = extra.path.replace(/^body\/options/, path);
      throw DomainError.validation(`${at}: ${extra.message}`, [{ path: at, message: extra.message }]);
    }
    const schema = this.contract.componentSchema(tool.optionsSchema);
    const known = [schema, ...(schema.anyOf ?? [])].flatMap((branch: { properties?: object }) => Object.keys(branch.properties ?? {}));
    return Object.fromEntries(Object.entries(given).filter(([k]) => known.includes(k)));
  }
}
