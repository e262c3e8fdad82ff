import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { assertTransition, canMove, FINAL_STATES, fromStatesSql, JOB_STATES, TRANSITIONS } from './job-states';

describe('job states', () => {
  it('allows exactly the documented moves', () => {
    const allowed = JOB_STATES.flatMap((from) => JOB_STATES.filter((to) => canMove(from, to)).map((to) => `${from}→${to}`));
    expect(allowed.sort()).toEqual(
      ['queued→canceled', 'queued→failed', 'queued→running', 'running→completed', 'running→failed', 'running→queued', 'running→running', 'running→canceled'].sort(),
    );
  });

  it('never leaves a final state', () => {
    for (const from of FINAL_STATES) for (const to of JOB_STATES) expect(canMove(from, to)).toBe(false);
  });

  it('throws on a forbidden transition', () => {
    expect(() => assertTransition('completed', 'queued')).toThrow('Forbidden job state transition completed → queued');
    expect(() => assertTransition('failed', 'canceled')).toThrow('Forbidden job state transition failed → canceled');
    expect(() => assertTransition('queued', 'canceled')).not.toThrow();
  });

  it('gives each UPDATE its from-states', () => {
    expect(fromStatesSql('cancel')).toBe("'queued'");
    expect(fromStatesSql('fail')).toBe("'queued', 'running'");
  });

  it('is the only source of the state writes in the jobs and pipelines repositories', () => {
    // Every `SET state = …` names its target through TRANSITIONS, and no WHERE spells a from-state by hand.
    const source = ['jobs.repository.ts', 'pipelines.repository.ts'].map((f) => readFileSync(join(__dirname, '..', f), 'utf8')).join('\n');
    expect(source).not.toMatch(/SET[^`]*state\s*=\s*'/);
    expect(source).not.toMatch(/state\s+IN\s*\(\s*'/);
    for (const name of Object.keys(TRANSITIONS)) expect(source).toContain(`transition('${name}')`);
  });
});
