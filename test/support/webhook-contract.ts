import { Contract } from '../../src/contract/contract';
import type { ReceivedWebhook } from './webhook-receiver';

const contract = new Contract();

/**
 * Checks a webhook as received against the contract's `x-webhooks` entry for its event type:
 * the body against the event's schema, each Standard Webhooks header against its parameter.
 * Returns the list of mismatches (empty when the delivery matches the contract).
 */
export function webhookContractErrors(hook: ReceivedWebhook): string[] {
  const body = JSON.parse(hook.body) as { type?: string };
  const entry = contract.document['x-webhooks']?.[body.type ?? '']?.post;
  if (!entry) return [`event type ${JSON.stringify(body.type)} is not in x-webhooks`];
  const errors: string[] = [];
  const schemaName = String(entry.requestBody.content['application/json'].schema.$ref).split('/').pop()!;
  const validate = contract.schemaValidator(schemaName);
  if (!validate(body)) errors.push(...(validate.errors ?? []).map((e) => `body${e.instancePath}: ${e.message}`));
  for (const ref of entry.parameters as { $ref: string }[]) {
    const param = contract.document.components.parameters[ref.$ref.split('/').pop()!];
    const value = hook.headers[param.name];
    if (typeof value !== 'string') errors.push(`header ${param.name} is missing`);
    else if (param.schema.pattern && !new RegExp(param.schema.pattern).test(value)) errors.push(`header ${param.name} does not match ${param.schema.pattern}`);
  }
  return errors;
}
