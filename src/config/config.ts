import { plainToInstance, Transform } from 'class-transformer';
import ms, { type StringValue } from 'ms';
import { availableParallelism } from 'node:os';
import { IsIn, IsInt, IsNotIn, IsOptional, IsString, Max, Min, MinLength, validateSync } from 'class-validator';

/** Secrets published in docker-compose.yml and .env.example: anyone can forge URLs signed with them. */
const EXAMPLE_SECRETS = ['change-me-to-a-long-random-string'];

const toInt = ({ value }: { value: unknown }) => (value === undefined || value === '' ? undefined : Number(value));
/** A duration like `30s`, `24h`, `7d` (the `ms` package's format) in milliseconds; NaN when it is not one. */
const toDurationMs = ({ value }: { value: unknown }) => {
  if (value === undefined || value === '' || typeof value === 'number') return value === '' ? undefined : value;
  const parsed = typeof value === 'string' && /^\s*\d/.test(value) ? ms(value as StringValue) : undefined;
  return typeof parsed === 'number' && Number.isFinite(parsed) ? parsed : Number.NaN;
};
const toList = ({ value }: { value: unknown }) =>
  typeof value === 'string'
    ? value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : value;

/**
 * Every setting the service reads from the environment, validated once at boot.
 * Nothing else reads process.env. Defaults are documented in .env.example.
 */
export class AppConfig {
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 3000;

  @IsString()
  HOST = '0.0.0.0';

  /** API processes sharing PORT (node:cluster); 1 = this process serves alone. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(64)
  WEB_CONCURRENCY = 1;

  @IsString()
  DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/dropline';

  @IsString()
  REDIS_URL = 'redis://127.0.0.1:6379';

  @IsOptional()
  @IsString()
  PUBLIC_BASE_URL?: string;

  @IsIn(['local', 's3'])
  STORAGE_DRIVER: 'local' | 's3' = 'local';

  @IsString()
  STORAGE_DIR = './data/files';

  /**
   * Secret for signed download URLs: at least 32 bytes, never the example of docker-compose.yml.
   * Unset: generated once and kept in the database, shared by every process.
   */
  @IsOptional()
  @IsString()
  @MinLength(32, { message: 'SIGNING_SECRET must be at least 32 characters long' })
  @IsNotIn(EXAMPLE_SECRETS, { message: 'SIGNING_SECRET is the example value of docker-compose.yml/.env.example: set a random one' })
  SIGNING_SECRET?: string;

  /** When set, GET /metrics requires `Authorization: Bearer <METRICS_TOKEN>`. */
  @IsOptional()
  @IsString()
  @MinLength(16)
  METRICS_TOKEN?: string;

  /** `start:worker` only: serve this process's /metrics (job and webhook counters) on this port; unset = none. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(65535)
  WORKER_METRICS_PORT?: number;

  @IsOptional()
  @IsString()
  S3_ENDPOINT?: string;
  @IsOptional()
  @IsString()
  S3_REGION = 'us-east-1';
  @IsOptional()
  @IsString()
  S3_BUCKET?: string;
  @IsOptional()
  @IsString()
  S3_ACCESS_KEY_ID?: string;
  @IsOptional()
  @IsString()
  S3_SECRET_ACCESS_KEY?: string;

  /** Proxy addresses/CIDRs whose X-Forwarded-For is trusted; empty = use the socket address. */
  @Transform(toList)
  @IsString({ each: true })
  TRUST_PROXY: string[] = [];

  /** Hosts/IPs the SSRF guard lets through although they are private (tests, private deployments). */
  @Transform(toList)
  @IsString({ each: true })
  ALLOW_PRIVATE_HOSTS: string[] = [];

  /** Run a queue worker inside the API process (single-machine setup). */
  @IsIn(['true', 'false'])
  WORKER_IN_PROCESS: 'true' | 'false' = 'true';

  /**
   * BullMQ media workers: how long a running job's lock lives without renewal, and how often
   * workers look for jobs whose lock expired (their worker died) to run them again. A killed
   * worker's job is retried within about the sum of the two. BullMQ's defaults; tests shorten them.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  WORKER_LOCK_DURATION_MS = 30_000;

  /**
   * Media jobs one worker process runs at once, per queue. Audio follows the CPU count; a video
   * transcode already uses every core, so one. Images: twice the CPU count — an image job waits
   * about as long as it resizes (its input's download, the output's fsync, two state writes: 61 ms
   * in the worker around a 32 ms resize in the bench), and with one job per core the cores idled
   * meanwhile (the image row of bench/RESULTS.md compares the two).
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  IMAGE_WORKER_CONCURRENCY = 2 * availableParallelism();
  @Transform(toInt)
  @IsInt()
  @Min(1)
  AUDIO_WORKER_CONCURRENCY = availableParallelism();
  @Transform(toInt)
  @IsInt()
  @Min(1)
  VIDEO_WORKER_CONCURRENCY = 1;
  /** Documents: one LibreOffice (or pdftoppm) per job, about one core each. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  DOCUMENT_WORKER_CONCURRENCY = availableParallelism();

  /** BullMQ key prefix; default `bull:<database name>`, so deployments sharing a Redis stay apart. */
  @IsOptional()
  @IsString()
  QUEUE_PREFIX?: string;
  @Transform(toInt)
  @IsInt()
  @Min(500)
  WORKER_STALLED_INTERVAL_MS = 30_000;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL = 'info';

  /** `json`: one JSON object per line (level, time, msg, then fields); `pretty`: for humans. */
  @IsIn(['json', 'pretty'])
  LOG_FORMAT = 'json';

