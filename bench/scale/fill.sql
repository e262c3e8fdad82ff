-- Fills a migrated Dropline database with :n jobs and proportional rows (bench/scale/scale.ts):
-- 0.4 n webhook deliveries, 0.2 n idempotency records (99.4 % expired), 0.2 n submissions over
-- 0.01 n drops (one drop holds a tenth of them), 0.1 n debits of one key this month. At n = 5 M:
-- 5 M jobs, 2 M deliveries, 1 M idempotency records, 1 M submissions over 50 k drops.
-- Key `key_1` (account `acc_1`) owns a tenth of the jobs, none failed or canceled (a rare state: the worst case of a state filter). Jobs span 100 days, so the purges have
-- a backlog (rows past 90 days, outputs due for 10 days) as after a retention change.
-- psql variables: n (jobs), prefix (the deployment's queue prefix).
SET synchronous_commit = off;
SET maintenance_work_mem = '512MB';
SET work_mem = '64MB';

CREATE TEMP TABLE scale AS SELECT :n::bigint AS n, greatest(100, :n / 1000)::int AS accounts, greatest(10, :n / 100)::int AS drops;

INSERT INTO accounts (id, plan, credit_balance, webhook_secret)
SELECT 'acc_' || g, (ARRAY['free', 'pro', 'max'])[1 + g % 3], 1000000000, 'whsec_bench' FROM scale, generate_series(1, accounts) g;
INSERT INTO api_keys (id, account_id, token_hash, token_prefix, scopes)
SELECT 'key_' || g, 'acc_' || g, decode(md5('key' || g), 'hex'), 'dl_' || g, '{}' FROM scale, generate_series(1, accounts) g;

-- g = n is the newest job; the last 200 are in flight; a tenth of them (every 10th) are key_1's.
INSERT INTO jobs (id, account_id, api_key_id, tool, queue, queue_prefix, state, progress, input, options, cost, result, output_key, refunded,
                  enqueued_at, created_at, started_at, finished_at, output_expires_at, output_expired_at)
SELECT 'job_' || lpad(g::text, 10, '0'), 'acc_' || k, 'key_' || k, tool, queue, :'prefix', state,
       CASE WHEN state = 'completed' THEN 100 ELSE 0 END,
       jsonb_build_object('url', 'https://example.com/in/' || g || '.jpg'), '{"width": 720}', 1,
       CASE WHEN state = 'completed' THEN jsonb_build_object('outputFormat', 'jpeg', 'outputSize', 12345, 'outputFileName', 'out.jpg', 'width', 720, 'height', 540) END,
       CASE WHEN state = 'completed' THEN 'obj_out_' || g END, false,
       created, created, CASE WHEN state <> 'queued' THEN created + interval '1 s' END,
       CASE WHEN state IN ('completed', 'failed', 'canceled') THEN created + interval '5 s' END,
       CASE WHEN state = 'completed' THEN created + interval '5 s' + CASE k % 3 WHEN 1 THEN interval '7 days' WHEN 2 THEN interval '30 days' ELSE interval '1 day' END END,
       CASE WHEN state = 'completed' AND created + interval '5 s' + CASE k % 3 WHEN 1 THEN interval '7 days' WHEN 2 THEN interval '30 days' ELSE interval '1 day' END < now() - interval '10 days'
            THEN created + interval '5 s' + CASE k % 3 WHEN 1 THEN interval '7 days' WHEN 2 THEN interval '30 days' ELSE interval '1 day' END END
FROM (
  SELECT g,
         CASE WHEN g % 10 = 0 THEN 1 ELSE 2 + (g % (accounts - 1)) END AS k,
         (ARRAY['image-resize', 'image-convert', 'video-convert', 'audio-compress'])[1 + (g / 7) % 4] AS tool,
         (ARRAY['image-standard-queue', 'image-standard-queue', 'video-standard-queue', 'audio-standard-queue'])[1 + (g / 7) % 4] AS queue,
         CASE WHEN g > n - 100 THEN 'queued' WHEN g > n - 200 THEN 'running' WHEN g % 50 = 3 THEN 'failed' WHEN g % 50 = 7 THEN 'canceled' ELSE 'completed' END AS state,
         now() - ((n - g)::float8 / n) * interval '100 days' AS created
  FROM scale, generate_series(1, n) g
) s;

INSERT INTO webhook_deliveries (id, account_id, event_type, url, message_id, body, status, attempts, next_attempt_at, created_at)
SELECT 'whd_' || lpad(g::text, 10, '0'), 'acc_' || (CASE WHEN g % 10 = 0 THEN 1 ELSE 2 + g % (accounts - 1) END), 'job.completed', 'https://example.com/hook',
       'msg_' || g, '{"type":"job.completed"}', CASE WHEN g > n * 4 / 10 - 500 THEN 'pending' WHEN g % 100 = 0 THEN 'failed' ELSE 'succeeded' END,
       '[{"status":200}]', CASE WHEN g > n * 4 / 10 - 500 THEN now() + interval '1 min' END, now() - ((n * 4 / 10 - g)::float8 / (n * 4 / 10)) * interval '60 days'
FROM scale, generate_series(1, n * 4 / 10) g;

INSERT INTO idempotency_records (api_key_id, key, request_hash, status_code, response, created_at, expires_at)
SELECT 'key_' || (1 + g % accounts), 'idem-' || g, md5(g::text), 202, jsonb_build_object('id', 'job_' || lpad((g * 5 % n + 1)::text, 10, '0'), 'state', 'queued'),
       ts, ts + interval '24 hours'
FROM (SELECT g, accounts, n, now() - ((n / 5 - g)::float8 / (n / 5)) * interval '161 days' AS ts FROM scale, generate_series(1, n / 5) g) s;

INSERT INTO drops (id, account_id, slug, name, max_file_size_mb, created_at)
SELECT 'drp_' || g, 'acc_' || (1 + g % accounts), 'drop-' || g, 'Drop ' || g, 25, now() - interval '200 days' + g * interval '1 s' FROM scale, generate_series(1, drops) g;

-- drp_1 holds a tenth of the submissions; 1 % starred, 5 % archived.
INSERT INTO submissions (id, drop_id, sender_name, file_name, file_size, file_mime, file_kind, storage_key, status, is_read, is_starred, is_archived, created_at)
SELECT 'sub_' || lpad(g::text, 10, '0'), CASE WHEN g % 10 = 0 THEN 'drp_1' ELSE 'drp_' || (2 + g % (drops - 1)) END, 'Ada', 'report.pdf', 1000, 'application/pdf', 'document',
       'obj_sub_' || g, 'ready', g % 3 = 0, g % 100 = 0, g % 20 = 0, now() - ((n / 5 - g)::float8 / (n / 5)) * interval '300 days'
FROM scale, generate_series(1, n / 5) g;
UPDATE drops SET submission_count = c, total_bytes = c * 1000 FROM (SELECT drop_id, count(*) AS c FROM submissions GROUP BY drop_id) s WHERE s.drop_id = drops.id;

-- key_1 spends every few seconds this month: a tenth of n debits over the month so far.
INSERT INTO credit_ledger (account_id, api_key_id, job_id, delta, reason, created_at)
SELECT 'acc_1', 'key_1', 'job_' || lpad((g * 10)::text, 10, '0'), -1, 'job_debit',
       date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' + (g::float8 / (n / 10)) * (now() - (date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'))
FROM scale, generate_series(1, n / 10) g;
INSERT INTO spend_counters (api_key_id, day, spent)
SELECT api_key_id, (created_at AT TIME ZONE 'UTC')::date, -SUM(delta) FROM credit_ledger WHERE reason = 'job_debit' GROUP BY 1, 2;

INSERT INTO uploads (id, account_id, storage_key, file_name, file_size, file_mime, file_kind, created_at, expires_at)
SELECT 'upl_' || g, 'acc_' || (1 + g % accounts), 'obj_upl_' || g, 'in.png', 1000, 'image/png', 'image', ts, ts + interval '24 hours'
FROM (SELECT g, accounts, now() - (g::float8 / greatest(1000, n / 100)) * interval '3 days' AS ts FROM scale, generate_series(1, greatest(1000, n / 100)) g) s;
