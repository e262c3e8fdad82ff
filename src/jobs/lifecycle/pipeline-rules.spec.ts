import { failingStep, stepOutputName } from './pipeline-rules';

describe('pipeline rules', () => {
  const step = (stepName: string, state: string, errorCode: string | null = null) => ({ stepName, state, errorCode });

  it('a failed pipeline is blamed on the first step that failed on its own, not on the steps it doomed', () => {
    expect(failingStep([step('a', 'completed'), step('b', 'failed', 'upstream_failed'), step('c', 'failed', 'timeout')])?.stepName).toBe('c');
    expect(failingStep([step('a', 'canceled', 'canceled'), step('b', 'failed', 'upstream_failed')])?.stepName).toBe('b');
    expect(failingStep([step('a', 'completed')])).toBeUndefined();
  });

  it('names a step main output by the step, a further one <step>.<output>', () => {
    expect(stepOutputName('poster', 'output')).toBe('poster');
    expect(stepOutputName('storyboard', 'vtt')).toBe('storyboard.vtt');
  });
});
