// GENERATED from openapi.yaml by `npm run generate`. Do not edit.
import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './schema';

export type { paths };
export type DroplineClient = Client<paths>;

export interface DroplineClientOptions {
  /** Base URL of the service, e.g. http://127.0.0.1:3000 */
  baseUrl: string;
  /** An API key (dl_live_…); omit for public operations. */
  token?: string;
  fetch?: typeof globalThis.fetch;
}

/** A typed client for every operation of openapi.yaml. */
export function createDroplineClient(options: DroplineClientOptions): DroplineClient {
  return createClient<paths>({
    baseUrl: options.baseUrl,
    headers: options.token ? { Authorization: `Bearer ${options.token}` } : {},
    fetch: options.fetch,
  });
}
