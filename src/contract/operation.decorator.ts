import { SetMetadata } from '@nestjs/common';
import type { OperationId } from '../../generated/types';

export const OPERATION_KEY = 'dropline:operation';
export const OPERATION_ALIASES_KEY = 'dropline:operation-aliases';

export interface OperationOptions {
  /**
   * Operations of the contract this handler also serves under another path, with the same
   * schemas (the `/api/v1` twins of the jobs routes). Validation uses the main operation.
   */
  aliases?: OperationId[];
}

/**
 * Binds a route handler to its operation in openapi.yaml. The global guards read the
 * operation's security, scope and request schemas from the contract through this id, and boot
 * fails when the handler's method and path differ from the operation's (OperationBindingCheck).
 */
export function Operation(operationId: OperationId, options: OperationOptions = {}): MethodDecorator {
  return (target, key, descriptor) => {
    SetMetadata(OPERATION_KEY, operationId)(target, key, descriptor);
    SetMetadata(OPERATION_ALIASES_KEY, options.aliases ?? [])(target, key, descriptor);
  };
}
