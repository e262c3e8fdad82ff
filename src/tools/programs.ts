import type { Tool } from '../../generated/types';
import type { AppConfig } from '../config/config';

/** The name of a `/readyz` program check, as the contract lists them (`Tool.requires`). */
export type ProgramCheckName = Tool['requires'][number];

/** One program a check looks for: where the config says it is (or its name, looked up on PATH). */
export interface Program {
  name: string;
  path: string;
  /** The setting that points at it instead of PATH. */
  variable: keyof AppConfig;
}

export interface ProgramCheckSpec {
  name: ProgramCheckName;
  /** What provides it on Debian/Ubuntu (the one-line remedy a missing program's messages give). */
  debianPackage: string;
  programs: (config: AppConfig) => Program[];
}

const program = (config: AppConfig, name: string, variable: keyof AppConfig): Program => ({ name, variable, path: (config[variable] as string | undefined) || name });

/**
 * The programs beyond Node that tools run, grouped as `/readyz` reports them. A tool names the
 * checks it needs (`requires` in its definition); adding a program is one entry here, its name in
 * the contract's `ProgramCheck` lists, and `requires` on its tools.
 */
export const PROGRAM_CHECKS: readonly ProgramCheckSpec[] = [
  { name: 'ffmpeg', debianPackage: 'ffmpeg', programs: (c) => [program(c, 'ffmpeg', 'FFMPEG_PATH'), program(c, 'ffprobe', 'FFPROBE_PATH')] },
  { name: 'libreoffice', debianPackage: 'libreoffice-nogui', programs: (c) => [program(c, 'soffice', 'SOFFICE_PATH')] },
  { name: 'poppler', debianPackage: 'poppler-utils', programs: (c) => [program(c, 'pdftoppm', 'PDFTOPPM_PATH'), program(c, 'pdfinfo', 'PDFINFO_PATH')] },
];

/** "ffmpeg and ffprobe" */
export function listed(names: readonly string[]): string {
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}
