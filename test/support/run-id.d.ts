/** This run's id: TEST_RUN_ID, drawn at random (and exported to the environment) when unset. */
export function testRunId(): string;
