import type { operations } from '../../generated/schema';

/**
 * Request and response types of an operation, read from the generated contract types by its
 * operationId, so controllers and services never restate them: `Query<'listJobs'>`,
 * `Body<'createJob'>`, `Ok<'getJob'>`.
 */
export type OperationName = keyof operations;

type Parameters<K extends OperationName> = operations[K]['parameters'];
type JsonContent<T> = T extends { content: { 'application/json': infer J } } ? J : never;
type Responses<K extends OperationName> = operations[K]['responses'];
type SuccessStatus = 200 | 201 | 202;

/** The query string after validation (Ajv coerces "10" to 10 and "true" to true in place). */
export type Query<K extends OperationName> = NonNullable<Parameters<K>['query']>;

/** The JSON request body. */
export type Body<K extends OperationName> = JsonContent<NonNullable<operations[K]['requestBody']>>;

/** The JSON body of the success response (200, 201 or 202). */
export type Ok<K extends OperationName> = JsonContent<Responses<K>[Extract<keyof Responses<K>, SuccessStatus>]>;
