/** The run use case under the name the media processors and the e2e tests know it by. */
export { RunJob as JobRunner } from './use-cases/run-job';
