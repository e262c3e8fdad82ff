// GENERATED from openapi.yaml by `npm run generate`. Do not edit.
export * from './types';
export * from './client';
