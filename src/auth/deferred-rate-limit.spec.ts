import type { FastifyRequest } from 'fastify';
import { Contract } from '../contract/contract';
import { canDeferVerdict } from './deferred-rate-limit';

describe('canDeferVerdict', () => {
  const contract = new Contract();
  const requestFor = (operationId: string) => ({ operation: contract.operation(operationId) }) as FastifyRequest;

  it('defers the plain reads answered with JSON, not writes nor streamed downloads', () => {
    for (const id of ['getDrop', 'listDrops', 'listSubmissions', 'getJob', 'listJobs', 'apiGetJob', 'getAccount']) {
      expect({ id, deferred: canDeferVerdict(requestFor(id)) }).toEqual({ id, deferred: true });
    }
    for (const id of ['createDrop', 'updateDrop', 'deleteDrop', 'createJob', 'downloadSubmissionsArchive']) {
      expect({ id, deferred: canDeferVerdict(requestFor(id)) }).toEqual({ id, deferred: false });
    }
  });
});
