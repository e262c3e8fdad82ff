import { DomainError } from '../../common/domain-error';

export const enqueueFailed = () => new DomainError('enqueue_failed', 'The job could not be queued; no credits were charged. Retry later.');
