import { Injectable, type OnModuleInit, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { Contract } from './contract';
import { OPERATION_ALIASES_KEY, OPERATION_KEY } from './operation.decorator';

/** A handler carrying `@Operation`, with every method and path Nest serves it under. */
export interface BoundHandler {
  /** `JobsController.create`, for messages. */
  name: string;
  operationId: string;
  aliases: readonly string[];
  /** `POST /v1/jobs`, with path parameters written `{id}` like the contract. */
  routes: readonly string[];
}

export interface ContractRoute {
  operationId: string;
  method: string;
  pathTemplate: string;
}

/**
 * What is wrong between the contract and the handlers, one message per problem: a handler bound
 * to an operation the contract lacks, served under a method or path no operation of its binding
 * has, or an operation without a handler (or with two).
 */
export function bindingProblems(operations: readonly ContractRoute[], handlers: readonly BoundHandler[]): string[] {
  const problems: string[] = [];
  const byId = new Map(operations.map((op) => [op.operationId, op]));
  const routeOf = (op: ContractRoute) => `${op.method} ${op.pathTemplate}`;
  const boundBy = new Map<string, string[]>();

  for (const handler of handlers) {
    const ids = [handler.operationId, ...handler.aliases];
    const unknown = ids.filter((id) => !byId.has(id));
    for (const id of unknown) problems.push(`${handler.name} is bound to operation ${id}, which openapi.yaml does not define.`);
    const own = ids.filter((id) => byId.has(id)).map((id) => byId.get(id)!);
    for (const route of handler.routes) {
      if (unknown.length === 0 && !own.some((op) => routeOf(op) === route)) {
        const expected = own.map((op) => `${op.operationId} (${routeOf(op)})`).join(' or ');
        problems.push(`${handler.name} is served at ${route}, but it is bound to ${expected}.`);
      }
    }
    for (const op of own) {
      if (!handler.routes.includes(routeOf(op))) {
        problems.push(`Operation ${op.operationId} (${routeOf(op)}) is bound to ${handler.name}, which is not served there.`);
      }
      boundBy.set(op.operationId, [...(boundBy.get(op.operationId) ?? []), handler.name]);
    }
  }
  for (const op of operations) {
    const names = boundBy.get(op.operationId) ?? [];
    if (names.length === 0) problems.push(`Operation ${op.operationId} (${routeOf(op)}) has no handler: add @Operation('${op.operationId}') to one.`);
    if (names.length > 1) problems.push(`Operation ${op.operationId} (${routeOf(op)}) is bound to more than one handler: ${names.join(', ')}.`);
  }
  return problems;
}

/** `:id` → `{id}`, one leading slash, no trailing one. */
export function joinRoute(method: string, prefix: string, path: string): string {
  const joined = [prefix, path]
    .map((part) => part.replace(/^\/+|\/+$/g, ''))
    .filter((part) => part !== '')
    .join('/');
  return `${method} /${joined.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`;
}

/**
 * Boot-time check of the `@Operation` bindings against openapi.yaml (ADR 0001): the server
 * refuses to start with a route the contract does not describe or an operation it does not
 * serve, instead of answering 404 or validating with the wrong schemas at run time.
 */
@Injectable()
export class OperationBindingCheck implements OnModuleInit {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly contract: Contract,
  ) {}

  onModuleInit(): void {
    const problems = bindingProblems(this.contract.allOperations(), this.boundHandlers());
    if (problems.length > 0) {
      throw new Error(`The routes do not match openapi.yaml:\n- ${problems.join('\n- ')}`);
    }
  }

  private boundHandlers(): BoundHandler[] {
    const handlers: BoundHandler[] = [];
    for (const wrapper of this.discovery.getControllers()) {
      const controller = wrapper.metatype as (new (...args: never[]) => object) | null;
      if (!controller) continue;
      const prefixes = asList(Reflect.getMetadata(PATH_METADATA, controller) as string | string[] | undefined);
      const prototype = controller.prototype as Record<string, unknown>;
      for (const methodName of this.scanner.getAllMethodNames(prototype)) {
        const handler = prototype[methodName] as object;
        const operationId = Reflect.getMetadata(OPERATION_KEY, handler) as string | undefined;
        if (!operationId) continue;
        const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod];
        const paths = asList(Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined);
        handlers.push({
          name: `${controller.name}.${methodName}`,
          operationId,
          aliases: (Reflect.getMetadata(OPERATION_ALIASES_KEY, handler) as string[] | undefined) ?? [],
          routes: prefixes.flatMap((prefix) => paths.map((path) => joinRoute(method, prefix, path))),
        });
      }
    }
    return handlers;
  }
}

function asList(value: string | string[] | undefined): string[] {
  if (value === undefined) return [''];
  return Array.isArray(value) ? value : [value];
}
