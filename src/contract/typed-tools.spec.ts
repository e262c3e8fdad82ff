import { join } from 'node:path';
import ts from 'typescript';
import { projectRoot } from '../common/project-root';

/**
 * The compile tests of the typed tools: test/types/job-create.typecheck.ts (the generated client's
 * job bodies) and test/types/pipeline-steps.typecheck.ts (the client package's typed pipeline
 * steps) must type-check, and each of their `@ts-expect-error` lines must be needed (tsc reports
 * an unused one as an error).
 */
describe('typed tools in the generated client', () => {
  it.each([
    ['job-create', 'accepts each tool with its options and refuses mistyped options and unknown tools at compile time'],
    ['pipeline-steps', "accepts each pipeline step with its tool's options and refuses mistyped ones, unknown tools and references to no step"],
  ])('%s: %s', (name) => {
    const root = projectRoot();
    const configFile = ts.readConfigFile(join(root, 'tsconfig.json'), (path) => ts.sys.readFile(path));
    const { options } = ts.parseJsonConfigFileContent(configFile.config, ts.sys, root);
    const file = join(root, `test/types/${name}.typecheck.ts`);
    const program = ts.createProgram([file], { ...options, noEmit: true });
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(diagnostics).toEqual([]);

    // And the refusals are real: without the directives, each of those lines is an error.
    const source = ts.sys.readFile(file)!;
    const expected = source.split('\n').filter((line) => line.trim().startsWith('// @ts-expect-error')).length;
    const host = ts.createCompilerHost({ ...options, noEmit: true });
    const readFile = host.readFile.bind(host);
    host.readFile = (name) => (name === file ? source.replaceAll('// @ts-expect-error', '// expect-error') : readFile(name));
    const bare = ts.createProgram([file], { ...options, noEmit: true }, host);
    const errors = ts.getPreEmitDiagnostics(bare).filter((d) => d.file?.fileName === file);
    expect(new Set(errors.map((d) => d.file!.getLineAndCharacterOfPosition(d.start!).line)).size).toBe(expected);
  });
});
