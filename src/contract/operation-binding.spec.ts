import { Controller, Get, Post } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { Contract } from './contract';
import { bindingProblems, joinRoute, OperationBindingCheck } from './operation-binding';
import { Operation } from './operation.decorator';

const CONTRACT = [
  { operationId: 'listJobs', method: 'GET', pathTemplate: '/v1/jobs' },
  { operationId: 'apiListJobs', method: 'GET', pathTemplate: '/api/v1/jobs' },
  { operationId: 'getJob', method: 'GET', pathTemplate: '/v1/jobs/{id}' },
];

@Controller(['v1/jobs', 'api/v1/jobs'])
class AliasedJobs {
  @Get()
  @Operation('listJobs', { aliases: ['apiListJobs'] })
  list() {}
}

@Controller('v1/jobs')
class JobById {
  @Get(':id')
  @Operation('getJob')
  get() {}
}

@Controller('v1/jobs')
class WrongMethod {
  @Post(':id')
  @Operation('getJob')
  get() {}
}

/** Boots a Nest module with these controllers against CONTRACT; resolves, or rejects as boot would. */
async function boot(...controllers: (new () => object)[]): Promise<void> {
  const module = await Test.createTestingModule({
    imports: [DiscoveryModule],
    controllers,
    providers: [OperationBindingCheck, { provide: Contract, useValue: { allOperations: () => CONTRACT } }],
  }).compile();
  try {
    await module.init();
  } finally {
    await module.close();
  }
}

describe('OperationBindingCheck', () => {
  it('boots when every operation is bound at its method and path, aliases included', async () => {
    await expect(boot(AliasedJobs, JobById)).resolves.toBeUndefined();
  });

  it('fails boot when a handler is served at another method than its operation, naming both', async () => {
    await expect(boot(AliasedJobs, WrongMethod)).rejects.toThrow('WrongMethod.get is served at POST /v1/jobs/{id}, but it is bound to getJob (GET /v1/jobs/{id}).');
  });

  it('fails boot when an operation has no handler, naming the operation', async () => {
    await expect(boot(AliasedJobs)).rejects.toThrow("Operation getJob (GET /v1/jobs/{id}) has no handler: add @Operation('getJob') to one.");
  });
});

describe('bindingProblems', () => {
  const handler = { name: 'JobsController.list', operationId: 'listJobs', aliases: [] as string[], routes: ['GET /v1/jobs'] };

  it('finds nothing wrong in a complete binding', () => {
    const get = { name: 'JobsController.get', operationId: 'getJob', aliases: [], routes: ['GET /v1/jobs/{id}'] };
    const aliased = { ...handler, aliases: ['apiListJobs'], routes: ['GET /v1/jobs', 'GET /api/v1/jobs'] };
    expect(bindingProblems(CONTRACT, [aliased, get])).toEqual([]);
  });

  it('reports a path served without its alias declared, and the alias left unbound', () => {
    const unaliased = { ...handler, routes: ['GET /v1/jobs', 'GET /api/v1/jobs'] };
    const get = { name: 'JobsController.get', operationId: 'getJob', aliases: [], routes: ['GET /v1/jobs/{id}'] };
    expect(bindingProblems(CONTRACT, [unaliased, get])).toEqual([
      'JobsController.list is served at GET /api/v1/jobs, but it is bound to listJobs (GET /v1/jobs).',
      "Operation apiListJobs (GET /api/v1/jobs) has no handler: add @Operation('apiListJobs') to one.",
    ]);
  });

  it('reports an operation id the contract lacks, and an operation bound twice', () => {
    const ghost = { name: 'Ghost.get', operationId: 'getGhost', aliases: [], routes: ['GET /v1/ghosts'] };
    const twice = { ...handler, name: 'Other.list' };
    const problems = bindingProblems(CONTRACT, [handler, twice, ghost]);
    expect(problems).toContain('Ghost.get is bound to operation getGhost, which openapi.yaml does not define.');
    expect(problems).toContain('Operation listJobs (GET /v1/jobs) is bound to more than one handler: JobsController.list, Other.list.');
  });

  it('writes Nest routes like the contract', () => {
    expect(joinRoute('GET', 'v1/drops/:slug/submissions', ':id/download')).toBe('GET /v1/drops/{slug}/submissions/{id}/download');
    expect(joinRoute('GET', '', 'healthz')).toBe('GET /healthz');
    expect(joinRoute('POST', '/v1/uploads', '/')).toBe('POST /v1/uploads');
  });
});
