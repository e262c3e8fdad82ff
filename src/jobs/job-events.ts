/** The settle use case (its consequences step, `finished`) under the name the e2e tests know it by. */
export { SettleJob as JobEvents } from './use-cases/settle-job';
