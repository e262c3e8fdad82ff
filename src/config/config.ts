import { plainToInstance, Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, Min, MinLength, validateSync } from 'class-validator';

const toInt = ({ value }: { value: unknown }) => (value === undefined || value === '' ? undefined : Number(value));
const toList = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.split(',').map((s) => s.trim()).filter(Boolean) : value;

/**
 * Every setting the service reads from the environment, validated once at boot.
 * Nothing else reads process.env. Defaults are documented in .env.example.
 */
export class AppConfig {
  @Transform(toInt) @IsInt() @Min(0) @Max(65535)
  PORT = 3000;

  @IsString()
  HOST = '0.0.0.0';

  @IsString()
  DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/dropline';

  @IsString()
  REDIS_URL = 'redis://127.0.0.1:6379';

  @IsOptional() @IsString()
  PUBLIC_BASE_URL?: string;

  @IsIn(['local', 's3'])
  STORAGE_DRIVER: 'local' | 's3' = 'local';

  @IsString()
  STORAGE_DIR = './data/files';

  /** Secret for signed download URLs; generated per process when unset (URLs then die with the process). */
  @IsOptional() @IsString() @MinLength(16)
  SIGNING_SECRET?: string;

  @IsOptional() @IsString()
  S3_ENDPOINT?: string;
  @IsOptional() @IsString()
  S3_REGION = 'us-east-1';
  @IsOptional() @IsString()
  S3_BUCKET?: string;
  @IsOptional() @IsString()
  S3_ACCESS_KEY_ID?: string;
  @IsOptional() @IsString()
  S3_SECRET_ACCESS_KEY?: string;

  /** Proxy addresses/CIDRs whose X-Forwarded-For is trusted; empty = use the socket address. */
  @Transform(toList) @IsString({ each: true })
  TRUST_PROXY: string[] = [];

  /** Hosts/IPs the SSRF guard lets through although they are private (tests, private deployments). */
  @Transform(toList) @IsString({ each: true })
  ALLOW_PRIVATE_HOSTS: string[] = [];

  /** Run a queue worker inside the API process (single-machine setup). */
  @IsIn(['true', 'false'])
  WORKER_IN_PROCESS: 'true' | 'false' = 'true';

  /**
   * BullMQ media workers: how long a running job's lock lives without renewal, and how often
   * workers look for jobs whose lock expired (their worker died) to run them again. A killed
   * worker's job is retried within about the sum of the two. BullMQ's defaults; tests shorten them.
   */
  @Transform(toInt) @IsInt() @Min(1000)
  WORKER_LOCK_DURATION_MS = 30_000;

  /** BullMQ key prefix; default `bull:<database name>`, so deployments sharing a Redis stay apart. */
  @IsOptional() @IsString()
  QUEUE_PREFIX?: string;
  @Transform(toInt) @IsInt() @Min(500)
  WORKER_STALLED_INTERVAL_MS = 30_000;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL = 'info';

  /** Requests/s per client IP on the public intake. */
  @Transform(toInt) @IsInt() @Min(1)
  PUBLIC_RATE_LIMIT = 10;

  /** Seconds between webhook attempts (PRODUCT.md §9): 5 s, 5 min, 30 min, 2 h, 5 h, 10 h. */
  @Transform(({ value }) => (typeof value === 'string' ? value.split(',').map(Number) : value))
  @IsInt({ each: true }) @Min(0, { each: true })
  WEBHOOK_RETRY_DELAYS: number[] = [5, 300, 1800, 7200, 18000, 36000];

  @IsOptional() @IsString()
  FFMPEG_PATH?: string;
  @IsOptional() @IsString()
  FFPROBE_PATH?: string;
}

export function loadConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const config = plainToInstance(AppConfig, present, { excludeExtraneousValues: false });
  const errors = validateSync(config, { skipMissingProperties: false });
  if (errors.length > 0) {
    const lines = errors.map((e) => `${e.property}: ${Object.values(e.constraints ?? {}).join(', ')}`);
    throw new Error(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  return config;
}

export function publicBaseUrl(config: AppConfig): string {
  return (config.PUBLIC_BASE_URL ?? `http://127.0.0.1:${config.PORT}`).replace(/\/+$/, '');
}