  /** Append the log lines to this file instead of stdout (the tests collect every process's lines this way). */
  @IsOptional()
  @IsString()
  LOG_FILE?: string;

  /** Requests/s per client IP on the public intake. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  PUBLIC_RATE_LIMIT = 10;

  /**
   * Seconds a request may go without receiving a byte (a stalled upload) before its connection is
   * cut and the partial file removed. Also bounds how long a client may take to send its headers.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  UPLOAD_IDLE_TIMEOUT_S = 30;

  /** Public uploads one client IP may have in progress at once (per API process); more get 429. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  PUBLIC_UPLOADS_PER_IP = 4;

  /**
   * Failed authentications (401) one client IP may have per AUTH_FAILURE_WINDOW_S, counted in Redis
   * across every API process; past them its authenticated requests get 429 until the window ends.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  AUTH_FAILURES_PER_IP = 20;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  AUTH_FAILURE_WINDOW_S = 60;

  /**
   * On SIGTERM/SIGINT the process exits within this many seconds whatever its state: requests in
   * flight get all but the last 2 s to finish, running media jobs are left to BullMQ's stall retry.
   */
  @Transform(toInt)
  @IsInt()
  @Min(3)
  SHUTDOWN_TIMEOUT_S = 10;

  /** Seconds between webhook attempts (docs/decisions.md §9): 5 s, 5 min, 30 min, 2 h, 5 h, 10 h. */
  @Transform(({ value }) => (typeof value === 'string' ? value.split(',').map(Number) : value))
  @IsInt({ each: true })
  @Min(0, { each: true })
  WEBHOOK_RETRY_DELAYS: number[] = [5, 300, 1800, 7200, 18000, 36000];

  /** Seconds a webhook receiver has to answer one attempt. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  WEBHOOK_TIMEOUT_S = 10;

  /**
   * Deliveries of one account sent at once, across every worker process (a Redis semaphore): a
   * tenant whose receiver hangs holds at most this many of a worker's 20 sending slots.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  WEBHOOK_ACCOUNT_CONCURRENCY = 5;

  /** Attempts in a row to one endpoint (an account's receiver origin) that time out before its circuit breaker opens. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  WEBHOOK_BREAKER_THRESHOLD = 5;

  /** Seconds an open circuit breaker sends nothing before it lets one probe through. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  WEBHOOK_BREAKER_COOLDOWN_S = 60;

  /** Seconds an incomplete tus upload may wait for its next bytes before the sweeper removes it. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  TUS_EXPIRY_SECONDS = 24 * 3600;

  /** Seconds between two sweeps of expired tus uploads (in every API process). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  TUS_SWEEP_INTERVAL_SECONDS = 600;

  /** clamd's unix socket (e.g. /run/clamav/clamd.ctl): set, every submission and job input is scanned for malware. */
  @IsOptional()
  @IsString()
  CLAMD_SOCKET?: string;

  /** clamd over TCP (loopback or a private scanner host), when there is no CLAMD_SOCKET. */
  @IsOptional()
  @IsString()
  CLAMD_HOST?: string;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(65535)
  CLAMD_PORT = 3310;

  /** Seconds one scan may take before it counts as the scanner being down (retried). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  CLAMD_TIMEOUT_S = 60;

  /** `strict`: a file not scanned yet cannot be downloaded (409 scan_pending); `advisory`: it can. Infected files never can. */
  @IsIn(['strict', 'advisory'])
  SCAN_MODE: 'strict' | 'advisory' = 'strict';

  /** Seconds between retries of files whose scan could not run (the scanner was down). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  SCAN_RETRY_SECONDS = 15;

  /**
   * Retention (docs/retention.md), durations like `30s`, `24h`, `7d`. OUTPUT_RETENTION, when set,
   * replaces every plan's output retention (free 24 h, pro 7 d, max 30 d); job rows and settled
   * webhook deliveries are deleted after JOB_RETENTION / DELIVERY_RETENTION; PURGE_INTERVAL is how
   * often one process of the deployment runs the purges.
   */
  @IsOptional()
  @Transform(toDurationMs)
  @IsInt({ message: 'OUTPUT_RETENTION must be a duration such as 30s, 24h or 7d' })
  @Min(1000)
  OUTPUT_RETENTION?: number;

  @Transform(toDurationMs)
  @IsInt({ message: 'JOB_RETENTION must be a duration such as 30s, 24h or 90d' })
  @Min(1000)
  JOB_RETENTION = ms('90d');

  @Transform(toDurationMs)
  @IsInt({ message: 'DELIVERY_RETENTION must be a duration such as 30s, 24h or 30d' })
  @Min(1000)
  DELIVERY_RETENTION = ms('30d');

  @Transform(toDurationMs)
  @IsInt({ message: 'PURGE_INTERVAL must be a duration such as 1s, 5m or 1h' })
  @Min(100)
  PURGE_INTERVAL = ms('5m');

  @IsOptional()
  @IsString()
  FFMPEG_PATH?: string;
  @IsOptional()
  @IsString()
  FFPROBE_PATH?: string;
  /** LibreOffice's `soffice` (document-convert); default from PATH. */
  @IsOptional()
  @IsString()
  SOFFICE_PATH?: string;
  /** poppler-utils' `pdftoppm` and `pdfinfo` (pdf-render, the PDF page count); default from PATH. */
  @IsOptional()
  @IsString()
  PDFTOPPM_PATH?: string;
  @IsOptional()
  @IsString()
  PDFINFO_PATH?: string;
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
