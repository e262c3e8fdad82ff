import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import which from 'which';
import { AppConfig } from '../config/config';
import { listed, type Program, PROGRAM_CHECKS, type ProgramCheckName } from './programs';
import type { ToolDefinition } from './tool-definition';
import { TOOL_LIST } from './tool-list';

/** Each check's programs that are missing (none: the check is ok). */
export type MissingPrograms = ReadonlyMap<ProgramCheckName, Program[]>;

/** How long a lookup is reused: long enough that /readyz and job submissions cost no file-system walk each, short enough that installing ffmpeg needs no restart. */
const REUSE_MS = 5000;

/**
 * Whether the programs the tools run (ffmpeg, LibreOffice, poppler) are on this machine, looked up
 * the way the media layer will spawn them (the configured path, else PATH). `/readyz` reports it,
 * `GET /v1/tools` marks tools `available`, and a job whose tool lacks one is refused before anything
 * is charged, instead of failing once a worker reaches it.
 */
@Injectable()
export class ToolAvailability implements OnApplicationBootstrap {
  private readonly logger = new Logger('Tools');
  private lookup?: { at: number; missing: Promise<MissingPrograms> };

  constructor(private readonly config: AppConfig) {}

  /** One warning line naming every missing program, the tools it disables and the install command. */
  async onApplicationBootstrap(): Promise<void> {
    const missing = await this.missing();
    if (missing.size === 0) return;
    const programs = [...missing.values()].flat().map((p) => p.name);
    const tools = TOOL_LIST.filter((t) => t.requires.some((check) => missing.has(check))).map((t) => t.slug);
    const packages = PROGRAM_CHECKS.filter((c) => missing.has(c.name)).map((c) => c.debianPackage);
    this.logger.warn(
      `Missing program${programs.length === 1 ? '' : 's'} ${listed(programs)}: ${listed(tools)} refuse jobs (503 tool_unavailable) until installed (sudo apt-get install -y ${packages.join(' ')}) or configured (${listed([...missing.values()].flat().map((p) => p.variable))})`,
    );
  }

  missing(): Promise<MissingPrograms> {
    const now = Date.now();
    if (!this.lookup || now - this.lookup.at >= REUSE_MS) this.lookup = { at: now, missing: findMissing(this.config) };
    return this.lookup.missing;
  }

  /** `/readyz` `checks`: `ok` or `missing` per program check. */
  async checks(): Promise<Record<ProgramCheckName, 'ok' | 'missing'>> {
    const missing = await this.missing();
    return Object.fromEntries(PROGRAM_CHECKS.map((c) => [c.name, missing.has(c.name) ? 'missing' : 'ok'])) as Record<ProgramCheckName, 'ok' | 'missing'>;
  }

  /** The tools that cannot run here, by slug. */
  async unavailableSlugs(): Promise<Set<string>> {
    const missing = await this.missing();
    return new Set(TOOL_LIST.filter((t) => t.requires.some((check) => missing.has(check))).map((t) => t.slug));
  }

  /** Why the first of `tools` that cannot run here cannot (naming the program and its remedy); undefined when all can. */
  async refusal(tools: readonly Pick<ToolDefinition, 'slug' | 'requires'>[]): Promise<string | undefined> {
    const missing = await this.missing();
    for (const tool of tools) {
      for (const check of tool.requires) {
        const programs = missing.get(check);
        if (!programs) continue;
        const spec = PROGRAM_CHECKS.find((c) => c.name === check)!;
        const names = listed(programs.map((p) => p.name));
        return `${tool.slug} is unavailable on this server: ${names} ${programs.length === 1 ? 'is' : 'are'} missing (set ${listed(programs.map((p) => p.variable))}, or install it: apt-get install ${spec.debianPackage}). No credits were charged.`;
      }
    }
    return undefined;
  }
}

async function findMissing(config: AppConfig): Promise<MissingPrograms> {
  const missing = new Map<ProgramCheckName, Program[]>();
  await Promise.all(
    PROGRAM_CHECKS.map(async (check) => {
      const programs = check.programs(config);
      const found = await Promise.all(programs.map((p) => which(p.path, { nothrow: true })));
      const absent = programs.filter((_, i) => found[i] === null);
      if (absent.length > 0) missing.set(check.name, absent);
    }),
  );
  return missing;
}
