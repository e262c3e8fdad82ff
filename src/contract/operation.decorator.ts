import { SetMetadata } from '@nestjs/common';
import type { OperationId } from '../../generated/types';

export const OPERATION_KEY = 'dropline:operation';

/**
 * Binds a route handler to its operation in openapi.yaml. The global guards read the
 * operation's security, scope and request schemas from the contract through this id.
 */
export const Operation = (operationId: OperationId) => SetMetadata(OPERATION_KEY, operationId);
