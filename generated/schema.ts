// GENERATED from openapi.yaml by `npm run generate`. Do not edit.
export type paths = {
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness probe
         * @description Answers 200 while the process is running. No authentication.
         */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness probe
         * @description Answers 200 when Postgres and Redis both answer, 503 otherwise. No authentication.
         *     `checks` also says which programs the tools run are present (`ffmpeg`, `libreoffice`,
         *     `poppler`): a missing one does not change `status` (the other tools serve), it makes its
         *     tools `available: false` in `GET /v1/tools` and their jobs 503 `tool_unavailable`.
         */
        get: operations["getReadiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/account": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the calling key's account
         * @description Any valid key may read its own account: plan, credit balance and the plan's limits.
         *     `webhookSecret` (the key webhooks are signed with) is present only for a key with the
         *     `webhooks:read` scope. Scope — none.
         */
        get: operations["getAccount"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/account/webhook-secret/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Replace the webhook signing secret
         * @description Generates a new webhook secret and answers the account with it. For 24 hours
         *     afterwards every delivery carries two signatures in `webhook-signature` (new secret,
         *     then old), so receivers can switch at their pace; a second rotation within those 24
         *     hours retires the oldest secret. Scope `webhooks:write`.
         */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/account/ledger": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List credit movements
         * @description Every change of the credit balance, newest first, cursor-paginated: `job_debit`
         *     (negative, when a job is accepted), `job_refund` (positive, when a job fails, is
         *     canceled or could not be queued) and `grant` (positive, credits added by an
         *     administrator). Scope — none.
         */
        get: operations["listLedgerEntries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/drops": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the account's drops
         * @description Newest first, cursor-paginated. Scope `drops:read`.
         */
        get: operations["listDrops"];
        put?: never;
        /**
         * Create a drop
         * @description Scope `drops:write`. Only `name` is required. A slug is generated (10 lowercase
         *     alphanumerics) when omitted; a given slug must be free across all accounts (409
         *     `slug_taken`). `maxFileSizeMB` defaults to the plan's upload limit and may not exceed
         *     it. `emoji` and `accentColor` theme the drop's page; `isActive` is set through PATCH only.
         *
         *     **Processing.** `autoConvertTo`/`autoCompress` convert an arriving file (one step), or
         *     `processWith` names a template (`tpl_…`, `/v1/templates`) whose steps every arriving file
         *     runs through — not both (400 `validation_failed` naming `body/processWith`). A template's
         *     run is a pipeline job charged to the drop's owner and admitted as an auto-conversion is:
         *     past the owner's in-flight limit it waits for a slot, without the credits the file is kept
         *     as sent (`status: ready`, `processingError` `insufficient_credits`). It runs the steps the
         *     template has when the file arrives. Deleting the template sets the drop's `processWith`
         *     to null: later files are kept as sent. See `Submission.outputs`. Setting `processWith` needs,
         *     besides `drops:write`, the scope of each of the template's tools (as running it as a job
         *     would): without one, 403 `insufficient_scope` naming the first step that needs it.
         */
        post: operations["createDrop"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/drops/{slug}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The drop's slug.
                 * @example launch-assets
                 */
                slug: components["parameters"]["Slug"];
            };
            cookie?: never;
        };
        /**
         * Get a drop
         * @description Scope `drops:read`. A drop of another account is 404 `not_found`.
         */
        get: operations["getDrop"];
        put?: never;
        post?: never;
        /**
         * Delete a drop and all its submissions
         * @description Scope `drops:write`. Permanent; the stored files are deleted too.
         */
        delete: operations["deleteDrop"];
        options?: never;
        head?: never;
        /**
         * Update a drop
         * @description Scope `drops:write`. Send only the fields to change. `isActive: false` pauses the drop
         *     (intake answers 403 `drop_paused`), `true` resumes it. `expiresAt: null` removes the
         *     expiry; a new `expiresAt` must be in the future. Nullable fields are cleared with `null`.
         *     `processWith` follows the rules of `POST /v1/drops` for the drop as the change leaves it
         *     (setting it on a drop with `autoConvertTo` needs `autoConvertTo: null` in the same body).
         */
        patch: operations["updateDrop"];
        trace?: never;
    };
    "/v1/drops/{slug}/events": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The drop's slug.
                 * @example launch-assets
                 */
                slug: components["parameters"]["Slug"];
            };
            cookie?: never;
        };
        /**
         * A drop's audit log
         * @description Who touched the drop: newest first (`at`, then `id`), at most 100 per page, cursor-paginated.
         *     Scope `drops:read`. Each event names its actor: `public` (a sender, no key) or `key` (the API
         *     key that acted, `keyId`), with the client address and `User-Agent` of the request.
         *     Types: `drop.created`, `drop.updated` (`detail.fields`: the properties changed),
         *     `submission.created`, `submission.refused` (`detail.code`: `file_too_large`,
         *     `kind_not_allowed`, `drop_full`, `drop_paused`, `drop_expired` or `wrong_password`),
         *     `submission.downloaded` (a signed URL issued; `detail.file`: `original`, `processed` or
         *     `output`, `detail.output` the output's name) and `submission.deleted`.
         *     An event is written in the transaction of the change it records (a refusal, which changes
         *     nothing, right after it), so none is lost or invented. Filters: `type`, `since`, `until`
         *     (inclusive, by `at`). Events are deleted with their drop (docs/retention.md).
         */
        get: operations["listDropEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/drops/{slug}/submissions": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The drop's slug.
                 * @example launch-assets
                 */
                slug: components["parameters"]["Slug"];
            };
            cookie?: never;
        };
        /**
         * List a drop's submissions
         * @description Newest first, at most 100 per page, cursor-paginated, filterable by the three flags. Scope `drops:read`.
         */
        get: operations["listSubmissions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/drops/{slug}/submissions/archive": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The drop's slug.
                 * @example launch-assets
                 */
                slug: components["parameters"]["Slug"];
            };
            cookie?: never;
        };
        /**
         * Download a drop's submissions as one ZIP
         * @description Scope `drops:read`. A ZIP streamed as it is built (no `Content-Length`), with the same
         *     filters as the list (`isRead`, `isStarred`, `isArchived`), oldest first. Entries are
         *     stored, not re-compressed (media is compressed already); the archive switches to ZIP64
         *     past 4 GiB. Names are the submissions' file names, de-duplicated as `name (2).ext`.
         *     With `processed=true` a submission's converted file is taken where one exists, the
         *     original otherwise. A submission's `outputs` (the drop's template, `processWith`) follow
         *     its file, each under a folder of its output's name: `<name>/<fileName>` (`thumb/photo-thumb.webp`),
         *     de-duplicated in that folder. A drop without submissions gives an empty ZIP.
         */
        get: operations["downloadSubmissionsArchive"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/drops/{slug}/submissions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The drop's slug.
                 * @example launch-assets
                 */
                slug: components["parameters"]["Slug"];
                /** @example sub_0000000000000000 */
                id: components["parameters"]["SubmissionId"];
            };
            cookie?: never;
        };
        /**
         * Get a submission
         * @description Scope `drops:read`.
         */
        get: operations["getSubmission"];
        put?: never;
        post?: never;
        /**
         * Delete a submission
         * @description Scope `drops:write`. The stored files are deleted too.
         */
        delete: operations["deleteSubmission"];
        options?: never;
        head?: never;
        /**
         * Flag a submission read, starred or archived
         * @description Scope `drops:write`. Only `isRead`, `isStarred` and `isArchived`; any other field is 400.
         */
        patch: operations["updateSubmission"];
        trace?: never;
    };
    "/v1/drops/{slug}/submissions/{id}/download": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The drop's slug.
                 * @example launch-assets
                 */
                slug: components["parameters"]["Slug"];
                /** @example sub_0000000000000000 */
                id: components["parameters"]["SubmissionId"];
            };
            cookie?: never;
        };
        /**
         * Get a signed download URL
         * @description Scope `drops:read`. The URL is valid for one hour. With `processed=true` the converted
         *     file is returned; 409 `processed_unavailable` when there is none (no `autoConvertTo`,
         *     processing not finished, or failed). With `output=<name>` the file of that name in the
         *     submission's `outputs` (a drop's template, `processWith`); a name the submission has no
         *     output of (yet) is 404 `not_found`, and `output` with `processed=true` is 400
         *     `validation_failed`.
         *     With malware scanning on (`CLAMD_SOCKET`/`CLAMD_HOST`), a file the scan found infected
         *     is 403 `quarantined`; one not scanned yet is 409 `scan_pending` with a `Retry-After`
         *     header (unless the server runs with `SCAN_MODE=advisory`).
         */
        get: operations["getSubmissionDownload"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/public/drops/{slug}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The drop's slug.
                 * @example launch-assets
                 */
                slug: components["parameters"]["Slug"];
            };
            cookie?: never;
        };
        /**
         * The public view of a drop
         * @description No authentication. What a sender needs to know before sending a file. A drop with a password needs it in `Drop-Password` (401 without it, showing only the drop's name).
         */
        get: operations["getPublicDrop"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/public/drops/{slug}/submissions": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The drop's slug.
                 * @example launch-assets
                 */
                slug: components["parameters"]["Slug"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a file to a drop
         * @description No authentication; rate-limited per client IP. Multipart with one `file` part; the text
         *     fields may come before or after it (`curl -F file=@x -F senderName=Ada` keeps Ada).
         *     Checks, in order: the drop exists (404), is active (403 `drop_paused`), is not expired
         *     (410 `drop_expired`), the sender fields sent before the file are well-formed (400
         *     `validation_failed`), the file fits `maxFileSizeMB` (413 `file_too_large`, cut off while
         *     streaming, nothing kept), its kind — sniffed from the bytes, not the client's MIME type —
         *     is allowed (415 `kind_not_allowed`), as is its extension when the drop lists
         *     `allowedExtensions` (the sniffed content must agree), and then the whole form's sender
         *     fields are well-formed and the required ones present (400 `validation_failed`; the stored
         *     file is removed, no submission is created).
         *     A drop with a password needs it in `Drop-Password` (401 `password_required`, 403
         *     `wrong_password`, 429 after 10 wrong tries a minute). A drop at its `maxSubmissions`, or
         *     a file that would take it past `maxTotalMB`, is 409 `drop_full` (judged while streaming
         *     and again, atomically, when the submission is recorded). Past `expiresAt` but before
         *     `acceptLateUntil` the file is accepted and marked `isLate`.
         *     One client address may have at most `PUBLIC_UPLOADS_PER_IP` (default 4) uploads in
         *     progress at once: 429 `too_many_uploads` past that. An upload that sends no byte for
         *     `UPLOAD_IDLE_TIMEOUT_S` (default 30 s) is cut off; nothing of it is kept.
         */
        post: operations["createPublicSubmission"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/public/drops/{slug}/tus": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The drop's slug.
                 * @example launch-assets
                 */
                slug: components["parameters"]["Slug"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a resumable (tus) upload to a drop
         * @description tus 1.0 creation (and creation-with-upload). No authentication; rate-limited per client IP.
         *     `Upload-Metadata` carries `filename` (required), `filetype`, `senderName`, `senderEmail`
         *     and `message`, base64-encoded as tus requires. The single POST's rules apply here, before
         *     anything is stored: the drop exists (404), is active (403 `drop_paused`), is not expired
         *     (410 `drop_expired`), the sender fields are valid and present where the drop requires
         *     them (400 `validation_failed`), and `Upload-Length` fits `maxFileSizeMB` (413
         *     `file_too_large`), and — with `maxTotalMB` — the drop's room (409 `drop_full`, checked
         *     again when the last byte is stored). A password-protected drop needs `Drop-Password`
         *     (401/403/429 as for the single POST); the upload URL then carries on without it.
         *     `allowedExtensions` is checked on the file name here and on the sniffed bytes later. A deferred length (`Upload-Defer-Length`) is refused (400). The
         *     kind is sniffed from the first bytes received (see the PATCH). The `Location` is
         *     `/v1/public/drops/{slug}/tus/{id}` (absolute). An upload left incomplete expires after
         *     `Upload-Expires` (24 h by default) and its bytes are removed.
         *     `Upload-Metadata` keys the server keeps for itself (`owner`, `accountId`, `dropId`) are
         *     refused (400 `validation_failed`): the upload's owner is recorded by the endpoint that
         *     creates it, from the URL's drop or the key's account, and only that endpoint with that
         *     drop or account can see, continue or cancel it (any other is 404 `not_found`).
         *     `Upload-Concat` (tus concatenation, not offered) is 400 `tus_extension_unsupported`.
         */
        post: operations["createDropTusUpload"];
        delete?: never;
        /**
         * tus discovery for a drop
         * @description The tus version and extensions this endpoint speaks (tus 1.0 core). No authentication.
         */
        options: operations["getDropTusOptions"];
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/public/drops/{slug}/tus/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The drop's slug.
                 * @example launch-assets
                 */
                slug: components["parameters"]["Slug"];
                /**
                 * @description The upload id (the last segment of the creation's `Location`).
                 * @example obj_0000000000000000
                 */
                id: components["parameters"]["TusUploadId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Cancel a tus upload
         * @description tus termination. The stored bytes are removed. A finished upload cannot be cancelled (it is a submission now); an unknown one, or one of another drop or of `/v1/uploads/tus`, is 404. Not counted against the per-address request limit when it ends an upload created through this drop's URL and still open; any other id is counted (429 `rate_limited`).
         */
        delete: operations["deleteDropTusUpload"];
        options?: never;
        /**
         * How much of a tus upload the server has
         * @description tus core. `Upload-Offset` is where to resume. An upload of another drop or of `/v1/uploads/tus`, a finished (already delivered), removed or expired upload is 404. Not counted against the per-address request limit when it continues an upload created through this drop's URL and still open (any other id is counted); it holds one of the address's `PUBLIC_UPLOADS_PER_IP` upload slots while it runs.
         */
        head: operations["getDropTusUploadOffset"];
        /**
         * Send the next bytes of a tus upload
         * @description tus core. The body (`Content-Type: application/offset+octet-stream`) is appended at
         *     `Upload-Offset`, which must equal the server's offset (409 `offset_mismatch` otherwise).
         *     One request at a time writes an upload, whichever API process serves it: a PATCH or HEAD
         *     that finds the upload held asks the holder to stop (a stalled PATCH ends) and waits for it
         *     (423 `upload_locked` if it does not let go). Counted among the address's
         *     `PUBLIC_UPLOADS_PER_IP` uploads in progress (429 `too_many_uploads`), as the single POST.
         *     Not counted against the per-address request limit when it continues an upload created
         *     through this drop's URL and still open: a chunked upload sends many PATCHes a second, and
         *     its creation was counted. Any other id (unknown, finished, another drop's) is counted
         *     (429 `rate_limited`).
         *     The drop must still be active and unexpired (403 / 410). On the first bytes the kind is
         *     sniffed from the content (not the client's type): a kind the drop does not accept is 415
         *     `kind_not_allowed` and the upload is removed. More bytes than `Upload-Length` is 413.
         *     The PATCH that brings the last byte checks the drop's rules again as they are now (active,
         *     unexpired, `maxFileSizeMB`, `allowedKinds`, required sender fields: a refusal removes the
         *     upload) and creates the submission — exactly once, with the drop's counters, webhook and
         *     auto-conversion as for the single POST, its file name given the extension of the sniffed
         *     type on a single-kind drop as by the single POST — and its 204 carries
         *     `Dropline-Submission-Id`. Bytes of an incomplete upload never count toward the drop. An
         *     upload created through another drop or through `/v1/uploads/tus` is 404 `not_found`.
         */
        patch: operations["appendDropTusUpload"];
        trace?: never;
    };
    "/d/{slug}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The drop's slug.
                 * @example launch-assets
                 */
                slug: components["parameters"]["Slug"];
            };
            cookie?: never;
        };
        /**
         * The upload page for senders
         * @description An HTML page with drag and drop, the drop's rules and a progress bar. No authentication.
         */
        get: operations["getDropPage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/files/{key}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Opaque storage key, as issued in a signed URL.
                 * @example obj_0000000000000000000000
                 */
                key: string;
            };
            cookie?: never;
        };
        /**
         * Fetch a file through a signed URL
         * @description Served by the local storage driver. The URL is HMAC-SHA256-signed over the key, the
         *     file name, the expiry and the type; a tampered or expired URL is 403 `invalid_signature` /
         *     `url_expired`. Supports `Range` (with `If-Range`) and conditional requests (`If-None-Match`,
         *     `If-Modified-Since` → 304), and HEAD. No bearer token: the signature is the credential.
         *     Always `Content-Disposition: attachment` and `X-Content-Type-Options: nosniff`; the
         *     Content-Type is the file's type sniffed from its bytes at upload (`type`), or
         *     `application/octet-stream` when it is unknown or one a browser would render as a page.
         */
        get: operations["downloadFile"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /**
         * The headers of a file behind a signed URL
         * @description `GET` without the body, for the same signed URL: the size (`Content-Length`), type, file name,
         *     `ETag` and `Last-Modified` of a file before downloading it, or whether a link still works.
         *     Checked and answered as `GET` is (conditional requests included); an error has its status
         *     only, a HEAD answer carries no body. No bearer token: the signature is the credential.
         */
        head: operations["headFile"];
        patch?: never;
        trace?: never;
    };
    "/v1/uploads": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Upload a file to use as job input
         * @description Scope `uploads:write`. Multipart with one `file` part. The file is kept 24 hours and can
         *     be used as `input.fileId` by any key of the same account. Larger than the plan's limit
         *     (free 25 MB, pro 500 MB, max 2 GB): 413 `file_too_large`, cut off while streaming.
         */
        post: operations["createUpload"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/uploads/tus": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a resumable (tus) upload to use as job input
         * @description Scope `uploads:write`. tus 1.0 creation (and creation-with-upload); `Upload-Metadata` may
         *     carry `filename`. `Upload-Length` over the plan's limit (free 25 MB, pro 500 MB, max 2 GB)
         *     is 413 `file_too_large` before anything is stored; a deferred length is refused (400).
         *     The last segment of the `Location` (`/v1/uploads/tus/upl_…`) is the upload's id: once
         *     the last byte is stored it is usable as `input.fileId` and kept 24 hours, like
         *     `POST /v1/uploads`. Incomplete uploads expire (`Upload-Expires`).
         *     `Upload-Metadata` keys the server keeps for itself (`owner`, `accountId`, `dropId`) are
         *     refused (400 `validation_failed`): the upload's owner is recorded by the endpoint that
         *     creates it, from the URL's drop or the key's account, and only that endpoint with that
         *     drop or account can see, continue or cancel it (any other is 404 `not_found`).
         *     `Upload-Concat` (tus concatenation, not offered) is 400 `tus_extension_unsupported`.
         */
        post: operations["createTusUpload"];
        delete?: never;
        /**
         * tus discovery for job uploads
         * @description The tus version and extensions this endpoint speaks (tus 1.0 core).
         */
        options: operations["getUploadTusOptions"];
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/uploads/tus/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The upload id (the last segment of the creation's `Location`).
                 * @example obj_0000000000000000
                 */
                id: components["parameters"]["TusUploadId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Cancel a tus upload
         * @description Scope `uploads:write`. tus termination; the stored bytes are removed. A finished upload cannot be cancelled; another account's or a drop's upload is 404. Not counted against the key's request limit when it ends an open upload this account created here; any other id is counted.
         */
        delete: operations["deleteTusUpload"];
        options?: never;
        /**
         * How much of a tus upload the server has
         * @description Scope `uploads:write`. tus core; another account's, a drop's (created through its tus URL), a finished, removed or expired upload is 404. Not counted against the key's request limit (and without `RateLimit-*` headers) when it continues an open upload this account created here; any other id is counted.
         */
        head: operations["getTusUploadOffset"];
        /**
         * Send the next bytes of a tus upload
         * @description Scope `uploads:write`. tus core: the body is appended at `Upload-Offset` (409
         *     `offset_mismatch` when it is not the server's offset; 413 past `Upload-Length`). The PATCH
         *     that brings the last byte checks the plan's upload limit again (413 `file_too_large`
         *     removes the upload) and creates the upload row, and the id becomes usable as
         *     `input.fileId`. An upload created by another account or through a drop's tus URL is 404.
         *     Not counted against the key's request limit (and answered without `RateLimit-*` headers)
         *     when it continues an open upload this account created here: a chunked upload sends many
         *     PATCHes a second, and its creation was counted. Any other id (unknown, finished, another
         *     account's) is counted (429 `rate_limited`).
         */
        patch: operations["appendTusUpload"];
        trace?: never;
    };
    "/v1/tools": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the media tools
         * @description Each tool's cost, required scope, queue kind, options and output formats. Public, like a catalogue — no API key needed.
         */
        get: operations["listTools"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/jobs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List this key's jobs
         * @description Newest first, cursor-paginated, filterable by `state` and `tool`. Only the calling key's jobs. Scope — none.
         */
        get: operations["listJobs"];
        put?: never;
        /**
         * Submit a job
         * @description Scope by tool: `image:write` (image-resize, image-convert, image-thumbnail), `video:write`
         *     (video-convert, video-thumbnail, video-storyboard), `audio:write` (audio-compress, audio-waveform),
         *     `documents:write` (document-convert, pdf-render), any of these (media-info; `GET /v1/tools` lists
         *     a tool's `scopes`, any one suffices). Checks after authentication, in order:
         *     400 `unknown_tool`, 400 `missing_input`, 400 `validation_failed` (the body against the
         *     tool's own schema, e.g. `ImageResizeJobCreate`; unknown option keys are ignored), 403
         *     `insufficient_scope`, 403 `plan_not_eligible` (a `webhookUrl` on the free plan),
         *     idempotency replay (202 with the original body) or 409 `idempotency_conflict`, 400
         *     `unsupported_input` (an uploaded `input.fileId` of another kind than the tool's, e.g. a
         *     WAV sent to image-resize), 413 `file_too_large` (an uploaded `input.fileId` larger than the
         *     plan's upload limit), 402 `insufficient_credits`, 402 `spend_cap_reached`, 429
         *     `concurrency_exceeded`, 503 `tool_unavailable` (a program the tool runs is missing on this
         *     server: `GET /v1/tools` shows `available: false`), 500 `enqueue_failed`. The cost is debited
         *     on acceptance and refunded on failure or cancel.
         *
         *     **Pipelines.** Instead of `tool` and `options`, a body may name `steps` (`PipelineJobCreate`:
         *     at most 10 named steps, each a tool with its options, reading the job's input or another
         *     step's output) or a saved `template` (`TemplateJobCreate`, `tpl_…` of the same account, 404
         *     `not_found` otherwise). Giving two of `tool`, `steps`, `template`, an unknown step
         *     reference, a cycle, a step whose tool cannot read the kind of file its input step writes,
         *     or more than 10 steps is 400 `invalid_pipeline` naming the step; the key needs every step's
         *     scope (403 `insufficient_scope` naming the first missing one). The cost is the sum of the
         *     steps', debited once; a pipeline counts as one job in flight. See `Job.steps`.
         *
         *     With `Prefer: wait=N` (1–60) the answer waits until the job has reached a final state or N
         *     seconds have passed: a job that ended in time is answered `200` with `id`, `state` and
         *     `statusUrl` as in the `202`, beside `job`, the body of `GET /v1/jobs/{id}` (its
         *     `result.downloadUrl` included), so `.id` reads the same in both; one still in flight is
         *     answered with the usual `202`; both carry `Preference-Applied: wait=N`. An idempotent replay with `Prefer: wait`
         *     waits on the original job the same way (200 once it has ended), so a create-and-wait
         *     retried after a lost connection gets the result without a second job.
         */
        post: operations["createJob"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/jobs/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example job_0000000000000000 */
                id: components["parameters"]["JobId"];
            };
            cookie?: never;
        };
        /**
         * Poll a job
         * @description Only the key that created the job may read it; for any other key it is 404 `not_found`.
         *     `result.downloadUrl` is signed afresh at each poll and valid for one hour. With `Prefer:
         *     wait=N` (1–60) the answer waits until the job has reached a final state (completed,
         *     failed, canceled) or N seconds have passed, whichever comes first, and carries
         *     `Preference-Applied: wait=N`: a long poll, without polling. Scope — none.
         */
        get: operations["getJob"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/jobs/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example job_0000000000000000 */
                id: components["parameters"]["JobId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a queued job
         * @description A queued job becomes `canceled` and its credits are refunded. A running or finished job is 409 `cannot_cancel`. A pipeline job can also be canceled while running — every step not yet completed becomes `canceled` and its credits come back (one ledger line each; a running step's process is stopped within `WORKER_LOCK_DURATION_MS`/2, 15 s by default, and nothing it made is kept), completed steps keep their outputs. Scope — none.
         */
        post: operations["cancelJob"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/jobs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List this key's jobs
         * @description Newest first, cursor-paginated, filterable by `state` and `tool`. Only the calling key's jobs. Scope — none. Alias of the `/v1` operation.
         */
        get: operations["apiListJobs"];
        put?: never;
        /**
         * Submit a job
         * @description Scope by tool: `image:write` (image-resize, image-convert, image-thumbnail), `video:write`
         *     (video-convert, video-thumbnail, video-storyboard), `audio:write` (audio-compress, audio-waveform),
         *     `documents:write` (document-convert, pdf-render), any of these (media-info; `GET /v1/tools` lists
         *     a tool's `scopes`, any one suffices). Checks after authentication, in order:
         *     400 `unknown_tool`, 400 `missing_input`, 400 `validation_failed` (the body against the
         *     tool's own schema, e.g. `ImageResizeJobCreate`; unknown option keys are ignored), 403
         *     `insufficient_scope`, 403 `plan_not_eligible` (a `webhookUrl` on the free plan),
         *     idempotency replay (202 with the original body) or 409 `idempotency_conflict`, 400
         *     `unsupported_input` (an uploaded `input.fileId` of another kind than the tool's, e.g. a
         *     WAV sent to image-resize), 413 `file_too_large` (an uploaded `input.fileId` larger than the
         *     plan's upload limit), 402 `insufficient_credits`, 402 `spend_cap_reached`, 429
         *     `concurrency_exceeded`, 503 `tool_unavailable` (a program the tool runs is missing on this
         *     server: `GET /v1/tools` shows `available: false`), 500 `enqueue_failed`. The cost is debited
         *     on acceptance and refunded on failure or cancel.
         *
         *     **Pipelines.** Instead of `tool` and `options`, a body may name `steps` (`PipelineJobCreate`:
         *     at most 10 named steps, each a tool with its options, reading the job's input or another
         *     step's output) or a saved `template` (`TemplateJobCreate`, `tpl_…` of the same account, 404
         *     `not_found` otherwise). Giving two of `tool`, `steps`, `template`, an unknown step
         *     reference, a cycle, a step whose tool cannot read the kind of file its input step writes,
         *     or more than 10 steps is 400 `invalid_pipeline` naming the step; the key needs every step's
         *     scope (403 `insufficient_scope` naming the first missing one). The cost is the sum of the
         *     steps', debited once; a pipeline counts as one job in flight. See `Job.steps`. Alias of the `/v1` operation.
         *
         *     With `Prefer: wait=N` (1–60) the answer waits until the job has reached a final state or N
         *     seconds have passed: a job that ended in time is answered `200` with `id`, `state` and
         *     `statusUrl` as in the `202`, beside `job`, the body of `GET /v1/jobs/{id}` (its
         *     `result.downloadUrl` included), so `.id` reads the same in both; one still in flight is
         *     answered with the usual `202`; both carry `Preference-Applied: wait=N`. An idempotent replay with `Prefer: wait`
         *     waits on the original job the same way (200 once it has ended), so a create-and-wait
         *     retried after a lost connection gets the result without a second job.
         */
        post: operations["apiCreateJob"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/jobs/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example job_0000000000000000 */
                id: components["parameters"]["JobId"];
            };
            cookie?: never;
        };
        /**
         * Poll a job
         * @description Only the key that created the job may read it; for any other key it is 404 `not_found`.
         *     `result.downloadUrl` is signed afresh at each poll and valid for one hour. With `Prefer:
         *     wait=N` (1–60) the answer waits until the job has reached a final state (completed,
         *     failed, canceled) or N seconds have passed, whichever comes first, and carries
         *     `Preference-Applied: wait=N`: a long poll, without polling. Scope — none. Alias of the `/v1` operation.
         */
        get: operations["apiGetJob"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/jobs/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example job_0000000000000000 */
                id: components["parameters"]["JobId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a queued job
         * @description A queued job becomes `canceled` and its credits are refunded. A running or finished job is 409 `cannot_cancel`. A pipeline job can also be canceled while running — every step not yet completed becomes `canceled` and its credits come back (one ledger line each; a running step's process is stopped within `WORKER_LOCK_DURATION_MS`/2, 15 s by default, and nothing it made is kept), completed steps keep their outputs. Scope — none. Alias of the `/v1` operation.
         */
        post: operations["apiCancelJob"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/templates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the account's templates
         * @description Scope `templates:read`. Newest first.
         */
        get: operations["listTemplates"];
        put?: never;
        /**
         * Save a pipeline as a template
         * @description Scope `templates:write`. A template is a named set of pipeline steps that `POST /v1/jobs`
         *     (`template`) and drops (`processWith`) run. Its steps are checked as a job's steps are:
         *     at most 10, names `^[a-z][a-z0-9_-]{0,31}$`, known tools with valid options, references to
         *     other steps, no cycle, and each step reading a kind its tool takes — otherwise 400
         *     `invalid_pipeline` naming the step. Templates belong to the account: every key of it sees them.
         */
        post: operations["createTemplate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/templates/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example tpl_0000000000000000 */
                id: components["parameters"]["TemplateId"];
            };
            cookie?: never;
        };
        /**
         * Get a template
         * @description Scope `templates:read`. Another account's template is 404 `not_found`.
         */
        get: operations["getTemplate"];
        put?: never;
        post?: never;
        /**
         * Delete a template
         * @description Scope `templates:write`. Jobs already started from it run to their end. A drop that names it
         *     in `processWith` no longer processes arrivals with it.
         */
        delete: operations["deleteTemplate"];
        options?: never;
        head?: never;
        /**
         * Rename a template or replace its steps
         * @description Scope `templates:write`. Send `name`, `steps` or both; `steps` replaces the whole set and is
         *     checked like a new template's. Jobs already started from the template keep the steps they
         *     started with.
         */
        patch: operations["updateTemplate"];
        trace?: never;
    };
    "/v1/webhook-deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhook deliveries
         * @description Drop and job webhook deliveries of the account, newest first, with every attempt and the circuit breaker state of each endpoint (`circuit`). Scope `webhooks:read`.
         */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-deliveries/{id}/replay": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example whd_0000000000000000 */
                id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a delivery again
         * @description Queues a new attempt of the same event with the same `webhook-id`. Scope `webhooks:write`.
         */
        post: operations["replayWebhookDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
};
export type webhooks = Record<string, never>;
export type components = {
    schemas: {
        Error: {
            error: {
                code: components["schemas"]["ErrorCode"];
                /** @description Human-readable explanation. */
                message: string;
                details?: {
                    path: string;
                    message: string;
                }[];
            };
        };
        /**
         * @description Stable machine-readable error code. The HTTP status of each:
         *     - `bad_request` — 400: the request is malformed (e.g. its URL)
         *     - `invalid_json` — 400: the body is not valid JSON
         *     - `validation_failed` — 400: a parameter or the body breaks the schema, or a JSON body nests objects and arrays deeper than 64 levels; `details` names each problem
         *     - `invalid_multipart` — 400: the multipart body is malformed or exceeds its part limits
         *     - `unknown_tool` — 400: `tool` names no tool of `GET /v1/tools`
         *     - `invalid_pipeline` — 400: a pipeline's steps cannot run (more than 10, a bad name, an unknown tool, a reference to no step, a cycle, a step reading a kind its tool does not take); `details` names the step
         *     - `missing_input` — 400: neither `input.url` nor `input.fileId` is given
         *     - `unsupported_input` — 400: the uploaded `input.fileId` is of another kind than the tool takes
         *     - `unauthorized` — 401: no Authorization header, or not "Bearer <key>"
         *     - `password_required` — 401: the drop has a password and the request has no `Drop-Password` header
         *     - `invalid_key` — 401: the API key is not recognized
         *     - `revoked` — 401: the API key was revoked
         *     - `expired` — 401: the API key has expired
         *     - `insufficient_credits` — 402: the account has too few credits for this job
         *     - `spend_cap_reached` — 402: the key's daily or monthly spend cap would be exceeded
         *     - `forbidden` — 403: refused, with no more specific code
         *     - `ip_not_allowed` — 403: the client IP is outside the key's allowlist
         *     - `insufficient_scope` — 403: the key lacks the scope this operation needs
         *     - `plan_not_eligible` — 403: the account's plan does not include this feature
         *     - `drop_paused` — 403: the drop is paused
         *     - `wrong_password` — 403: the `Drop-Password` header is not the drop's password
         *     - `quarantined` — 403: the malware scan found this file infected; it can only be deleted
         *     - `invalid_signature` — 403: the download URL is invalid or was altered
         *     - `url_expired` — 403: the download URL has expired
         *     - `not_found` — 404: no such resource (or route), or not yours
         *     - `method_not_allowed` — 405: the route does not accept this method
         *     - `conflict` — 409: the request conflicts with the current state
         *     - `offset_mismatch` — 409: a tus PATCH's `Upload-Offset` is not the server's offset (ask with HEAD)
         *     - `slug_taken` — 409: another drop has this slug
         *     - `drop_full` — 409: the drop has its `maxSubmissions`, or this file would take it past `maxTotalMB`
         *     - `scan_pending` — 409: the file has not been scanned for malware yet; see Retry-After
         *     - `processed_unavailable` — 409: the submission has no processed file
         *     - `idempotency_conflict` — 409: the idempotency key was used with another body
         *     - `cannot_cancel` — 409: the job is no longer queued
         *     - `drop_expired` — 410: the drop stopped accepting files
         *     - `output_expired` — 410: the job's output was removed by retention (the README's Retention)
         *     - `upload_expired` — 410: the tus upload expired before it was completed
         *     - `tus_version_unsupported` — 412: the tus request has no `Tus-Resumable: 1.0.0`
         *     - `tus_extension_unsupported` — 400: the tus request uses an extension this server does not offer (`Upload-Concat`: concatenation); `Tus-Extension` lists the ones it does
         *     - `invalid_tus_request` — 400 (403 for a missing `Upload-Offset` or `Content-Type`, as tus answers): a tus header is missing or malformed (e.g. `Upload-Offset`, `Content-Type`)
         *     - `checksum_mismatch` — 460: the tus chunk's checksum does not match
         *     - `body_too_large` — 413: the request body is too large
         *     - `file_too_large` — 413: the file exceeds the drop's or the plan's limit
         *     - `unsupported_media_type` — 415: this Content-Type is not accepted here
         *     - `kind_not_allowed` — 415: the drop does not accept this kind of file
         *     - `range_not_satisfiable` — 416: the requested byte range is outside the file
         *     - `rate_limited` — 429: too many requests for the key, or too many failed authentications from the client address; see Retry-After
         *     - `too_many_uploads` — 429: this client address already has `PUBLIC_UPLOADS_PER_IP` public uploads in progress
         *     - `upload_locked` — 423: another request (on any API process) is still writing this tus upload; retry (tus clients do)
         *     - `concurrency_exceeded` — 429: the account has its plan's maximum of jobs in flight
         *     - `internal_error` — 500: an unexpected error, logged on our side
         *     - `enqueue_failed` — 500: the job could not be queued; its credits were refunded and no job kept
         *     - `unavailable` — 503: a dependency (Postgres, Redis) is down; retry shortly
         *     - `tool_unavailable` — 503: a program the tool runs (e.g. ffmpeg) is missing on this server; the message names it (`GET /v1/tools` shows `available: false`)
         * @enum {string}
         */
        ErrorCode: "bad_request" | "invalid_json" | "validation_failed" | "invalid_multipart" | "unknown_tool" | "invalid_pipeline" | "missing_input" | "unsupported_input" | "unauthorized" | "password_required" | "invalid_key" | "revoked" | "expired" | "insufficient_credits" | "spend_cap_reached" | "forbidden" | "ip_not_allowed" | "insufficient_scope" | "plan_not_eligible" | "drop_paused" | "wrong_password" | "quarantined" | "invalid_signature" | "url_expired" | "not_found" | "method_not_allowed" | "conflict" | "offset_mismatch" | "slug_taken" | "drop_full" | "scan_pending" | "processed_unavailable" | "idempotency_conflict" | "cannot_cancel" | "drop_expired" | "upload_expired" | "output_expired" | "tus_version_unsupported" | "tus_extension_unsupported" | "invalid_tus_request" | "checksum_mismatch" | "body_too_large" | "file_too_large" | "unsupported_media_type" | "kind_not_allowed" | "range_not_satisfiable" | "rate_limited" | "concurrency_exceeded" | "too_many_uploads" | "upload_locked" | "internal_error" | "enqueue_failed" | "unavailable" | "tool_unavailable";
        Health: {
            /** @enum {string} */
            status: "ok";
        };
        Readiness: {
            /** @enum {string} */
            status: "ok" | "unavailable";
            checks: {
                /** @enum {string} */
                postgres: "ok" | "down";
                /** @enum {string} */
                redis: "ok" | "down";
                /**
                 * @description The malware scanner (`clamd`): `off` when neither `CLAMD_SOCKET` nor `CLAMD_HOST` is
                 *     set (files are not scanned), `down` when it does not answer (files wait, `pending`).
                 *     Does not change `status`: the API serves without it.
                 * @enum {string}
                 */
                scanning: "ok" | "down" | "off";
                ffmpeg: components["schemas"]["ProgramCheck"];
                libreoffice: components["schemas"]["ProgramCheck"];
                poppler: components["schemas"]["ProgramCheck"];
            };
        };
        /**
         * @description Whether the programs of this check are found (the configured path, e.g. `FFMPEG_PATH`, or
         *     the program on `PATH`): `ffmpeg` is ffmpeg and ffprobe (video and audio tools, media-info,
         *     document-convert's text inputs), `libreoffice` is `soffice` (document-convert), `poppler` is
         *     pdftoppm and pdfinfo (pdf-render, PDF inputs). `missing` makes the tools that need it
         *     unavailable; it does not change `status`.
         * @enum {string}
         */
        ProgramCheck: "ok" | "missing";
        /** @enum {string} */
        Plan: "free" | "pro" | "max";
        PlanLimits: {
            /** @description Token-bucket rate per API key. */
            requestsPerSecond: number;
            /** @description Queued plus running jobs at once. */
            inFlightJobs: number;
            /** @description Largest upload or drop file. */
            maxFileSizeMB: number;
            /** @description Whether jobs may take a `webhookUrl`. */
            jobWebhooks: boolean;
        };
        Account: {
            /** @example acc_4f2k9d8s7a6q5w3e */
            id: string;
            plan: components["schemas"]["Plan"];
            creditBalance: number;
            limits: components["schemas"]["PlanLimits"];
            /** @description Only for a key with `webhooks:read`. Webhooks are signed with it (Standard Webhooks). */
            webhookSecret?: string;
            /** Format: date-time */
            createdAt: string;
        };
        AccountEnvelope: {
            account: components["schemas"]["Account"];
        };
        /** @enum {string} */
        LedgerReason: "job_debit" | "job_refund" | "grant";
        LedgerEntry: {
            /** @example 41 */
            id: string;
            /** @description Credits added (positive) or taken (negative). */
            amount: number;
            reason: components["schemas"]["LedgerReason"];
            /** @description The job debited or refunded; null for a grant. */
            jobId: string | null;
            /** @description Present on a pipeline job's refund of one step (one line per step whose credits came back), the step's name. */
            step?: string;
            /** Format: date-time */
            createdAt: string;
        };
        LedgerEntryList: {
            entries: components["schemas"]["LedgerEntry"][];
            nextCursor: string | null;
        };
        /** @enum {string} */
        DropKind: "any" | "image" | "video" | "audio" | "document";
        /** @enum {string} */
        FileKind: "image" | "video" | "audio" | "document";
        /**
         * @description image: jpeg, png, webp, avif; video: mp4, webm; audio: mp3, aac, opus, wav; document: pdf (office and text documents, with document-convert).
         * @enum {string}
         */
        ConvertFormat: "jpeg" | "png" | "webp" | "avif" | "mp4" | "webm" | "mp3" | "aac" | "opus" | "wav" | "pdf";
        /** @description 3–64 lowercase letters, digits and hyphens, starting and ending with a letter or digit. Unique across all accounts. */
        DropSlug: string;
        Drop: {
            slug: components["schemas"]["DropSlug"];
            name: string;
            description: string;
            emoji: string | null;
            accentColor: string | null;
            isActive: boolean;
            allowedKinds: components["schemas"]["DropKind"];
            maxFileSizeMB: number;
            requireSenderEmail: boolean;
            requireMessage: boolean;
            autoConvertTo: string | null;
            autoCompress: boolean;
            /**
             * @description The template (`/v1/templates`) every arriving file runs through; its files are the
             *     submission's `outputs`. Null when the drop runs none — also once the template is deleted
             *     (the drop then keeps arriving files as they are).
             * @example tpl_8Jd2kQ0aZ5xW1mLp
             */
            processWith: string | null;
            webhookUrl: string | null;
            /** Format: date-time */
            expiresAt: string | null;
            /**
             * Format: date-time
             * @description After `expiresAt`, files are still accepted until this instant, flagged `isLate`.
             */
            acceptLateUntil: string | null;
            /** @description Senders must send the drop's password (`Drop-Password` header). */
            hasPassword: boolean;
            /** @description The drop takes no more submissions than this (409 `drop_full`). */
            maxSubmissions: number | null;
            /** @description The drop's submissions together stay within this many MB (409 `drop_full`). */
            maxTotalMB: number | null;
            /** @description File name extensions accepted (lowercase, no dot), checked with the sniffed content (415 `kind_not_allowed`). */
            allowedExtensions: string[] | null;
            submissionCount: number;
            totalBytes: number;
            /** @description The upload page senders open, `{PUBLIC_BASE_URL}/d/{slug}`. */
            publicUrl: string;
            /** Format: date-time */
            createdAt: string;
        };
        DropCreate: {
            name: string;
            slug?: components["schemas"]["DropSlug"];
            description?: string;
            /** @description Shown on the drop's page and as its icon. */
            emoji?: string | null;
            /** @description The drop page's accent colour. */
            accentColor?: string | null;
            allowedKinds?: components["schemas"]["DropKind"];
            /** @description 1 to the plan's upload limit (free 25, pro 500, max 2048). Defaults to the plan's limit. */
            maxFileSizeMB?: number;
            requireSenderEmail?: boolean;
            requireMessage?: boolean;
            /**
             * @description Must be a format of a kind `allowedKinds` admits. `pdf` converts arriving office and text documents (document-convert); a PDF is kept as sent.
             * @enum {string|null}
             */
            autoConvertTo?: "jpeg" | "png" | "webp" | "avif" | "mp4" | "webm" | "mp3" | "aac" | "opus" | "wav" | "pdf" | null;
            autoCompress?: boolean;
            /**
             * @description A template of the same account (`tpl_…`) to run on every arriving file; `null` runs
             *     none. An unknown template, or another account's, is 400 `validation_failed` naming
             *     `body/processWith`. It cannot be combined with `autoConvertTo` or `autoCompress` (a
             *     one-step recipe of their own): a drop with both is 400 `validation_failed` naming
             *     `body/processWith` (on PATCH, the drop as it would be after the change counts: clear
             *     one when setting the other). With `allowedKinds` other than `any`, a step that reads
             *     the arriving file must take that kind (400 `validation_failed`). See `Submission.outputs`.
             * @example tpl_8Jd2kQ0aZ5xW1mLp
             */
            processWith?: string | null;
            /** Format: uri */
            webhookUrl?: string | null;
            /**
             * Format: date-time
             * @description Must be in the future.
             */
            expiresAt?: string | null;
            /** @description Senders must give it in the `Drop-Password` header. Stored as a salted scrypt hash, never shown; `null` removes it. */
            password?: string | null;
            maxSubmissions?: number | null;
            maxTotalMB?: number | null;
            /** @description Lowercase extensions without the dot, e.g. `["pdf", "docx"]`; null: any. */
            allowedExtensions?: string[] | null;
            /**
             * Format: date-time
             * @description A grace period after `expiresAt` (and only with one); must be after it.
             */
            acceptLateUntil?: string | null;
        };
        DropUpdate: {
            name?: string;
            description?: string;
            emoji?: string | null;
            accentColor?: string | null;
            isActive?: boolean;
            allowedKinds?: components["schemas"]["DropKind"];
            maxFileSizeMB?: number;
            requireSenderEmail?: boolean;
            requireMessage?: boolean;
            /** @enum {string|null} */
            autoConvertTo?: "jpeg" | "png" | "webp" | "avif" | "mp4" | "webm" | "mp3" | "aac" | "opus" | "wav" | "pdf" | null;
            autoCompress?: boolean;
            /**
             * @description A template of the same account (`tpl_…`) to run on every arriving file; `null` runs
             *     none. An unknown template, or another account's, is 400 `validation_failed` naming
             *     `body/processWith`. It cannot be combined with `autoConvertTo` or `autoCompress` (a
             *     one-step recipe of their own): a drop with both is 400 `validation_failed` naming
             *     `body/processWith` (on PATCH, the drop as it would be after the change counts: clear
             *     one when setting the other). With `allowedKinds` other than `any`, a step that reads
             *     the arriving file must take that kind (400 `validation_failed`). See `Submission.outputs`.
             * @example tpl_8Jd2kQ0aZ5xW1mLp
             */
            processWith?: string | null;
            /** Format: uri */
            webhookUrl?: string | null;
            /** Format: date-time */
            expiresAt?: string | null;
            /** @description Senders must give it in the `Drop-Password` header. Stored as a salted scrypt hash, never shown; `null` removes it. */
            password?: string | null;
            maxSubmissions?: number | null;
            maxTotalMB?: number | null;
            /** @description Lowercase extensions without the dot, e.g. `["pdf", "docx"]`; null: any. */
            allowedExtensions?: string[] | null;
            /**
             * Format: date-time
             * @description A grace period after `expiresAt` (and only with one); must be after it.
             */
            acceptLateUntil?: string | null;
        };
        DropEnvelope: {
            drop: components["schemas"]["Drop"];
        };
        PipelineStep: {
            /**
             * @description A tool of `GET /v1/tools`.
             * @example image-resize
             */
            tool: string;
            /** @description The tool's options, as its `JobCreate` variant takes them. */
            options?: {
                [key: string]: unknown;
            };
            /**
             * @description Another step's name, whose output this step reads. Absent, the job's input.
             * @example webp
             */
            input?: string;
        };
        /**
         * @description Named steps, at most 10; a name matches `^[a-z][a-z0-9_-]{0,31}$` and names the step's output.
         *     Independent steps run in parallel; a step starts when the step it reads has finished.
         * @example {
         *       "webp": {
         *         "tool": "image-convert",
         *         "options": {
         *           "format": "webp"
         *         }
         *       },
         *       "small": {
         *         "tool": "image-resize",
         *         "input": "webp",
         *         "options": {
         *           "width": 320
         *         }
         *       }
         *     }
         */
        PipelineSteps: {
            [key: string]: components["schemas"]["PipelineStep"];
        };
        Template: {
            /** @example tpl_0000000000000000 */
            id: string;
            name: string;
            steps: components["schemas"]["PipelineSteps"];
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        TemplateCreate: {
            name: string;
            steps: components["schemas"]["PipelineSteps"];
        };
        TemplateUpdate: {
            name?: string;
            steps?: components["schemas"]["PipelineSteps"];
        };
        TemplateEnvelope: {
            template: components["schemas"]["Template"];
        };
        TemplateList: {
            templates: components["schemas"]["Template"][];
            nextCursor: string | null;
        };
        DropList: {
            drops: components["schemas"]["Drop"][];
            nextCursor: string | null;
        };
        PublicDrop: {
            slug: string;
            name: string;
            description: string;
            emoji: string | null;
            accentColor: string | null;
            allowedKinds: components["schemas"]["DropKind"];
            maxFileSizeMB: number;
            requireSenderEmail: boolean;
            requireMessage: boolean;
            /** @description False when the drop is paused, expired (past its grace) or full. */
            acceptingSubmissions: boolean;
            requiresPassword: boolean;
            /** Format: date-time */
            expiresAt: string | null;
            /**
             * Format: date-time
             * @description Files arriving after `expiresAt` and before this are accepted, marked late.
             */
            acceptLateUntil: string | null;
            maxSubmissions: number | null;
            maxTotalMB: number | null;
            allowedExtensions: string[] | null;
        };
        /** @description All a sender sees of a drop with a password before giving it. */
        LockedDrop: {
            name: string;
            /** @enum {boolean} */
            requiresPassword: true;
        };
        /** @description The error envelope of 401 `password_required`, with the drop's name. */
        PasswordRequiredError: components["schemas"]["Error"] & {
            drop: components["schemas"]["LockedDrop"];
        };
        PublicDropEnvelope: {
            drop: components["schemas"]["PublicDrop"];
        };
        /** @enum {string} */
        SubmissionStatus: "ready" | "processing" | "failed";
        Submission: {
            /** @description Arrived after the drop's `expiresAt`, in its `acceptLateUntil` grace. */
            isLate: boolean;
            scan: components["schemas"]["SubmissionScan"];
            /**
             * @description Why the drop's automatic processing did not happen — `insufficient_credits` when the
             *     owner's credits are used up (the file is kept as sent, `status: ready`); with a
             *     template (`processWith`) also `unsupported_input` (a step that reads the arriving file
             *     takes another kind) or `invalid_pipeline` (the template's steps no longer run); for
             *     either, `tool_unavailable` when a program the conversion or a step needs is missing on
             *     the server (the file is kept as sent, `status: ready`) — or,
             *     with `status: failed`, why it failed (for a template, the message names the step).
             *     Null otherwise.
             */
            processingError: {
                /** @example insufficient_credits */
                code: string;
                message: string;
            } | null;
            /** @example sub_7Gq2LmZ0aB3dE5fH */
            id: string;
            dropId: string;
            senderName: string | null;
            senderEmail: string | null;
            message: string | null;
            fileName: string;
            fileSize: number;
            fileMime: string;
            fileKind: components["schemas"]["FileKind"];
            status: components["schemas"]["SubmissionStatus"];
            processedFileName: string | null;
            /**
             * @description The files the drop's template (`processWith`) made of this file, each downloadable
             *     with `GET …/download?output=<name>` and in the drop's ZIP under `<name>/<fileName>`.
             *     A step's main file is named after the step (`thumb`), a further one `<step>.<output>`
             *     (`storyboard.vtt`), as in a pipeline job's `result.outputs`. Filled when the template's
             *     run ends: every step's file when it completed; when a step failed (`status: failed`,
             *     `processingError` names the step), the files of the steps that completed. Empty while
             *     processing, when the drop runs no template, or when the file was kept as sent.
             */
            outputs: components["schemas"]["SubmissionOutput"][];
            isRead: boolean;
            isStarred: boolean;
            isArchived: boolean;
            /** Format: date-time */
            createdAt: string;
        };
        SubmissionOutput: {
            /** @example thumb */
            name: string;
            /**
             * @description The file name with the step's name joined to it (`photo-thumb.webp`), so no two outputs share one.
             * @example photo-thumb.webp
             */
            fileName: string;
            size: number;
            /** @example image/webp */
            contentType: string;
        };
        /**
         * @description `unscanned`: scanning is off (no `CLAMD_SOCKET`/`CLAMD_HOST`). `pending`: not scanned yet
         *     (the scanner may be down: retried). `clean`, `infected` (quarantined: not downloadable,
         *     not in the archive, not processed), `failed`: the scanner could not judge the file.
         * @enum {string}
         */
        ScanStatus: "unscanned" | "pending" | "clean" | "infected" | "failed";
        SubmissionScan: {
            status: components["schemas"]["ScanStatus"];
            /** @description The malware ClamAV found (`infected` only). */
            signature?: string;
            /** Format: date-time */
            scannedAt?: string;
        };
        SubmissionEnvelope: {
            submission: components["schemas"]["Submission"];
        };
        /** @enum {string} */
        DropEventType: "drop.created" | "drop.updated" | "submission.created" | "submission.refused" | "submission.downloaded" | "submission.deleted";
        /** @description `public`: a sender (no key); `key`: the API key that acted (`keyId`). */
        DropEventActor: {
            /** @enum {string} */
            kind: "public" | "key";
            keyId?: string;
            /** @description The client address of the request. */
            ip: string;
            /** @description The request's `User-Agent`, cut to 500 characters; null when none was sent. */
            userAgent: string | null;
        };
        DropEvent: {
            id: string;
            type: components["schemas"]["DropEventType"];
            /** Format: date-time */
            at: string;
            actor: components["schemas"]["DropEventActor"];
            /** @description The submission concerned (not on drop events nor on a refusal). */
            submissionId?: string;
            /** @description By type: `drop.updated` `{ fields }`; `submission.created` `{ fileName, fileSize }`; `submission.refused` `{ code }`; `submission.downloaded` `{ file, output? }`; otherwise `{}`. */
            detail: {
                [key: string]: unknown;
            };
        };
        DropEventList: {
            events: components["schemas"]["DropEvent"][];
            nextCursor: string | null;
        };
        SubmissionList: {
            submissions: components["schemas"]["Submission"][];
            nextCursor: string | null;
        };
        SubmissionUpdate: {
            isRead?: boolean;
            isStarred?: boolean;
            isArchived?: boolean;
        };
        SubmissionForm: {
            senderName?: string;
            /** Format: email */
            senderEmail?: string;
            message?: string;
            /** Format: binary */
            file: string;
        };
        PublicSubmission: {
            id: string;
            fileName: string;
            fileSize: number;
            fileKind: components["schemas"]["FileKind"];
            status: components["schemas"]["SubmissionStatus"];
            /** Format: date-time */
            createdAt: string;
        };
        PublicSubmissionEnvelope: {
            submission: components["schemas"]["PublicSubmission"];
        };
        DownloadLink: {
            /** Format: uri */
            url: string;
            /** @enum {integer} */
            expiresIn: 3600;
            /** @enum {string} */
            file: "original" | "processed" | "output";
            /** @description With `file` `output`, the output's name (`?output=`). */
            output?: string;
        };
        UploadForm: {
            /** Format: binary */
            file: string;
        };
        Upload: {
            /** @example upl_9fK2mQ7zXc4vB1nL */
            id: string;
            fileName: string;
            fileSize: number;
            fileMime: string;
            fileKind: components["schemas"]["FileKind"];
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            expiresAt: string;
        };
        UploadEnvelope: {
            upload: components["schemas"]["Upload"];
        };
        /** @enum {string} */
        ToolSlug: "image-resize" | "image-convert" | "image-thumbnail" | "video-convert" | "video-thumbnail" | "video-storyboard" | "audio-compress" | "audio-waveform" | "document-convert" | "pdf-render" | "media-info";
        Tool: {
            slug: components["schemas"]["ToolSlug"];
            /**
             * @description False when a program it runs is missing on this server (see `requires` and `/readyz`
             *     `checks`): its jobs are refused with 503 `tool_unavailable`, nothing charged.
             */
            available: boolean;
            /**
             * @description The `/readyz` checks (programs) it needs; empty for a tool that needs none beyond the service (the image tools).
             * @example [
             *       "ffmpeg"
             *     ]
             */
            requires: ("ffmpeg" | "libreoffice" | "poppler")[];
            /**
             * @description The kind of input it takes; `any` takes every kind the probe knows (media-info).
             * @enum {string}
             */
            kind: "image" | "video" | "audio" | "document" | "any";
            /** @example image-standard-queue */
            queue: string;
            /**
             * @description The first of `scopes`.
             * @example image:write
             */
            scope: string;
            /**
             * @description The API-key scopes that may submit it; a key with any one of them may.
             * @example [
             *       "image:write"
             *     ]
             */
            scopes: string[];
            /** @description Credits debited per job (0 for media-info). */
            cost: number;
            /** @description JSON Schema of the tool's options. */
            options: {
                [key: string]: unknown;
            };
            /** @description The formats of the main output (`outputs[0]`); empty for a tool that writes no file. */
            outputFormats: string[];
            /**
             * @description The files a job of this tool writes, as `result.outputs` names them. The main output is
             *     always named `output` and listed first (it is also `result.downloadUrl`); a tool with more
             *     files adds them under their own names (video-storyboard: `vtt`). Empty for a tool that
             *     writes no file.
             */
            outputs: components["schemas"]["ToolOutput"][];
        };
        ToolOutput: {
            /** @example output */
            name: string;
            formats: string[];
            description: string;
        };
        ToolList: {
            tools: components["schemas"]["Tool"][];
        };
        /**
         * @description Width and/or height in pixels (at least one). `fit` (with both sides given): `inside` (the
         *     default) fits inside the box keeping the aspect ratio; `cover` fills the box and crops, at
         *     `position`; `contain` fits inside and pads the rest of the box (transparent, white for jpeg);
         *     `fill` stretches to the box (what `maintainAspectRatio: false` also asks; giving it with
         *     another `fit` is 400 `validation_failed`). `position` is where `cover` crops and `contain`
         *     places the image: a side or `center` (default); `attention` and `entropy` (libvips' smart
         *     crop) are for `cover` only. `format` (default: the input's own) picks the output format, the
         *     file's extension and Content-Type; `quality` (1..100, default 80) applies to jpeg, webp and
         *     avif (png is lossless).
         */
        ImageResizeOptions: {
            width: number;
            height?: number;
            /** @default true */
            maintainAspectRatio?: boolean;
            /**
             * @default inside
             * @enum {string}
             */
            fit?: "inside" | "cover" | "contain" | "fill";
            /**
             * @default center
             * @enum {string}
             */
            position?: "center" | "top" | "right" | "bottom" | "left" | "attention" | "entropy";
            /**
             * @description Default the input's format.
             * @enum {string}
             */
            format?: "jpeg" | "png" | "webp" | "avif";
            /**
             * @description jpeg, webp and avif; png is lossless.
             * @default 80
             */
            quality?: number;
        } | {
            width?: number;
            height: number;
            /** @default true */
            maintainAspectRatio?: boolean;
            /**
             * @default inside
             * @enum {string}
             */
            fit?: "inside" | "cover" | "contain" | "fill";
            /**
             * @default center
             * @enum {string}
             */
            position?: "center" | "top" | "right" | "bottom" | "left" | "attention" | "entropy";
            /**
             * @description Default the input's format.
             * @enum {string}
             */
            format?: "jpeg" | "png" | "webp" | "avif";
            /**
             * @description jpeg, webp and avif; png is lossless.
             * @default 80
             */
            quality?: number;
        };
        ImageConvertOptions: {
            /**
             * @default webp
             * @enum {string}
             */
            format?: "jpeg" | "png" | "webp" | "avif" | "tiff" | "gif";
            /** @default 80 */
            quality?: number;
        };
        /**
         * @description mp4 and mov: H.264 + AAC; webm: VP9 + Opus. `width` or `height` scales the video, the other
         *     side keeping the aspect ratio (both: it fits inside width × height); a side is rounded down
         *     to an even number, as 4:2:0 video needs. `start` and `duration` (seconds) trim it: a `start`
         *     at or past the end of the input fails the job with `invalid_option` (refunded), a `duration`
         *     past the end ends with the input. `fps` sets the frame rate (frames are dropped or repeated).
         *     `audio: false` writes no audio stream. An output size over 100 megapixels fails with
         *     `invalid_option` before any frame is encoded.
         */
        VideoConvertOptions: {
            /**
             * @default mp4
             * @enum {string}
             */
            format?: "mp4" | "webm" | "mov";
            /**
             * @default medium
             * @enum {string}
             */
            quality?: "low" | "medium" | "high";
            /** @description Output width in pixels; default the input's. */
            width?: number;
            /** @description Output height in pixels; default the input's. */
            height?: number;
            /**
             * @description Seconds from the start of the input where the output begins.
             * @default 0
             */
            start?: number;
            /** @description Seconds of output at most; default to the end of the input. */
            duration?: number;
            /** @description Output frames per second; default the input's. */
            fps?: number;
            /**
             * @description false writes the video without its sound.
             * @default true
             */
            audio?: boolean;
        };
        /**
         * @description One frame of the video as an image (a poster). `at` is the time in seconds; past the end of
         *     the video it gives the last frame. `auto` (the default) picks a representative frame of the
         *     first minute with ffmpeg's `thumbnail` filter (30 frames sampled evenly, the one closest to
         *     their average colour histogram), so a black fade-in or a flash is not chosen.
         */
        VideoThumbnailOptions: {
            /** @default auto */
            at?: number | "auto";
            /** @description Output width in pixels, the height keeps the aspect ratio; default the video's own width. */
            width?: number;
            /**
             * @default jpeg
             * @enum {string}
             */
            format?: "jpeg" | "webp" | "png";
        };
        /**
         * @description A scrubbing storyboard: one sprite image of tiles, a frame every `interval` seconds laid out
         *     `columns` to a row, each `width` pixels wide (the height keeps the aspect ratio), and a WebVTT
         *     file (`result.outputs.vtt`) with one cue per tile whose text is
         *     `<sprite fileName>#xywh=x,y,w,h`: a URL relative to the VTT, so serve both files side by side
         *     (or replace the name with the sprite's `downloadUrl`). At most 100 tiles and a sprite at most
         *     16 000 pixels tall: a longer video gets a wider interval (the sprite's `interval` says which).
         */
        VideoStoryboardOptions: {
            /**
             * @description Seconds between tiles.
             * @default 5
             */
            interval?: number;
            /** @default 5 */
            columns?: number;
            /**
             * @description Tile width in pixels.
             * @default 160
             */
            width?: number;
            /**
             * @description The sprite's format.
             * @default jpeg
             * @enum {string}
             */
            format?: "jpeg" | "webp";
        };
        /**
         * @description `format`: `mp3` (the default, constant bitrate), `aac` (AAC in an MP4 container, `.m4a`),
         *     `opus` (Opus in Ogg, `.opus`) or `wav` (16-bit PCM: `bitrate` does not apply). `channels` 1
         *     mixes down to mono, 2 to stereo (default: the input's). `sampleRate` resamples (default: the
         *     input's, or 48000 for opus, which knows only 8000, 12000, 16000, 24000 and 48000: another rate
         *     with opus is 400 `validation_failed`). `start` and `duration` (seconds) trim: a `start` at or
         *     past the end of the input fails the job with `invalid_option` (refunded).
         */
        AudioCompressOptions: {
            /**
             * @default mp3
             * @enum {string}
             */
            format?: "mp3" | "aac" | "opus" | "wav";
            /**
             * @description 32k to 320k.
             * @default 128k
             */
            bitrate?: string;
            /** @enum {integer} */
            channels?: 1 | 2;
            /** @enum {integer} */
            sampleRate?: 8000 | 11025 | 12000 | 16000 | 22050 | 24000 | 32000 | 44100 | 48000;
            /**
             * @description Seconds from the start of the input where the output begins.
             * @default 0
             */
            start?: number;
            /** @description Seconds of output at most; default to the end of the input. */
            duration?: number;
        };
        /**
         * @description An office or text document (docx, xlsx, pptx, odt, ods, odp, rtf, txt, html) to `format` with
         *     LibreOffice (headless): `pdf` (the default) for any of them; `docx`, `odt`, `rtf`, `txt` or
         *     `html` for a text document (docx, odt, rtf, txt, html); `xlsx`, `ods` or `csv` (UTF-8, comma
         *     separated, the first sheet) for a spreadsheet (xlsx, ods); `pptx` or `odp` for a presentation
         *     (pptx, odp). A format that does not fit the input's kind fails the job with `invalid_option`
         *     (refunded); the output's extension and Content-Type follow `format`. Each conversion runs in a fresh profile with
         *     macros disabled, links and external resources (other files, the network) not loaded, and a
         *     time limit of 2 minutes (`timeout`). A zipped format (docx, xlsx, pptx, odt, ods, odp) that
         *     expands to more than 512 MB, or more than 100 times its size past 64 MB, is refused as a zip
         *     bomb (`unsupported_input`). The result's `pages` is the PDF's page count (pdf only).
         */
        DocumentConvertOptions: {
            /**
             * @default pdf
             * @enum {string}
             */
            format?: "pdf" | "docx" | "odt" | "rtf" | "txt" | "html" | "xlsx" | "ods" | "csv" | "pptx" | "odp";
        };
        /**
         * @description One page of a PDF as an image, with poppler's `pdftoppm`. `width` (pixels, the height follows
         *     the page's proportions) or `dpi` (default 150), not both. A PDF of more than 2000 pages is
         *     refused (`unsupported_input`), as is a rendered page over 100 megapixels. The page count is
         *     read when the job runs (an upload does not record it): a `page` past the PDF's last page
         *     fails the job with `invalid_option`. The result's `pages` is the PDF's page count.
         */
        PdfRenderOptions: {
            /** @default 1 */
            page?: number;
            /**
             * @default png
             * @enum {string}
             */
            format?: "png" | "webp" | "jpeg";
            width?: number;
            /** @default 150 */
            dpi?: number;
        };
        /**
         * @description A thumbnail of `width` × `height` (at least one; with one, the other follows the aspect
         *     ratio). `fit`: `cover` (default) fills the box and crops, `position` choosing what stays
         *     (`attention`, the default: libvips' smart crop towards skin, saturation and edges;
         *     `entropy`: the busiest region; `center`); `contain` fits inside the box and pads it
         *     (transparent, white for jpeg); `inside` fits inside without padding and never enlarges.
         *     EXIF orientation is applied, metadata is stripped, an animation gives its first frame.
         *     The result carries `placeholder.thumbhash` and `dominantColor`. A job without `options`
         *     (which the other tools allow) is 400 `validation_failed` at `body/options`: a thumbnail
         *     needs a size.
         */
        ImageThumbnailOptions: {
            width: number;
            height?: number;
            /**
             * @default cover
             * @enum {string}
             */
            fit?: "cover" | "contain" | "inside";
            /**
             * @default attention
             * @enum {string}
             */
            position?: "attention" | "entropy" | "center";
            /**
             * @default webp
             * @enum {string}
             */
            format?: "webp" | "avif" | "jpeg" | "png";
            /**
             * @description jpeg, webp and avif; png is lossless.
             * @default 80
             */
            quality?: number;
        } | {
            width?: number;
            height: number;
            /**
             * @default cover
             * @enum {string}
             */
            fit?: "cover" | "contain" | "inside";
            /**
             * @default attention
             * @enum {string}
             */
            position?: "attention" | "entropy" | "center";
            /**
             * @default webp
             * @enum {string}
             */
            format?: "webp" | "avif" | "jpeg" | "png";
            /**
             * @description jpeg, webp and avif; png is lossless.
             * @default 80
             */
            quality?: number;
        };
        /**
         * @description The peaks of the audio (mixed to one channel, at its own sample rate). `format: json` (the
         *     default) writes BBC audiowaveform's JSON (`version` 2, `channels` 1, `sample_rate`,
         *     `samples_per_pixel`, `bits`, `length` = `points`, `data`: a min, max pair per point);
         *     `format: png` draws them as a `width` × `height` PNG in `color` on a transparent background.
         *     An input shorter than `points` samples repeats samples. `samples_per_pixel` is the
         *     input's decoded samples / points, rounded (the points always cover the whole input).
         */
        AudioWaveformOptions: {
            /**
             * @default json
             * @enum {string}
             */
            format?: "json" | "png";
            /**
             * @description json only; the number of min/max pairs (`length`).
             * @default 800
             */
            points?: number;
            /**
             * @description json only; the value range, -128..127 or -32768..32767.
             * @default 8
             * @enum {integer}
             */
            bits?: 8 | 16;
            /**
             * @description png only; one point per pixel column.
             * @default 1800
             */
            width?: number;
            /**
             * @description png only.
             * @default 280
             */
            height?: number;
            /**
             * @description png only; the waveform's colour.
             * @default #3a7bd5
             */
            color?: string;
        };
        /** @description No options. */
        MediaInfoOptions: Record<string, never>;
        /**
         * @description What media-info read from the file's headers (no decoding). Present keys depend on the
         *     kind: an image has `width`, `height`, `orientation` (its EXIF orientation, already applied
         *     to `width` and `height`), `frames` when animated, `hasAlpha`; video and audio have
         *     `duration`, `bitrate` and their streams' codecs, video `frameRate` and `rotation`, audio
         *     `channels` and `sampleRate`; a PDF `pages`.
         */
        MediaInfo: {
            /** @enum {string} */
            kind: "image" | "video" | "audio" | "document";
            /** @description jpeg/png/webp/avif/gif/tiff for images, mp4/mov/webm/mkv/… for video, mp3/aac/opus/wav/flac/… for audio. */
            format: string;
            /** @description Video and audio; libavformat's name of the container, e.g. `mov,mp4,m4a,3gp,3g2,mj2`. */
            container?: string;
            /** @description Bytes. */
            size: number;
            width?: number;
            height?: number;
            /** @description Seconds. */
            duration?: number;
            /** @description Bits per second, the whole file. */
            bitrate?: number;
            videoCodec?: string;
            audioCodec?: string;
            /** @description Frames per second. */
            frameRate?: number;
            channels?: number;
            /** @description Hz. */
            sampleRate?: number;
            /** @description Images; EXIF orientation (1 = upright). */
            orientation?: number;
            /** @description Video; the display rotation in degrees (already applied to `width` and `height`). */
            rotation?: number;
            /** @description Animated images; the frame count. */
            frames?: number;
            hasAlpha?: boolean;
            /** @description PDF documents; the page count. */
            pages?: number;
        };
        /** @description Exactly one of `url` (http or https, fetched with SSRF protection) or `fileId` (an upload of the same account). */
        JobInput: {
            url?: string;
            fileId?: string;
        };
        /**
         * @description What `POST /v1/jobs` takes: one tool (`JobCreate`, the spec's form), named steps
         *     (`PipelineJobCreate`) or a saved template (`TemplateJobCreate`).
         */
        JobRequest: components["schemas"]["JobCreate"] | components["schemas"]["PipelineJobCreate"] | components["schemas"]["TemplateJobCreate"];
        /**
         * @description A job of named steps. Each step runs one tool (its scope, its cost: the job costs the sum,
         *     debited once); a step without `input` reads the job's input, one with `input` reads that
         *     step's main output once it has finished. Independent steps run in parallel.
         * @example {
         *       "input": {
         *         "url": "https://media.example.com/clip.mp4"
         *       },
         *       "steps": {
         *         "web": {
         *           "tool": "video-convert",
         *           "options": {
         *             "format": "mp4",
         *             "quality": "medium"
         *           }
         *         },
         *         "poster": {
         *           "tool": "video-thumbnail",
         *           "options": {
         *             "at": "auto",
         *             "format": "jpeg"
         *           }
         *         },
         *         "storyboard": {
         *           "tool": "video-storyboard",
         *           "options": {
         *             "interval": 5
         *           }
         *         }
         *       }
         *     }
         */
        PipelineJobCreate: {
            steps: components["schemas"]["PipelineSteps"];
            input?: components["schemas"]["JobInput"];
            webhookUrl?: components["schemas"]["JobWebhookUrl"];
            idempotencyKey?: components["schemas"]["IdempotencyKeyValue"];
        };
        /** @description A job that runs a saved template's steps (`POST /v1/templates`) on `input`; the job keeps the steps it started with. */
        TemplateJobCreate: {
            /** @example tpl_0000000000000000 */
            template: string;
            input?: components["schemas"]["JobInput"];
            webhookUrl?: components["schemas"]["JobWebhookUrl"];
            idempotencyKey?: components["schemas"]["IdempotencyKeyValue"];
        };
        /**
         * @description One step of a pipeline job. Once it has completed, `result` is what the same tool alone
         *     would have answered as a job's result (its own fields too: media-info's `info`,
         *     image-thumbnail's `placeholder`, pdf-render's `pages`), and `outputs` its files (the same
         *     as `result.outputs`).
         */
        JobStep: {
            tool: components["schemas"]["ToolSlug"];
            /** @description The step whose output it reads; null for the job's input. */
            input: string | null;
            state: components["schemas"]["JobState"];
            progress: number;
            /** @description This step's share of the job's cost; given back (one ledger line) when the step fails, never runs or is canceled. */
            cost: number;
            /** Format: date-time */
            startedAt: string | null;
            /** Format: date-time */
            finishedAt: string | null;
            error: components["schemas"]["JobError"];
            result: components["schemas"]["JobResult"];
            /** @description The step's files by output name (`output` the main one), as in `JobResult.outputs`; empty until it has completed. They stay downloadable when a later step fails. */
            outputs: {
                [key: string]: components["schemas"]["JobOutput"];
            };
        };
        /**
         * @description A job request; `tool` decides which `options` apply (one schema per tool). An unknown
         *     `tool` is 400 `unknown_tool`. Unknown keys inside `options` are ignored at run time
         *     (the typed client refuses them at compile time).
         */
        JobCreate: components["schemas"]["ImageResizeJobCreate"] | components["schemas"]["ImageConvertJobCreate"] | components["schemas"]["ImageThumbnailJobCreate"] | components["schemas"]["VideoConvertJobCreate"] | components["schemas"]["VideoThumbnailJobCreate"] | components["schemas"]["VideoStoryboardJobCreate"] | components["schemas"]["AudioCompressJobCreate"] | components["schemas"]["AudioWaveformJobCreate"] | components["schemas"]["DocumentConvertJobCreate"] | components["schemas"]["PdfRenderJobCreate"] | components["schemas"]["MediaInfoJobCreate"];
        /**
         * @description Resize an image (scope `image:write`, 1 credit).
         * @example {
         *       "tool": "image-resize",
         *       "input": {
         *         "fileId": "upl_9fK2mQ7zXc4vB1nL"
         *       },
         *       "options": {
         *         "width": 320
         *       }
         *     }
         */
        ImageResizeJobCreate: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            tool: "image-resize";
            options?: components["schemas"]["ImageResizeOptions"];
            input?: components["schemas"]["JobInput"];
            webhookUrl?: components["schemas"]["JobWebhookUrl"];
            idempotencyKey?: components["schemas"]["IdempotencyKeyValue"];
        };
        /**
         * @description Convert an image to another format (scope `image:write`, 1 credit).
         * @example {
         *       "tool": "image-convert",
         *       "input": {
         *         "fileId": "upl_9fK2mQ7zXc4vB1nL"
         *       },
         *       "options": {
         *         "format": "webp",
         *         "quality": 75
         *       }
         *     }
         */
        ImageConvertJobCreate: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            tool: "image-convert";
            options?: components["schemas"]["ImageConvertOptions"];
            input?: components["schemas"]["JobInput"];
            webhookUrl?: components["schemas"]["JobWebhookUrl"];
            idempotencyKey?: components["schemas"]["IdempotencyKeyValue"];
        };
        /**
         * @description Transcode a video (scope `video:write`, 5 credits).
         * @example {
         *       "tool": "video-convert",
         *       "input": {
         *         "url": "https://files.example.com/clip.mov"
         *       },
         *       "options": {
         *         "format": "mp4",
         *         "quality": "medium"
         *       },
         *       "webhookUrl": "https://hooks.example.com/dropline"
         *     }
         */
        VideoConvertJobCreate: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            tool: "video-convert";
            options?: components["schemas"]["VideoConvertOptions"];
            input?: components["schemas"]["JobInput"];
            webhookUrl?: components["schemas"]["JobWebhookUrl"];
            idempotencyKey?: components["schemas"]["IdempotencyKeyValue"];
        };
        /**
         * @description Re-encode audio as MP3, AAC, Opus or WAV (scope `audio:write`, 2 credits).
         * @example {
         *       "tool": "audio-compress",
         *       "input": {
         *         "fileId": "upl_2hT8vR1kWq6zLp0s"
         *       },
         *       "options": {
         *         "bitrate": "96k"
         *       }
         *     }
         */
        AudioCompressJobCreate: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            tool: "audio-compress";
            options?: components["schemas"]["AudioCompressOptions"];
            input?: components["schemas"]["JobInput"];
            webhookUrl?: components["schemas"]["JobWebhookUrl"];
            idempotencyKey?: components["schemas"]["IdempotencyKeyValue"];
        };
        /**
         * @description Convert an office or text document to PDF or another office format (scope `documents:write`, 2 credits).
         * @example {
         *       "tool": "document-convert",
         *       "input": {
         *         "fileId": "upl_7dQ3nV8pLs2kXw4e"
         *       },
         *       "options": {
         *         "format": "pdf"
         *       }
         *     }
         */
        DocumentConvertJobCreate: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            tool: "document-convert";
            options?: components["schemas"]["DocumentConvertOptions"];
            input?: components["schemas"]["JobInput"];
            webhookUrl?: components["schemas"]["JobWebhookUrl"];
            idempotencyKey?: components["schemas"]["IdempotencyKeyValue"];
        };
        /**
         * @description Render one page of a PDF as an image (scope `documents:write`, 1 credit).
         * @example {
         *       "tool": "pdf-render",
         *       "input": {
         *         "url": "https://files.example.com/report.pdf"
         *       },
         *       "options": {
         *         "page": 2,
         *         "format": "webp",
         *         "width": 800
         *       }
         *     }
         */
        PdfRenderJobCreate: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            tool: "pdf-render";
            options?: components["schemas"]["PdfRenderOptions"];
            input?: components["schemas"]["JobInput"];
            webhookUrl?: components["schemas"]["JobWebhookUrl"];
            idempotencyKey?: components["schemas"]["IdempotencyKeyValue"];
        };
        /**
         * @description A thumbnail with a ThumbHash placeholder and the dominant colour (scope `image:write`, 1 credit).
         * @example {
         *       "tool": "image-thumbnail",
         *       "input": {
         *         "fileId": "upl_9fK2mQ7zXc4vB1nL"
         *       },
         *       "options": {
         *         "width": 320,
         *         "height": 320,
         *         "fit": "cover",
         *         "position": "attention",
         *         "format": "webp"
         *       }
         *     }
         */
        ImageThumbnailJobCreate: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            tool: "image-thumbnail";
            options?: components["schemas"]["ImageThumbnailOptions"];
            input?: components["schemas"]["JobInput"];
            webhookUrl?: components["schemas"]["JobWebhookUrl"];
            idempotencyKey?: components["schemas"]["IdempotencyKeyValue"];
        };
        /**
         * @description Waveform peaks as BBC audiowaveform JSON, or a PNG (scope `audio:write`, 1 credit).
         * @example {
         *       "tool": "audio-waveform",
         *       "input": {
         *         "fileId": "upl_2hT8vR1kWq6zLp0s"
         *       },
         *       "options": {
         *         "format": "json",
         *         "points": 800
         *       }
         *     }
         */
        AudioWaveformJobCreate: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            tool: "audio-waveform";
            options?: components["schemas"]["AudioWaveformOptions"];
            input?: components["schemas"]["JobInput"];
            webhookUrl?: components["schemas"]["JobWebhookUrl"];
            idempotencyKey?: components["schemas"]["IdempotencyKeyValue"];
        };
        /**
         * @description What a media file is, as `result.info`; writes no file (any of the scopes `image:write`, `video:write`, `audio:write`, `documents:write`; free).
         * @example {
         *       "tool": "media-info",
         *       "input": {
         *         "fileId": "upl_2hT8vR1kWq6zLp0s"
         *       }
         *     }
         */
        MediaInfoJobCreate: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            tool: "media-info";
            options?: components["schemas"]["MediaInfoOptions"];
            input?: components["schemas"]["JobInput"];
            webhookUrl?: components["schemas"]["JobWebhookUrl"];
            idempotencyKey?: components["schemas"]["IdempotencyKeyValue"];
        };
        /**
         * @description A poster frame of a video (scope `video:write`, 1 credit).
         * @example {
         *       "tool": "video-thumbnail",
         *       "input": {
         *         "fileId": "upl_7Qw3eR5tY9uI1oP2"
         *       },
         *       "options": {
         *         "at": 12.5,
         *         "width": 640,
         *         "format": "webp"
         *       }
         *     }
         */
        VideoThumbnailJobCreate: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            tool: "video-thumbnail";
            options?: components["schemas"]["VideoThumbnailOptions"];
            input?: components["schemas"]["JobInput"];
            webhookUrl?: components["schemas"]["JobWebhookUrl"];
            idempotencyKey?: components["schemas"]["IdempotencyKeyValue"];
        };
        /**
         * @description A storyboard sprite and its WebVTT file (scope `video:write`, 2 credits); two outputs, `output` (the sprite) and `vtt`.
         * @example {
         *       "tool": "video-storyboard",
         *       "input": {
         *         "fileId": "upl_7Qw3eR5tY9uI1oP2"
         *       },
         *       "options": {
         *         "interval": 10,
         *         "columns": 10,
         *         "width": 160
         *       }
         *     }
         */
        VideoStoryboardJobCreate: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            tool: "video-storyboard";
            options?: components["schemas"]["VideoStoryboardOptions"];
            input?: components["schemas"]["JobInput"];
            webhookUrl?: components["schemas"]["JobWebhookUrl"];
            idempotencyKey?: components["schemas"]["IdempotencyKeyValue"];
        };
        /**
         * Format: uri
         * @description Where `job.completed` / `job.failed` is sent. Pro and Max plans only.
         */
        JobWebhookUrl: string;
        /**
         * @description Makes the submission safe to retry for 24 hours, per API key (the `Idempotency-Key`
         *     header does the same; the body wins). A replay with the same body returns the original
         *     status and body and queues and charges nothing; another body with the same key is 409
         *     `idempotency_conflict`. Only accepted jobs are remembered: a refused request (402, 429,
         *     500) may be retried with the same key.
         */
        IdempotencyKeyValue: string;
        /** @enum {string} */
        JobState: "queued" | "running" | "completed" | "failed" | "canceled";
        JobAccepted: {
            /** @example job_3Hk9sLq2Wm7Zx0Pc */
            id: string;
            state: components["schemas"]["JobState"];
            /** @example /v1/jobs/job_3Hk9sLq2Wm7Zx0Pc */
            statusUrl: string;
        };
        /**
         * @description Present once the job has completed, otherwise null. The output is kept for the account's
         *     plan's retention (free 24 h, pro 7 days, max 30 days, counted from `finishedAt`; see the
         *     README's Retention). Once it is removed the result stays, with `expiredAt` set and
         *     `downloadUrl` null, and a download URL handed out before answers 410 `output_expired`.
         */
        JobResult: {
            /**
             * @description `converted` when the job wrote files; `done` for a tool that only reports (`media-info`).
             * @enum {string}
             */
            status: "converted" | "done";
            /** @description The main output's format; null for a tool that writes no file. */
            outputFormat: string | null;
            /**
             * Format: uri
             * @description The main output (`outputs.output.downloadUrl`), signed afresh at each read, valid 1 hour;
             *     null once the output expired, and for a tool that writes no file.
             */
            downloadUrl: string | null;
            /**
             * Format: date-time
             * @description When retention removed the output; null while it can be downloaded.
             */
            expiredAt: string | null;
            /** @description The main output's size in bytes; null for a tool that writes no file. */
            outputSize: number | null;
            /**
             * @description Every file the job wrote, by name (`GET /v1/tools` lists each tool's): the main output is
             *     always `output` (the same file as `downloadUrl`), further ones have their own names
             *     (video-storyboard: `vtt`). Empty for a tool that writes no file. Retention removes them
             *     together: then each keeps its description with `downloadUrl` null. A storyboard's:
             *     `{"output": {"downloadUrl": "…", "contentType": "image/jpeg", "size": 48213, "fileName": "clip.jpg",
             *     "format": "jpeg", "width": 800, "height": 360, "tiles": 50, "columns": 5, "rows": 10, "tileWidth": 160,
             *     "tileHeight": 90, "interval": 5}, "vtt": {"downloadUrl": "…", "contentType": "text/vtt", "size": 2140,
             *     "fileName": "clip.vtt", "format": "vtt", "cues": 50}}`.
             */
            outputs: {
                [key: string]: components["schemas"]["JobOutput"];
            };
            /** @description Absent for audio-compress. */
            message?: string;
            width?: number;
            height?: number;
            /** @description Seconds (video and audio). */
            duration?: number;
            /** @description audio-compress only, e.g. `128k`. */
            bitrate?: string;
            /** @description document-convert to pdf, the output PDF's page count; pdf-render, the input PDF's. */
            pages?: number;
            /** @description image-thumbnail only; what to show while the thumbnail loads. */
            placeholder?: {
                /** @description The ThumbHash (https://evanw.github.io/thumbhash/) of the thumbnail, base64. */
                thumbhash: string;
            };
            /** @description image-thumbnail only; the thumbnail's dominant colour (libvips' histogram), `#rrggbb`. */
            dominantColor?: string;
            info?: components["schemas"]["MediaInfo"];
        } | null;
        /** @description One file of a job's result, with what the tool knows of it. */
        JobOutput: {
            /**
             * Format: uri
             * @description Signed afresh at each read, valid 1 hour, served with `contentType`; null once retention removed it.
             */
            downloadUrl: string | null;
            /** @example image/jpeg */
            contentType: string;
            /** @description Bytes. */
            size: number;
            /** @description The download's file name; a pipeline step's files carry the step's name (`photo-small.webp` for step `small`). */
            fileName: string;
            format: string;
            width?: number;
            height?: number;
            /** @description Seconds (video and audio). */
            duration?: number;
            bitrate?: string;
            /** @description video-storyboard sprite, the number of tiles (at most 100). */
            tiles?: number;
            /** @description video-storyboard sprite, tiles per row. */
            columns?: number;
            /** @description video-storyboard sprite, rows of tiles. */
            rows?: number;
            tileWidth?: number;
            tileHeight?: number;
            /** @description video-storyboard sprite, seconds between tiles (wider than asked when the tile limit required it). */
            interval?: number;
            /** @description video-storyboard WebVTT, the number of cues (one per tile). */
            cues?: number;
        };
        /** @description Present when the job failed, otherwise null. */
        JobError: {
            /**
             * @description `invalid_option`: an option the input cannot honour, known only once it is read (pdf-render's `page` past the PDF's last page). `upstream_failed`: a pipeline step that never ran because the step it reads failed. `canceled`: a pipeline step stopped by a cancel.
             * @enum {string}
             */
            code: "input_fetch_failed" | "input_too_large" | "unsupported_input" | "input_infected" | "processing_failed" | "timeout" | "invalid_option" | "upstream_failed" | "canceled";
            message: string;
            /** @description A pipeline job's error only, the step that failed (its own error is in `steps`). */
            step?: string;
        } | null;
        Job: {
            id: string;
            tool: components["schemas"]["ToolSlug"];
            state: components["schemas"]["JobState"];
            progress: number;
            result: components["schemas"]["JobResult"];
            error: components["schemas"]["JobError"];
            /** @description Credits debited when the job was accepted. */
            cost: number;
            /** @description True once `cost` was given back (the job failed or was canceled); spend caps still count it. */
            refunded: boolean;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            startedAt: string | null;
            /** Format: date-time */
            finishedAt: string | null;
            /** @example image-standard-queue */
            queue: string;
            /**
             * @description A pipeline job's steps by name, in the order they were given; absent for a single-tool job.
             *     For a pipeline, `tool` and `queue` are those of its first step, `progress` is the steps'
             *     mean, `result` (once every step has completed) has `outputFormat`, `downloadUrl` and
             *     `outputSize` null and every file in `outputs`: a step's main output under the step's name,
             *     a further one under `<step>.<output>` (`storyboard.vtt`). A failed step fails the steps
             *     that read it (`upstream_failed`) and the job (`error.step`); the credits of the steps that
             *     failed or never ran come back, one ledger line each (`refunded` is true once every step's
             *     were), and the files of the steps that completed stay in `steps.<name>.outputs`.
             */
            steps?: {
                [key: string]: components["schemas"]["JobStep"];
            };
        };
        JobEnvelope: {
            job: components["schemas"]["Job"];
        };
        /** @description The `202` fields (`id`, `state`, `statusUrl`) beside `job`: `.id` reads the same whether `Prefer: wait` got the job ended (200) or not (202). */
        JobEndedInTime: components["schemas"]["JobAccepted"] & components["schemas"]["JobEnvelope"];
        /**
         * @example {
         *       "quote": {
         *         "charge": 2,
         *         "steps": {
         *           "webp": {
         *             "tool": "image-convert",
         *             "charge": 1
         *           },
         *           "small": {
         *             "tool": "image-resize",
         *             "charge": 1
         *           }
         *         },
         *         "affordable": false,
         *         "refusal": {
         *           "code": "insufficient_credits",
         *           "message": "This job costs 2 credits; the balance is 1."
         *         },
         *         "estimate": {
         *           "seconds": 0.42
         *         }
         *       }
         *     }
         */
        JobQuote: {
            quote: {
                /** @description The credits the same body would be debited now (a pipeline's or template's is its steps' sum). */
                charge: number;
                /** @description Each step's tool and price by step name, in the order given; empty for a one-tool job. */
                steps: {
                    [key: string]: {
                        tool: components["schemas"]["ToolSlug"];
                        charge: number;
                    };
                };
                /** @description Whether the real submission would be admitted now (false exactly when `refusal` is set). */
                affordable: boolean;
                /** @description What the real submission would answer instead of `202`: its error `code` and `message` (`insufficient_credits` and `spend_cap_reached` are 402, `concurrency_exceeded` 429, `tool_unavailable` 503 there). */
                refusal: {
                    /** @enum {string} */
                    code: "insufficient_credits" | "spend_cap_reached" | "concurrency_exceeded" | "tool_unavailable";
                    message: string;
                } | null;
                /**
                 * @description How long the job would run once a worker takes it (queue wait not included), from this
                 *     deployment's own history: for each tool, the median of `finishedAt − startedAt` over the
                 *     most recent 500 completed runs of that tool (by any account, one-tool jobs and pipeline
                 *     steps alike), kept to those whose input was 0.5× to 2× this input's size when the size is
                 *     known (an uploaded `input.fileId`; a URL is not fetched, so then every size counts, and so
                 *     for a step reading another step's output). A pipeline's is the longest chain of its steps'
                 *     medians (steps reading the same input run side by side). `seconds` is null when any tool has
                 *     fewer than 3 such runs.
                 */
                estimate: {
                    seconds: number | null;
                };
            };
        };
        JobList: {
            jobs: components["schemas"]["Job"][];
            nextCursor: string | null;
        };
        /** @enum {string} */
        WebhookEventType: "submission.created" | "submission.processed" | "submission.scanned" | "submission.quarantined" | "job.completed" | "job.failed";
        /** @description The body of `submission.created`, `submission.processed`, `submission.scanned` and `submission.quarantined`. */
        SubmissionWebhookEvent: {
            /** @enum {string} */
            type: "submission.created" | "submission.processed" | "submission.scanned" | "submission.quarantined";
            /**
             * Format: date-time
             * @description When the event happened (not when this attempt was sent).
             */
            timestamp: string;
            data: {
                drop: {
                    slug: components["schemas"]["DropSlug"];
                    name: string;
                };
                submission: components["schemas"]["Submission"];
            };
        };
        /**
         * @description The body of `job.completed` and `job.failed`; `data.job` is what `GET /v1/jobs/{id}` answers.
         * @example {
         *       "type": "job.completed",
         *       "timestamp": "2026-11-25T20:15:04.120Z",
         *       "data": {
         *         "job": {
         *           "id": "job_3Hk9sLq2Wm7Zx0Pc",
         *           "tool": "video-convert",
         *           "state": "completed",
         *           "progress": 100,
         *           "result": {
         *             "status": "converted",
         *             "outputFormat": null,
         *             "downloadUrl": null,
         *             "expiredAt": null,
         *             "outputSize": null,
         *             "outputs": {
         *               "web": {
         *                 "downloadUrl": "https://dropline.example/files/obj_a?expires=1764105304&signature=9c1f",
         *                 "contentType": "video/mp4",
         *                 "size": 1843211,
         *                 "fileName": "clip-web.mp4",
         *                 "format": "mp4",
         *                 "width": 1280,
         *                 "height": 720,
         *                 "duration": 12.4
         *               },
         *               "poster": {
         *                 "downloadUrl": "https://dropline.example/files/obj_b?expires=1764105304&signature=9c1f",
         *                 "contentType": "image/jpeg",
         *                 "size": 48211,
         *                 "fileName": "clip-poster.jpg",
         *                 "format": "jpeg",
         *                 "width": 1920,
         *                 "height": 1080
         *               }
         *             }
         *           },
         *           "error": null,
         *           "cost": 6,
         *           "refunded": false,
         *           "createdAt": "2026-11-25T20:14:51.002Z",
         *           "startedAt": "2026-11-25T20:14:51.040Z",
         *           "finishedAt": "2026-11-25T20:15:04.101Z",
         *           "queue": "video-standard-queue",
         *           "steps": {
         *             "web": {
         *               "tool": "video-convert",
         *               "input": null,
         *               "state": "completed",
         *               "progress": 100,
         *               "cost": 5,
         *               "startedAt": "2026-11-25T20:14:51.040Z",
         *               "finishedAt": "2026-11-25T20:15:04.101Z",
         *               "error": null,
         *               "result": {
         *                 "status": "converted",
         *                 "outputFormat": "mp4",
         *                 "downloadUrl": "https://dropline.example/files/obj_a?expires=1764105304&signature=9c1f",
         *                 "expiredAt": null,
         *                 "outputSize": 1843211,
         *                 "outputs": {
         *                   "output": {
         *                     "downloadUrl": "https://dropline.example/files/obj_a?expires=1764105304&signature=9c1f",
         *                     "contentType": "video/mp4",
         *                     "size": 1843211,
         *                     "fileName": "clip-web.mp4",
         *                     "format": "mp4"
         *                   }
         *                 }
         *               },
         *               "outputs": {
         *                 "output": {
         *                   "downloadUrl": "https://dropline.example/files/obj_a?expires=1764105304&signature=9c1f",
         *                   "contentType": "video/mp4",
         *                   "size": 1843211,
         *                   "fileName": "clip-web.mp4",
         *                   "format": "mp4"
         *                 }
         *               }
         *             },
         *             "poster": {
         *               "tool": "video-thumbnail",
         *               "input": null,
         *               "state": "completed",
         *               "progress": 100,
         *               "cost": 1,
         *               "startedAt": "2026-11-25T20:14:51.052Z",
         *               "finishedAt": "2026-11-25T20:14:52.610Z",
         *               "error": null,
         *               "result": {
         *                 "status": "converted",
         *                 "outputFormat": "jpeg",
         *                 "downloadUrl": "https://dropline.example/files/obj_b?expires=1764105304&signature=9c1f",
         *                 "expiredAt": null,
         *                 "outputSize": 48211,
         *                 "outputs": {
         *                   "output": {
         *                     "downloadUrl": "https://dropline.example/files/obj_b?expires=1764105304&signature=9c1f",
         *                     "contentType": "image/jpeg",
         *                     "size": 48211,
         *                     "fileName": "clip-poster.jpg",
         *                     "format": "jpeg"
         *                   }
         *                 },
         *                 "width": 1920,
         *                 "height": 1080
         *               },
         *               "outputs": {
         *                 "output": {
         *                   "downloadUrl": "https://dropline.example/files/obj_b?expires=1764105304&signature=9c1f",
         *                   "contentType": "image/jpeg",
         *                   "size": 48211,
         *                   "fileName": "clip-poster.jpg",
         *                   "format": "jpeg"
         *                 }
         *               }
         *             }
         *           }
         *         }
         *       }
         *     }
         */
        JobWebhookEvent: {
            /** @enum {string} */
            type: "job.completed" | "job.failed";
            /** Format: date-time */
            timestamp: string;
            data: {
                job: components["schemas"]["Job"];
            };
        };
        /** @enum {string} */
        WebhookDeliveryStatus: "pending" | "succeeded" | "failed";
        WebhookAttempt: {
            /** Format: date-time */
            attemptedAt: string;
            statusCode: number | null;
            /** @description Why the attempt failed without an answer (a timeout, a refused connection…). `circuit_open: …` when the endpoint's circuit breaker was open: nothing was sent, and the attempt counts in the retry schedule like a timeout would (see the delivery's `circuit`). */
            error: string | null;
            durationMs: number;
        };
        WebhookDelivery: {
            id: string;
            eventType: components["schemas"]["WebhookEventType"];
            url: string;
            status: components["schemas"]["WebhookDeliveryStatus"];
            attempts: components["schemas"]["WebhookAttempt"][];
            /** Format: date-time */
            nextAttemptAt: string | null;
            /** Format: date-time */
            createdAt: string;
            /** @description The circuit breaker of the delivery's endpoint — the receiver's origin (scheme, host and port) as one account uses it; another account's deliveries to the same host have their own breaker. `closed`: deliveries are sent. After `WEBHOOK_BREAKER_THRESHOLD` (default 5) attempts in a row that timed out (`WEBHOOK_TIMEOUT_S`, default 10 s) it is `open` for `WEBHOOK_BREAKER_COOLDOWN_S` (default 60 s): an attempt due meanwhile sends nothing and is recorded with the error `circuit_open: …`; it counts as a failed attempt of the retry schedule (5 s, 5 min, 30 min, 2 h, 5 h, 10 h) and the next one waits at least until the cool-down ends, as a receiver's `Retry-After` would (never longer than the schedule's longest delay). Once the cool-down is over it is `half_open`: the next due attempt is sent as a probe (one at a time); any HTTP answer closes the breaker, a probe that times out opens it for another cool-down. An HTTP answer of any status resets the count of timeouts. The state is the breaker's now, not at the delivery's last attempt; null when it cannot be read (Redis unreachable). */
            circuit: {
                /** @enum {string} */
                state: "closed" | "open" | "half_open";
                /** @description Attempts in a row to this endpoint that timed out. */
                consecutiveTimeouts: number;
                /**
                 * Format: date-time
                 * @description The end of the cool-down (`open`, `half_open`), when the next attempt may go through as a probe; null when `closed`.
                 */
                openUntil: string | null;
            } | null;
        };
        WebhookDeliveryEnvelope: {
            delivery: components["schemas"]["WebhookDelivery"];
        };
        WebhookDeliveryList: {
            deliveries: components["schemas"]["WebhookDelivery"][];
            nextCursor: string | null;
        };
    };
    responses: {
        /** @description `tool_unavailable`: a program the tool (or a step of the pipeline or template) runs is missing on this server; nothing was charged. */
        ToolUnavailable: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The job is queued (or, for an idempotent replay, the original answer), or still in flight after the `Prefer: wait` time. */
        JobAccepted: {
            headers: {
                /**
                 * @description Where to poll the job (its `statusUrl`).
                 * @example /v1/jobs/job_0000000000000000
                 */
                Location?: string;
                "Preference-Applied": components["headers"]["PreferenceAppliedOptional"];
                "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                "RateLimit-Reset": components["headers"]["RateLimitReset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["JobAccepted"];
            };
        };
        /** @description The job reached a final state (completed, failed or canceled) within the `Prefer: wait` time: `id`, `state` and `statusUrl` as in the `202`, and `job`, the body of `GET /v1/jobs/{id}`. */
        JobEndedInTime: {
            headers: {
                "Preference-Applied": components["headers"]["PreferenceApplied"];
                /**
                 * @description The job's address (its `statusUrl`).
                 * @example /v1/jobs/job_0000000000000000
                 */
                Location?: string;
                "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                "RateLimit-Reset": components["headers"]["RateLimitReset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["JobEndedInTime"];
            };
        };
        /** @description With `dryRun=true`: the quote (`JobQuote`), nothing submitted. Otherwise the job reached a final state (completed, failed or canceled) within the `Prefer: wait` time: `id`, `state` and `statusUrl` as in the `202`, and `job`, the body of `GET /v1/jobs/{id}` (`JobEndedInTime`; `Location` and `Preference-Applied` are sent with this form only). */
        JobEndedInTimeOrQuote: {
            headers: {
                "Preference-Applied": components["headers"]["PreferenceAppliedOptional"];
                /**
                 * @description The job's address (its `statusUrl`); not sent with a quote.
                 * @example /v1/jobs/job_0000000000000000
                 */
                Location?: string;
                "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                "RateLimit-Reset": components["headers"]["RateLimitReset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["JobEndedInTime"] | components["schemas"]["JobQuote"];
            };
        };
        /** @description The job: at once, or with `Prefer: wait=N` once it is final or N seconds have passed. */
        JobPolled: {
            headers: {
                "Preference-Applied": components["headers"]["PreferenceAppliedOptional"];
                "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                "RateLimit-Reset": components["headers"]["RateLimitReset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["JobEnvelope"];
            };
        };
        /** @description The job. */
        JobOk: {
            headers: {
                "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                "RateLimit-Reset": components["headers"]["RateLimitReset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["JobEnvelope"];
            };
        };
        /** @description A page of jobs. */
        JobListOk: {
            headers: {
                "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                "RateLimit-Reset": components["headers"]["RateLimitReset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["JobList"];
            };
        };
    };
    parameters: {
        /**
         * @description `true`: answer `200` with a `JobQuote` (the price, whether the account could afford it now,
         *     and a run-time estimate) instead of submitting. The body and every check before admission
         *     are those of a real submission, with the same error statuses (400, 403, 404, 413); a
         *     refusal of the admission itself (`insufficient_credits`, `spend_cap_reached`,
         *     `concurrency_exceeded`, `tool_unavailable`) is the quote's `refusal`, not an error. Nothing
         *     is written (no job, ledger line, idempotency record or in-flight slot; an `Idempotency-Key`
         *     is ignored), no lock is taken and the input is not fetched. `Prefer` is ignored.
         */
        DryRun: boolean;
        /**
         * @description `wait=N` (RFC 7240 §4.3), N an integer from 1 to 60: answer once the job has reached a
         *     final state (completed, failed, canceled) or after N seconds, whichever comes first. The
         *     wait costs no polling and holds nothing but the connection; a client that hangs up stops
         *     it. A preference that cannot be honoured is ignored, not refused (RFC 7240 §2): no `wait`,
         *     a malformed N (`wait=soon`, `wait=1.5`) or one outside 1–60 (`wait=0`, `wait=120`) is
         *     answered at once, as without the header, and without `Preference-Applied`. Other
         *     preferences in the header are ignored; of two `wait`s the first counts.
         */
        PreferWait: string;
        /**
         * @description The drop's password, when it has one (`requiresPassword`): missing is 401
         *     `password_required`, wrong is 403 `wrong_password`; more than 10 wrong tries in a minute
         *     from one address on one drop is 429 `rate_limited` (with `Retry-After`).
         */
        DropPassword: string;
        /**
         * @description Required by the tus protocol (`1.0.0`); missing or another version is 412 `tus_version_unsupported`.
         * @example 1.0.0
         */
        TusResumable: string;
        /**
         * @description The upload's total size in bytes.
         * @example 22
         */
        UploadLength: string;
        /**
         * @description Where these bytes go; must equal the server's offset (from HEAD).
         * @example 0
         */
        UploadOffset: string;
        /**
         * @description tus metadata: comma-separated `key base64(value)` pairs.
         * @example filename bm90ZXMudHh0
         */
        UploadMetadata: string;
        /**
         * @description The upload id (the last segment of the creation's `Location`).
         * @example obj_0000000000000000
         */
        TusUploadId: string;
        /**
         * @description The event's id (`msg_…`), the same on every attempt and replay; use it to drop duplicates.
         * @example msg_0000000000000000
         */
        WebhookIdHeader: string;
        /**
         * @description Unix seconds of this attempt; reject messages too far from your clock (the standardwebhooks libraries allow 5 minutes).
         * @example 1795372200
         */
        WebhookTimestampHeader: string;
        /**
         * @description Space-separated `v1,<base64 HMAC-SHA256>` signatures of `{webhook-id}.{webhook-timestamp}.{body}`
         *     keyed with the account's webhook secret (the base64 part after `whsec_`). Two signatures
         *     for 24 hours after a rotation (new secret, old secret); accept the message if any matches.
         * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
         */
        WebhookSignatureHeader: string;
        /**
         * @description The drop's slug.
         * @example launch-assets
         */
        Slug: string;
        /** @example sub_0000000000000000 */
        SubmissionId: string;
        /** @example job_0000000000000000 */
        JobId: string;
        /** @example tpl_0000000000000000 */
        TemplateId: string;
        /** @description Page size, 1 to 100. */
        Limit: number;
        /** @description The `nextCursor` of the previous page. */
        Cursor: string;
        JobStateFilter: components["schemas"]["JobState"];
        JobToolFilter: components["schemas"]["ToolSlug"];
        /** @description Same as the body's `idempotencyKey`; the body wins when both are given. */
        IdempotencyKey: string;
    };
    requestBodies: {
        JobCreate: {
            content: {
                /**
                 * @example {
                 *       "tool": "image-resize",
                 *       "input": {
                 *         "url": "http://127.0.0.1:3000/healthz"
                 *       },
                 *       "options": {
                 *         "width": 720
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["JobRequest"];
            };
        };
    };
    headers: {
        /** @description The tus protocol version, always `1.0.0`. */
        TusResumable: string;
        /** @description Protocol versions supported. */
        TusVersion: string;
        /** @description tus extensions supported. */
        TusExtension: string;
        /** @description The upload's URL (absolute); its last segment is the upload id. */
        TusLocation: string;
        /** @description Bytes of the upload the server has stored. */
        UploadOffset: number;
        /** @description The upload's total size in bytes. */
        UploadLengthHeader: number;
        /** @description The metadata given at creation (tus encoding). */
        UploadMetadataHeader: string;
        /** @description When an incomplete upload expires (RFC 9110 date); its bytes are removed after it. */
        UploadExpires: string;
        /** @description `no-store` */
        NoStore: string;
        /** @description Requests per second this key may make. */
        RateLimitLimit: number;
        /** @description Requests left in the current window. */
        RateLimitRemaining: number;
        /** @description Seconds until the bucket is full again. */
        RateLimitReset: number;
        /** @description Seconds to wait before retrying. */
        RetryAfter: number;
        /**
         * @description `wait=N` (RFC 7240): the request waited for the job as `Prefer: wait=N` asked. Absent when no wait was asked for or the preference was ignored.
         * @example wait=10
         */
        PreferenceApplied: string;
        /**
         * @description `wait=N` (RFC 7240) when the request waited as `Prefer: wait=N` asked; absent otherwise.
         * @example wait=10
         */
        PreferenceAppliedOptional: string;
    };
    pathItems: never;
};
export type $defs = Record<string, never>;
export interface operations {
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The process is alive. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "ok"
                     *     }
                     */
                    "application/json": components["schemas"]["Health"];
                };
            };
        };
    };
    getReadiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ready to serve. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "ok",
                     *       "checks": {
                     *         "postgres": "ok",
                     *         "redis": "ok",
                     *         "scanning": "ok",
                     *         "ffmpeg": "ok",
                     *         "libreoffice": "ok",
                     *         "poppler": "ok"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Readiness"];
                };
            };
            /** @description A dependency is down. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "unavailable",
                     *       "checks": {
                     *         "postgres": "ok",
                     *         "redis": "down",
                     *         "scanning": "off",
                     *         "ffmpeg": "ok",
                     *         "libreoffice": "missing",
                     *         "poppler": "ok"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Readiness"];
                };
            };
        };
    };
    getAccount: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The account. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "account": {
                     *         "id": "acc_4f2k9d8s7a6q5w3e",
                     *         "plan": "pro",
                     *         "creditBalance": 993,
                     *         "limits": {
                     *           "requestsPerSecond": 20,
                     *           "inFlightJobs": 10,
                     *           "maxFileSizeMB": 500,
                     *           "jobWebhooks": true
                     *         },
                     *         "webhookSecret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
                     *         "createdAt": "2026-11-22T18:00:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["AccountEnvelope"];
                };
            };
            /** @description `unauthorized`: no `Authorization: Bearer …` header; `invalid_key`: unknown key; `revoked`: revoked key; `expired`: expired key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `ip_not_allowed`: the client address is outside the key's allowlist. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: too many requests; see `Retry-After`. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The account with its new secret. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccountEnvelope"];
                };
            };
            /** @description `invalid_json`: the body is not JSON. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: no `Authorization: Bearer …` header; `invalid_key`: unknown key; `revoked`: revoked key; `expired`: expired key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `ip_not_allowed`: the client address is outside the key's allowlist; `insufficient_scope`: the key lacks the scope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: too many requests; see `Retry-After`. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listLedgerEntries: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: components["parameters"]["Limit"];
                /** @description The `nextCursor` of the previous page. */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of ledger entries. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "entries": [
                     *         {
                     *           "id": "42",
                     *           "amount": 1,
                     *           "reason": "job_refund",
                     *           "jobId": "job_3Hk9sLq2Wm7Zx0Pc",
                     *           "createdAt": "2026-11-22T18:30:02.000Z"
                     *         },
                     *         {
                     *           "id": "41",
                     *           "amount": -1,
                     *           "reason": "job_debit",
                     *           "jobId": "job_3Hk9sLq2Wm7Zx0Pc",
                     *           "createdAt": "2026-11-22T18:30:00.000Z"
                     *         }
                     *       ],
                     *       "nextCursor": null
                     *     }
                     */
                    "application/json": components["schemas"]["LedgerEntryList"];
                };
            };
            /** @description `validation_failed`: a parameter or the body breaks the schema (`details` names each problem). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: no `Authorization: Bearer …` header; `invalid_key`: unknown key; `revoked`: revoked key; `expired`: expired key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `ip_not_allowed`: the client address is outside the key's allowlist. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: too many requests; see `Retry-After`. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listDrops: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: components["parameters"]["Limit"];
                /** @description The `nextCursor` of the previous page. */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of drops. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DropList"];
                };
            };
            /** @description `validation_failed`: a parameter or the body breaks the schema (`details` names each problem). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: no `Authorization: Bearer …` header; `invalid_key`: unknown key; `revoked`: revoked key; `expired`: expired key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `ip_not_allowed`: the client address is outside the key's allowlist; `insufficient_scope`: the key lacks the scope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: too many requests; see `Retry-After`. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createDrop: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Launch assets",
                 *       "slug": "launch-assets",
                 *       "description": "Send us your photos from the launch.",
                 *       "allowedKinds": "image",
                 *       "maxFileSizeMB": 20,
                 *       "requireSenderEmail": true,
                 *       "requireMessage": false,
                 *       "autoConvertTo": "webp",
                 *       "autoCompress": false
                 *     }
                 */
                "application/json": components["schemas"]["DropCreate"];
            };
        };
        responses: {
            /** @description The drop was created. */
            201: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DropEnvelope"];
                };
            };
            /** @description `validation_failed`: a parameter or the body breaks the schema, or the JSON body nests objects and arrays deeper than 64 levels, or `processWith` names no template of this account or comes with `autoConvertTo`/`autoCompress` (`details` names each problem); `invalid_json`: the body is not JSON. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: no `Authorization: Bearer …` header; `invalid_key`: unknown key; `revoked`: revoked key; `expired`: expired key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `ip_not_allowed`: the client address is outside the key's allowlist; `insufficient_scope`: the key lacks the scope, or `processWith` is set to a template with a step whose tool needs a scope the key lacks (the message names the first such step and scope). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `slug_taken`: another drop has the slug. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `body_too_large`: the body is over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unsupported_media_type`: wrong Content-Type. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: too many requests; see `Retry-After`. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDrop: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The drop's slug.
                 * @example launch-assets
                 */
                slug: components["parameters"]["Slug"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The drop. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DropEnvelope"];
                };
            };
            /** @description `bad_request`: the URL is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: no `Authorization: Bearer …` header; `invalid_key`: unknown key; `revoked`: revoked key; `expired`: expired key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `ip_not_allowed`: the client address is outside the key's allowlist; `insufficient_scope`: the key lacks the scope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no such resource. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: too many requests; see `Retry-After`. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteDrop: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The drop's slug.
                 * @example launch-assets
                 */
                slug: components["parameters"]["Slug"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `bad_request`: the URL is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: no `Authorization: Bearer …` header; `invalid_key`: unknown key; `revoked`: revoked key; `expired`: expired key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `ip_not_allowed`: the client address is outside the key's allowlist; `insufficient_scope`: the key lacks the scope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no such resource. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: too many requests; see `Retry-After`. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateDrop: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The drop's slug.
                 * @example launch-assets
                 */
                slug: components["parameters"]["Slug"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "description": "Photos and clips from the launch.",
                 *       "emoji": "🚀",
                 *       "accentColor": "#3366FF",
                 *       "isActive": false,
                 *       "expiresAt": null
                 *     }
                 */
                "application/json": components["schemas"]["DropUpdate"];
            };
        };
        responses: {
            /** @description The updated drop. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DropEnvelope"];
                };
            };
            /** @description `validation_failed`: a parameter or the body breaks the schema, or the JSON body nests objects and arrays deeper than 64 levels, or `processWith` names no template of this account or comes with `autoConvertTo`/`autoCompress` (`details` names each problem); `invalid_json`: the body is not JSON. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: no `Authorization: Bearer …` header; `invalid_key`: unknown key; `revoked`: revoked key; `expired`: expired key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `ip_not_allowed`: the client address is outside the key's allowlist; `insufficient_scope`: the key lacks the scope, or `processWith` is set to a template with a step whose tool needs a scope the key lacks (the message names the first such step and scope). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no such resource. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `body_too_large`: the body is over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unsupported_media_type`: wrong Content-Type. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: too many requests; see `Retry-After`. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listDropEvents: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: components["parameters"]["Limit"];
                /** @description The `nextCursor` of the previous page. */
                cursor?: components["parameters"]["Cursor"];
                /** @description Only events of this type. */
                type?: components["schemas"]["DropEventType"];
                /** @description Only events at or after this instant. */
                since?: string;
                /** @description Only events at or before this instant. */
                until?: string;
            };
            header?: never;
            path: {
                /**
                 * @description The drop's slug.
                 * @example launch-assets
                 */
                slug: components["parameters"]["Slug"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of events. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DropEventList"];
                };
            };
            /** @description `validation_failed`: a parameter breaks the schema, or the cursor was not issued by this API (`details` names each problem). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: no `Authorization: Bearer …` header; `invalid_key`: unknown key; `revoked`: revoked key; `expired`: expired key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `ip_not_allowed`: the client address is outside the key's allowlist; `insufficient_scope`: the key lacks the scope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no such drop, or another account's. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: too many requests; see `Retry-After`. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listSubmissions: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: components["parameters"]["Limit"];
                /** @description The `nextCursor` of the previous page. */
                cursor?: components["parameters"]["Cursor"];
                isRead?: boolean;
                isStarred?: boolean;
                isArchived?: boolean;
            };
            header?: never;
            path: {
                /**
                 * @description The drop's slug.
                 * @example launch-assets
                 */
                slug: components["parameters"]["Slug"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of submissions. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SubmissionList"];
                };
            };
            /** @description `validation_failed`: a parameter or the body breaks the schema (`details` names each problem). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: no `Authorization: Bearer …` header; `invalid_key`: unknown key; `revoked`: revoked key; `expired`: expired key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `ip_not_allowed`: the client address is outside the key's allowlist; `insufficient_scope`: the key lacks the scope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no such resource. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: too many requests; see `Retry-After`. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    downloadSubmissionsArchive: {
        parameters: {
            query?: {
                isRead?: boolean;
                isStarred?: boolean;
                isArchived?: boolean;
                processed?: boolean;
            };
            header?: never;
            path: {
                /**
                 * @description The drop's slug.
                 * @example launch-assets
                 */
                slug: components["parameters"]["Slug"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The ZIP. */
            200: {
                headers: {
                    /** @description `attachment; filename="<slug>.zip"` */
                    "Content-Disposition"?: string;
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/zip": string;
                };
            };
            /** @description `validation_failed`: a parameter or the body breaks the schema (`details` names each problem). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: no `Authorization: Bearer …` header; `invalid_key`: unknown key; `revoked`: revoked key; `expired`: expired key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `ip_not_allowed`: the client address is outside the key's allowlist; `insufficient_scope`: the key lacks the scope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no such resource. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: too many requests; see `Retry-After`. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSubmission: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The drop's slug.
                 * @example launch-assets
                 */
                slug: components["parameters"]["Slug"];
                /** @example sub_0000000000000000 */
                id: components["parameters"]["SubmissionId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The submission. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SubmissionEnvelope"];
                };
            };
            /** @description `bad_request`: the URL is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: no `Authorization: Bearer …` header; `invalid_key`: unknown key; `revoked`: revoked key; `expired`: expired key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `ip_not_allowed`: the client address is outside the key's allowlist; `insufficient_scope`: the key lacks the scope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no such resource. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: too many requests; see `Retry-After`. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteSubmission: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The drop's slug.
                 * @example launch-assets
                 */
                slug: components["parameters"]["Slug"];
                /** @example sub_0000000000000000 */
                id: components["parameters"]["SubmissionId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `bad_request`: the URL is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: no `Authorization: Bearer …` header; `invalid_key`: unknown key; `revoked`: revoked key; `expired`: expired key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `ip_not_allowed`: the client address is outside the key's allowlist; `insufficient_scope`: the key lacks the scope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no such resource. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: too many requests; see `Retry-After`. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateSubmission: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The drop's slug.
                 * @example launch-assets
                 */
                slug: components["parameters"]["Slug"];
                /** @example sub_0000000000000000 */
                id: components["parameters"]["SubmissionId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "isRead": true,
                 *       "isStarred": true
                 *     }
                 */
                "application/json": components["schemas"]["SubmissionUpdate"];
            };
        };
        responses: {
            /** @description The updated submission. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SubmissionEnvelope"];
                };
            };
            /** @description `validation_failed`: a parameter or the body breaks the schema, or the JSON body nests objects and arrays deeper than 64 levels (`details` names each problem); `invalid_json`: the body is not JSON. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: no `Authorization: Bearer …` header; `invalid_key`: unknown key; `revoked`: revoked key; `expired`: expired key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `ip_not_allowed`: the client address is outside the key's allowlist; `insufficient_scope`: the key lacks the scope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no such resource. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `body_too_large`: the body is over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unsupported_media_type`: wrong Content-Type. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: too many requests; see `Retry-After`. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSubmissionDownload: {
        parameters: {
            query?: {
                processed?: boolean;
                /** @description The name of one of the submission's `outputs`. */
                output?: string;
            };
            header?: never;
            path: {
                /**
                 * @description The drop's slug.
                 * @example launch-assets
                 */
                slug: components["parameters"]["Slug"];
                /** @example sub_0000000000000000 */
                id: components["parameters"]["SubmissionId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A signed URL. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DownloadLink"];
                };
            };
            /** @description `validation_failed`: a parameter or the body breaks the schema (`details` names each problem). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: no `Authorization: Bearer …` header; `invalid_key`: unknown key; `revoked`: revoked key; `expired`: expired key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `ip_not_allowed`: the client address is outside the key's allowlist; `insufficient_scope`: the key lacks the scope; `quarantined`: the file carries malware. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no such drop or submission, or (`output`) no output of that name. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `processed_unavailable`: no processed file; `scan_pending`: the malware scan has not finished (the answer carries `Retry-After`). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: too many requests; see `Retry-After`. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getPublicDrop: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The drop's password, when it has one (`requiresPassword`): missing is 401
                 *     `password_required`, wrong is 403 `wrong_password`; more than 10 wrong tries in a minute
                 *     from one address on one drop is 429 `rate_limited` (with `Retry-After`).
                 */
                "Drop-Password"?: components["parameters"]["DropPassword"];
            };
            path: {
                /**
                 * @description The drop's slug.
                 * @example launch-assets
                 */
                slug: components["parameters"]["Slug"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The public view. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PublicDropEnvelope"];
                };
            };
            /** @description `bad_request`: the URL is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `password_required`: the drop has a password and none was sent (the body names the drop). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PasswordRequiredError"];
                };
            };
            /** @description `wrong_password`: the password is wrong. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no such resource. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: too many requests; see `Retry-After`. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createPublicSubmission: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The drop's password, when it has one (`requiresPassword`): missing is 401
                 *     `password_required`, wrong is 403 `wrong_password`; more than 10 wrong tries in a minute
                 *     from one address on one drop is 429 `rate_limited` (with `Retry-After`).
                 */
                "Drop-Password"?: components["parameters"]["DropPassword"];
            };
            path: {
                /**
                 * @description The drop's slug.
                 * @example launch-assets
                 */
                slug: components["parameters"]["Slug"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": components["schemas"]["SubmissionForm"];
            };
        };
        responses: {
            /** @description The file was received. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PublicSubmissionEnvelope"];
                };
            };
            /** @description `validation_failed`: a parameter or the body breaks the schema (`details` names each problem); `invalid_multipart`: the multipart body is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `password_required`: the drop has a password and none was sent (the body names the drop). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PasswordRequiredError"];
                };
            };
            /** @description `drop_paused`: the drop is paused; `wrong_password`: the password is wrong. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no such resource. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `drop_full`: the drop has its `maxSubmissions`, or this file would take it past `maxTotalMB`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `drop_expired`: the drop has expired. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `file_too_large`: the file is over the limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unsupported_media_type`: wrong Content-Type; `kind_not_allowed`: the drop does not accept this kind of file. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: too many requests; see `Retry-After`; `too_many_uploads`: too many uploads in progress from this address. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createDropTusUpload: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Required by the tus protocol (`1.0.0`); missing or another version is 412 `tus_version_unsupported`.
                 * @example 1.0.0
                 */
                "Tus-Resumable"?: components["parameters"]["TusResumable"];
                /**
                 * @description The upload's total size in bytes.
                 * @example 22
                 */
                "Upload-Length"?: components["parameters"]["UploadLength"];
                /**
                 * @description tus metadata: comma-separated `key base64(value)` pairs.
                 * @example filename bm90ZXMudHh0
                 */
                "Upload-Metadata"?: components["parameters"]["UploadMetadata"];
                /**
                 * @description The drop's password, when it has one (`requiresPassword`): missing is 401
                 *     `password_required`, wrong is 403 `wrong_password`; more than 10 wrong tries in a minute
                 *     from one address on one drop is 429 `rate_limited` (with `Retry-After`).
                 */
                "Drop-Password"?: components["parameters"]["DropPassword"];
            };
            path: {
                /**
                 * @description The drop's slug.
                 * @example launch-assets
                 */
                slug: components["parameters"]["Slug"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The upload was created. */
            201: {
                headers: {
                    Location: components["headers"]["TusLocation"];
                    "Tus-Resumable": components["headers"]["TusResumable"];
                    "Upload-Expires": components["headers"]["UploadExpires"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `validation_failed`: a parameter or the body breaks the schema (`details` names each problem), or `Upload-Metadata` carries a reserved key; `tus_extension_unsupported`: `Upload-Concat`. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `password_required`: the drop has a password and none was sent (the body names the drop). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PasswordRequiredError"];
                };
            };
            /** @description `drop_paused`: the drop is paused; `wrong_password`: the password is wrong. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no such resource. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `drop_full`: the drop has its `maxSubmissions`, or this file would take it past `maxTotalMB`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `drop_expired`: the drop has expired. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `tus_version_unsupported`: no `Tus-Resumable: 1.0.0`. */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `file_too_large`: the file is over the limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `kind_not_allowed`: the file name's extension is not one the drop takes. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: too many requests; see `Retry-After`; `too_many_uploads`: `PUBLIC_UPLOADS_PER_IP` uploads of this address are in progress (single POSTs and tus requests together, across every API process). */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDropTusOptions: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The drop's slug.
                 * @example launch-assets
                 */
                slug: components["parameters"]["Slug"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description What the server supports. */
            204: {
                headers: {
                    "Tus-Resumable": components["headers"]["TusResumable"];
                    "Tus-Version": components["headers"]["TusVersion"];
                    "Tus-Extension": components["headers"]["TusExtension"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `not_found`: no such resource. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteDropTusUpload: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Required by the tus protocol (`1.0.0`); missing or another version is 412 `tus_version_unsupported`.
                 * @example 1.0.0
                 */
                "Tus-Resumable"?: components["parameters"]["TusResumable"];
            };
            path: {
                /**
                 * @description The drop's slug.
                 * @example launch-assets
                 */
                slug: components["parameters"]["Slug"];
                /**
                 * @description The upload id (the last segment of the creation's `Location`).
                 * @example obj_0000000000000000
                 */
                id: components["parameters"]["TusUploadId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The upload and its bytes are gone. */
            204: {
                headers: {
                    "Tus-Resumable": components["headers"]["TusResumable"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `invalid_tus_request`: a tus header is missing or malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no such resource. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `tus_version_unsupported`: no `Tus-Resumable: 1.0.0`. */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: too many requests from this address, for an id this drop did not admit; see `Retry-After`. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDropTusUploadOffset: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Required by the tus protocol (`1.0.0`); missing or another version is 412 `tus_version_unsupported`.
                 * @example 1.0.0
                 */
                "Tus-Resumable"?: components["parameters"]["TusResumable"];
            };
            path: {
                /**
                 * @description The drop's slug.
                 * @example launch-assets
                 */
                slug: components["parameters"]["Slug"];
                /**
                 * @description The upload id (the last segment of the creation's `Location`).
                 * @example obj_0000000000000000
                 */
                id: components["parameters"]["TusUploadId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The upload's state. */
            200: {
                headers: {
                    "Upload-Offset": components["headers"]["UploadOffset"];
                    "Upload-Length": components["headers"]["UploadLengthHeader"];
                    "Upload-Metadata": components["headers"]["UploadMetadataHeader"];
                    "Tus-Resumable": components["headers"]["TusResumable"];
                    "Cache-Control": components["headers"]["NoStore"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description No such upload on this drop (an empty body, as HEAD has none). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The upload expired (an empty body, as HEAD has none). */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `Tus-Resumable` missing or not 1.0.0. */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Another request (on any API process) still holds this upload and did not let go in time; retry (an empty body, as HEAD has none). */
            423: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Over the per-address request limit (only for an id this drop did not admit), or `PUBLIC_UPLOADS_PER_IP` uploads of this address are in progress (an empty body, as HEAD has none); see `Retry-After`. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    appendDropTusUpload: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Required by the tus protocol (`1.0.0`); missing or another version is 412 `tus_version_unsupported`.
                 * @example 1.0.0
                 */
                "Tus-Resumable"?: components["parameters"]["TusResumable"];
                /**
                 * @description Where these bytes go; must equal the server's offset (from HEAD).
                 * @example 0
                 */
                "Upload-Offset"?: components["parameters"]["UploadOffset"];
            };
            path: {
                /**
                 * @description The drop's slug.
                 * @example launch-assets
                 */
                slug: components["parameters"]["Slug"];
                /**
                 * @description The upload id (the last segment of the creation's `Location`).
                 * @example obj_0000000000000000
                 */
                id: components["parameters"]["TusUploadId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/offset+octet-stream": string;
            };
        };
        responses: {
            /** @description The bytes were stored. While the upload is incomplete the answer also carries `Upload-Expires`. */
            204: {
                headers: {
                    "Upload-Offset": components["headers"]["UploadOffset"];
                    "Tus-Resumable": components["headers"]["TusResumable"];
                    /** @description On the PATCH that completed the upload, the submission it became. */
                    "Dropline-Submission-Id"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `validation_failed`: a parameter or the body breaks the schema (`details` names each problem). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `drop_paused`: the drop is paused; `invalid_tus_request`: a tus header is missing or malformed. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no such resource. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `offset_mismatch`: `Upload-Offset` is not the server's offset; ask with HEAD. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `drop_expired`: the drop has expired. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `tus_version_unsupported`: no `Tus-Resumable: 1.0.0`. */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `file_too_large`: the file is over the limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `kind_not_allowed`: the drop does not accept this kind of file. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `upload_locked`: another request (on any API process) still holds this upload and did not let go in time (a stalled PATCH is asked to stop, and stops); retry — tus clients do. */
            423: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: too many requests from this address (only for an id this drop did not admit); see `Retry-After`; `too_many_uploads`: `PUBLIC_UPLOADS_PER_IP` uploads of this address are in progress (single POSTs and tus requests together, across every API process). */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDropPage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The drop's slug.
                 * @example launch-assets
                 */
                slug: components["parameters"]["Slug"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description No such drop (an HTML page). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Too many requests from this address (PUBLIC_RATE_LIMIT per second); an HTML page asking to retry. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
        };
    };
    downloadFile: {
        parameters: {
            query: {
                /**
                 * @description Unix time in seconds after which the URL stops working.
                 * @example 4102444800
                 */
                expires: number;
                /**
                 * @description File name sent in Content-Disposition.
                 * @example photo.jpg
                 */
                name: string;
                /**
                 * @description Base64url HMAC-SHA256 signature.
                 * @example AAAA
                 */
                sig: string;
                /**
                 * @description The file's sniffed media type, sent as Content-Type (signed like the rest).
                 * @example image/png
                 */
                type?: string;
            };
            header?: {
                Range?: string;
            };
            path: {
                /**
                 * @description Opaque storage key, as issued in a signed URL.
                 * @example obj_0000000000000000000000
                 */
                key: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The whole file. */
            200: {
                headers: {
                    "Content-Disposition"?: string;
                    "Accept-Ranges"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": string;
                    "*/*": string;
                };
            };
            /** @description The requested byte range. */
            206: {
                headers: {
                    "Content-Range"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": string;
                    "*/*": string;
                };
            };
            /** @description Not modified — the `If-None-Match` ETag or the `If-Modified-Since` date still matches. */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `validation_failed`: a parameter or the body breaks the schema (`details` names each problem). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `invalid_signature`: the URL was altered; `url_expired`: the URL has expired; `quarantined`: the malware scan found the file (or the submission it was made of) infected after the URL was signed — no URL serves a quarantined file. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no such resource. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `output_expired`: the file was a job output and retention removed it. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `range_not_satisfiable`: the range is outside the file. */
            416: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    headFile: {
        parameters: {
            query: {
                /**
                 * @description Unix time in seconds after which the URL stops working.
                 * @example 4102444800
                 */
                expires: number;
                /**
                 * @description File name sent in Content-Disposition.
                 * @example photo.jpg
                 */
                name: string;
                /**
                 * @description Base64url HMAC-SHA256 signature.
                 * @example AAAA
                 */
                sig: string;
                /**
                 * @description The file's sniffed media type, sent as Content-Type (signed like the rest).
                 * @example image/png
                 */
                type?: string;
            };
            header?: never;
            path: {
                /**
                 * @description Opaque storage key, as issued in a signed URL.
                 * @example obj_0000000000000000000000
                 */
                key: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The headers of the whole file, as `GET` sends them. */
            200: {
                headers: {
                    /** @description The file's size in bytes. */
                    "Content-Length"?: number;
                    "Content-Disposition"?: string;
                    "Accept-Ranges"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not modified — the `If-None-Match` ETag or the `If-Modified-Since` date still matches. */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `validation_failed`: a parameter breaks the schema (a URL without its signature). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `invalid_signature`: the URL was altered; `url_expired`: the URL has expired; `quarantined`: the file was found infected. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `not_found`: no such file (or S3 storage, whose URLs point at the store). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `output_expired`: the job's output was removed by retention. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    createUpload: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": components["schemas"]["UploadForm"];
            };
        };
        responses: {
            /** @description The file was stored. */
            201: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UploadEnvelope"];
                };
            };
            /** @description `validation_failed`: a parameter or the body breaks the schema (`details` names each problem); `invalid_multipart`: the multipart body is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: no `Authorization: Bearer …` header; `invalid_key`: unknown key; `revoked`: revoked key; `expired`: expired key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `ip_not_allowed`: the client address is outside the key's allowlist; `insufficient_scope`: the key lacks the scope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `file_too_large`: the file is over the limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unsupported_media_type`: wrong Content-Type. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: too many requests; see `Retry-After`. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createTusUpload: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Required by the tus protocol (`1.0.0`); missing or another version is 412 `tus_version_unsupported`.
                 * @example 1.0.0
                 */
                "Tus-Resumable"?: components["parameters"]["TusResumable"];
                /**
                 * @description The upload's total size in bytes.
                 * @example 22
                 */
                "Upload-Length"?: components["parameters"]["UploadLength"];
                /**
                 * @description tus metadata: comma-separated `key base64(value)` pairs.
                 * @example filename bm90ZXMudHh0
                 */
                "Upload-Metadata"?: components["parameters"]["UploadMetadata"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The upload was created. */
            201: {
                headers: {
                    Location: components["headers"]["TusLocation"];
                    "Tus-Resumable": components["headers"]["TusResumable"];
                    "Upload-Expires": components["headers"]["UploadExpires"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `validation_failed`: a parameter or the body breaks the schema (`details` names each problem), or `Upload-Metadata` carries a reserved key; `invalid_tus_request`: a tus header is missing or malformed; `tus_extension_unsupported`: `Upload-Concat`. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: no `Authorization: Bearer …` header; `invalid_key`: unknown key; `revoked`: revoked key; `expired`: expired key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `ip_not_allowed`: the client address is outside the key's allowlist; `insufficient_scope`: the key lacks the scope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `tus_version_unsupported`: no `Tus-Resumable: 1.0.0`. */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `file_too_large`: the file is over the limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: too many requests; see `Retry-After`. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getUploadTusOptions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description What the server supports. */
            204: {
                headers: {
                    "Tus-Resumable": components["headers"]["TusResumable"];
                    "Tus-Version": components["headers"]["TusVersion"];
                    "Tus-Extension": components["headers"]["TusExtension"];
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    deleteTusUpload: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Required by the tus protocol (`1.0.0`); missing or another version is 412 `tus_version_unsupported`.
                 * @example 1.0.0
                 */
                "Tus-Resumable"?: components["parameters"]["TusResumable"];
            };
            path: {
                /**
                 * @description The upload id (the last segment of the creation's `Location`).
                 * @example obj_0000000000000000
                 */
                id: components["parameters"]["TusUploadId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The upload and its bytes are gone. */
            204: {
                headers: {
                    "Tus-Resumable": components["headers"]["TusResumable"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `invalid_tus_request`: a tus header is missing or malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: no `Authorization: Bearer …` header; `invalid_key`: unknown key; `revoked`: revoked key; `expired`: expired key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `ip_not_allowed`: the client address is outside the key's allowlist; `insufficient_scope`: the key lacks the scope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no such resource. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `tus_version_unsupported`: no `Tus-Resumable: 1.0.0`. */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: too many requests; see `Retry-After`. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getTusUploadOffset: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Required by the tus protocol (`1.0.0`); missing or another version is 412 `tus_version_unsupported`.
                 * @example 1.0.0
                 */
                "Tus-Resumable"?: components["parameters"]["TusResumable"];
            };
            path: {
                /**
                 * @description The upload id (the last segment of the creation's `Location`).
                 * @example obj_0000000000000000
                 */
                id: components["parameters"]["TusUploadId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The upload's state. */
            200: {
                headers: {
                    "Upload-Offset": components["headers"]["UploadOffset"];
                    "Upload-Length": components["headers"]["UploadLengthHeader"];
                    "Tus-Resumable": components["headers"]["TusResumable"];
                    "Cache-Control": components["headers"]["NoStore"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description No or an invalid API key (an empty body, as HEAD has none). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description No such upload for this account (an empty body). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `Tus-Resumable` missing or not 1.0.0. */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Too many requests for the key, or too many failed authentications from this address (an empty body); see `Retry-After`. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    appendTusUpload: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Required by the tus protocol (`1.0.0`); missing or another version is 412 `tus_version_unsupported`.
                 * @example 1.0.0
                 */
                "Tus-Resumable"?: components["parameters"]["TusResumable"];
                /**
                 * @description Where these bytes go; must equal the server's offset (from HEAD).
                 * @example 0
                 */
                "Upload-Offset"?: components["parameters"]["UploadOffset"];
            };
            path: {
                /**
                 * @description The upload id (the last segment of the creation's `Location`).
                 * @example obj_0000000000000000
                 */
                id: components["parameters"]["TusUploadId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/offset+octet-stream": string;
            };
        };
        responses: {
            /** @description The bytes were stored. While the upload is incomplete the answer also carries `Upload-Expires`. */
            204: {
                headers: {
                    "Upload-Offset": components["headers"]["UploadOffset"];
                    "Tus-Resumable": components["headers"]["TusResumable"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `validation_failed`: a parameter or the body breaks the schema (`details` names each problem). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: no `Authorization: Bearer …` header; `invalid_key`: unknown key; `revoked`: revoked key; `expired`: expired key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `ip_not_allowed`: the client address is outside the key's allowlist; `insufficient_scope`: the key lacks the scope; `invalid_tus_request`: a tus header is missing or malformed. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no such resource. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `offset_mismatch`: `Upload-Offset` is not the server's offset; ask with HEAD. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `upload_expired`: the upload expired. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `tus_version_unsupported`: no `Tus-Resumable: 1.0.0`. */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `file_too_large`: the file is over the limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: too many requests; see `Retry-After`. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listTools: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The tools. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolList"];
                };
            };
        };
    };
    listJobs: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: components["parameters"]["Limit"];
                /** @description The `nextCursor` of the previous page. */
                cursor?: components["parameters"]["Cursor"];
                state?: components["parameters"]["JobStateFilter"];
                tool?: components["parameters"]["JobToolFilter"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["JobListOk"];
            /** @description `validation_failed`: a parameter or the body breaks the schema (`details` names each problem). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: no `Authorization: Bearer …` header; `invalid_key`: unknown key; `revoked`: revoked key; `expired`: expired key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `ip_not_allowed`: the client address is outside the key's allowlist. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: too many requests; see `Retry-After`. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createJob: {
        parameters: {
            query?: {
                /**
                 * @description `true`: answer `200` with a `JobQuote` (the price, whether the account could afford it now,
                 *     and a run-time estimate) instead of submitting. The body and every check before admission
                 *     are those of a real submission, with the same error statuses (400, 403, 404, 413); a
                 *     refusal of the admission itself (`insufficient_credits`, `spend_cap_reached`,
                 *     `concurrency_exceeded`, `tool_unavailable`) is the quote's `refusal`, not an error. Nothing
                 *     is written (no job, ledger line, idempotency record or in-flight slot; an `Idempotency-Key`
                 *     is ignored), no lock is taken and the input is not fetched. `Prefer` is ignored.
                 */
                dryRun?: components["parameters"]["DryRun"];
            };
            header?: {
                /** @description Same as the body's `idempotencyKey`; the body wins when both are given. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /**
                 * @description `wait=N` (RFC 7240 §4.3), N an integer from 1 to 60: answer once the job has reached a
                 *     final state (completed, failed, canceled) or after N seconds, whichever comes first. The
                 *     wait costs no polling and holds nothing but the connection; a client that hangs up stops
                 *     it. A preference that cannot be honoured is ignored, not refused (RFC 7240 §2): no `wait`,
                 *     a malformed N (`wait=soon`, `wait=1.5`) or one outside 1–60 (`wait=0`, `wait=120`) is
                 *     answered at once, as without the header, and without `Preference-Applied`. Other
                 *     preferences in the header are ignored; of two `wait`s the first counts.
                 */
                Prefer?: components["parameters"]["PreferWait"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: components["requestBodies"]["JobCreate"];
        responses: {
            200: components["responses"]["JobEndedInTimeOrQuote"];
            202: components["responses"]["JobAccepted"];
            /** @description `validation_failed`: a parameter or the body breaks the schema, or the JSON body nests objects and arrays deeper than 64 levels (`details` names each problem); `invalid_json`: the body is not JSON; `unknown_tool`: `tool` names no tool; `invalid_pipeline`: steps that cannot run (see the description), or two of `tool`, `steps`, `template`; `missing_input`: neither `input.url` nor `input.fileId`; `unsupported_input`: the upload is of another kind than the tool's. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: no `Authorization: Bearer …` header; `invalid_key`: unknown key; `revoked`: revoked key; `expired`: expired key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `insufficient_credits`: too few credits; `spend_cap_reached`: over the key's daily or monthly spend cap. */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `ip_not_allowed`: the client address is outside the key's allowlist; `insufficient_scope`: the key lacks the scope; `plan_not_eligible`: `webhookUrl` on the free plan. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: the `template` does not exist or is another account's. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `idempotency_conflict`: the key was used with another body. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `body_too_large`: the body is over 1 MiB; `file_too_large`: the uploaded `input.fileId` is larger than the plan's upload limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unsupported_media_type`: wrong Content-Type. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: too many requests; see `Retry-After`; `concurrency_exceeded`: the plan's jobs in flight are all taken. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `enqueue_failed`: the job could not be queued (credits refunded, no job kept). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            503: components["responses"]["ToolUnavailable"];
        };
    };
    getJob: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description `wait=N` (RFC 7240 §4.3), N an integer from 1 to 60: answer once the job has reached a
                 *     final state (completed, failed, canceled) or after N seconds, whichever comes first. The
                 *     wait costs no polling and holds nothing but the connection; a client that hangs up stops
                 *     it. A preference that cannot be honoured is ignored, not refused (RFC 7240 §2): no `wait`,
                 *     a malformed N (`wait=soon`, `wait=1.5`) or one outside 1–60 (`wait=0`, `wait=120`) is
                 *     answered at once, as without the header, and without `Preference-Applied`. Other
                 *     preferences in the header are ignored; of two `wait`s the first counts.
                 */
                Prefer?: components["parameters"]["PreferWait"];
            };
            path: {
                /** @example job_0000000000000000 */
                id: components["parameters"]["JobId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["JobPolled"];
            /** @description `bad_request`: the URL is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: no `Authorization: Bearer …` header; `invalid_key`: unknown key; `revoked`: revoked key; `expired`: expired key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `ip_not_allowed`: the client address is outside the key's allowlist. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no such resource. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: too many requests; see `Retry-After`. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    cancelJob: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example job_0000000000000000 */
                id: components["parameters"]["JobId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["JobOk"];
            /** @description `invalid_json`: the body is not JSON. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: no `Authorization: Bearer …` header; `invalid_key`: unknown key; `revoked`: revoked key; `expired`: expired key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `ip_not_allowed`: the client address is outside the key's allowlist. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no such resource. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `cannot_cancel`: the job is no longer queued. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: too many requests; see `Retry-After`. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    apiListJobs: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: components["parameters"]["Limit"];
                /** @description The `nextCursor` of the previous page. */
                cursor?: components["parameters"]["Cursor"];
                state?: components["parameters"]["JobStateFilter"];
                tool?: components["parameters"]["JobToolFilter"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["JobListOk"];
            /** @description `validation_failed`: a parameter or the body breaks the schema (`details` names each problem). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: no `Authorization: Bearer …` header; `invalid_key`: unknown key; `revoked`: revoked key; `expired`: expired key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `ip_not_allowed`: the client address is outside the key's allowlist. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: too many requests; see `Retry-After`. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    apiCreateJob: {
        parameters: {
            query?: {
                /**
                 * @description `true`: answer `200` with a `JobQuote` (the price, whether the account could afford it now,
                 *     and a run-time estimate) instead of submitting. The body and every check before admission
                 *     are those of a real submission, with the same error statuses (400, 403, 404, 413); a
                 *     refusal of the admission itself (`insufficient_credits`, `spend_cap_reached`,
                 *     `concurrency_exceeded`, `tool_unavailable`) is the quote's `refusal`, not an error. Nothing
                 *     is written (no job, ledger line, idempotency record or in-flight slot; an `Idempotency-Key`
                 *     is ignored), no lock is taken and the input is not fetched. `Prefer` is ignored.
                 */
                dryRun?: components["parameters"]["DryRun"];
            };
            header?: {
                /** @description Same as the body's `idempotencyKey`; the body wins when both are given. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /**
                 * @description `wait=N` (RFC 7240 §4.3), N an integer from 1 to 60: answer once the job has reached a
                 *     final state (completed, failed, canceled) or after N seconds, whichever comes first. The
                 *     wait costs no polling and holds nothing but the connection; a client that hangs up stops
                 *     it. A preference that cannot be honoured is ignored, not refused (RFC 7240 §2): no `wait`,
                 *     a malformed N (`wait=soon`, `wait=1.5`) or one outside 1–60 (`wait=0`, `wait=120`) is
                 *     answered at once, as without the header, and without `Preference-Applied`. Other
                 *     preferences in the header are ignored; of two `wait`s the first counts.
                 */
                Prefer?: components["parameters"]["PreferWait"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: components["requestBodies"]["JobCreate"];
        responses: {
            200: components["responses"]["JobEndedInTimeOrQuote"];
            202: components["responses"]["JobAccepted"];
            /** @description `validation_failed`: a parameter or the body breaks the schema, or the JSON body nests objects and arrays deeper than 64 levels (`details` names each problem); `invalid_json`: the body is not JSON; `unknown_tool`: `tool` names no tool; `invalid_pipeline`: steps that cannot run (see the description), or two of `tool`, `steps`, `template`; `missing_input`: neither `input.url` nor `input.fileId`; `unsupported_input`: the upload is of another kind than the tool's. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: no `Authorization: Bearer …` header; `invalid_key`: unknown key; `revoked`: revoked key; `expired`: expired key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `insufficient_credits`: too few credits; `spend_cap_reached`: over the key's daily or monthly spend cap. */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `ip_not_allowed`: the client address is outside the key's allowlist; `insufficient_scope`: the key lacks the scope; `plan_not_eligible`: `webhookUrl` on the free plan. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: the `template` does not exist or is another account's. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `idempotency_conflict`: the key was used with another body. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `body_too_large`: the body is over 1 MiB; `file_too_large`: the uploaded `input.fileId` is larger than the plan's upload limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unsupported_media_type`: wrong Content-Type. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: too many requests; see `Retry-After`; `concurrency_exceeded`: the plan's jobs in flight are all taken. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `enqueue_failed`: the job could not be queued (credits refunded, no job kept). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            503: components["responses"]["ToolUnavailable"];
        };
    };
    apiGetJob: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description `wait=N` (RFC 7240 §4.3), N an integer from 1 to 60: answer once the job has reached a
                 *     final state (completed, failed, canceled) or after N seconds, whichever comes first. The
                 *     wait costs no polling and holds nothing but the connection; a client that hangs up stops
                 *     it. A preference that cannot be honoured is ignored, not refused (RFC 7240 §2): no `wait`,
                 *     a malformed N (`wait=soon`, `wait=1.5`) or one outside 1–60 (`wait=0`, `wait=120`) is
                 *     answered at once, as without the header, and without `Preference-Applied`. Other
                 *     preferences in the header are ignored; of two `wait`s the first counts.
                 */
                Prefer?: components["parameters"]["PreferWait"];
            };
            path: {
                /** @example job_0000000000000000 */
                id: components["parameters"]["JobId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["JobPolled"];
            /** @description `bad_request`: the URL is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: no `Authorization: Bearer …` header; `invalid_key`: unknown key; `revoked`: revoked key; `expired`: expired key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `ip_not_allowed`: the client address is outside the key's allowlist. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no such resource. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: too many requests; see `Retry-After`. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    apiCancelJob: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example job_0000000000000000 */
                id: components["parameters"]["JobId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["JobOk"];
            /** @description `invalid_json`: the body is not JSON. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: no `Authorization: Bearer …` header; `invalid_key`: unknown key; `revoked`: revoked key; `expired`: expired key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `ip_not_allowed`: the client address is outside the key's allowlist. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no such resource. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `cannot_cancel`: the job is no longer queued. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: too many requests; see `Retry-After`. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listTemplates: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: components["parameters"]["Limit"];
                /** @description The `nextCursor` of the previous page. */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of templates. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TemplateList"];
                };
            };
            /** @description `validation_failed`: a parameter breaks the schema (`details` names each problem). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: no `Authorization: Bearer …` header; `invalid_key`: unknown key; `revoked`: revoked key; `expired`: expired key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `ip_not_allowed`: the client address is outside the key's allowlist; `insufficient_scope`: the key lacks the scope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: too many requests; see `Retry-After`. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createTemplate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Web-ready image",
                 *       "steps": {
                 *         "webp": {
                 *           "tool": "image-convert",
                 *           "options": {
                 *             "format": "webp",
                 *             "quality": 80
                 *           }
                 *         },
                 *         "small": {
                 *           "tool": "image-resize",
                 *           "input": "webp",
                 *           "options": {
                 *             "width": 320
                 *           }
                 *         }
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["TemplateCreate"];
            };
        };
        responses: {
            /** @description The template. */
            201: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TemplateEnvelope"];
                };
            };
            /** @description `validation_failed`: a parameter or the body breaks the schema, or the JSON body nests objects and arrays deeper than 64 levels (`details` names each problem); `invalid_json`: the body is not JSON; `invalid_pipeline`: the steps cannot run (too many, a bad name, an unknown tool, a reference to no step, a cycle, a step reading a kind its tool does not take; `details` names the step). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: no `Authorization: Bearer …` header; `invalid_key`: unknown key; `revoked`: revoked key; `expired`: expired key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `ip_not_allowed`: the client address is outside the key's allowlist; `insufficient_scope`: the key lacks the scope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `body_too_large`: the body is over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unsupported_media_type`: wrong Content-Type. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: too many requests; see `Retry-After`. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getTemplate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example tpl_0000000000000000 */
                id: components["parameters"]["TemplateId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The template. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TemplateEnvelope"];
                };
            };
            /** @description `bad_request`: the URL is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: no `Authorization: Bearer …` header; `invalid_key`: unknown key; `revoked`: revoked key; `expired`: expired key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `ip_not_allowed`: the client address is outside the key's allowlist; `insufficient_scope`: the key lacks the scope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no such template, or another account's. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: too many requests; see `Retry-After`. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteTemplate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example tpl_0000000000000000 */
                id: components["parameters"]["TemplateId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `bad_request`: the URL is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: no `Authorization: Bearer …` header; `invalid_key`: unknown key; `revoked`: revoked key; `expired`: expired key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `ip_not_allowed`: the client address is outside the key's allowlist; `insufficient_scope`: the key lacks the scope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no such template, or another account's. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: too many requests; see `Retry-After`. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateTemplate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example tpl_0000000000000000 */
                id: components["parameters"]["TemplateId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Web-ready image (320 px)"
                 *     }
                 */
                "application/json": components["schemas"]["TemplateUpdate"];
            };
        };
        responses: {
            /** @description The updated template. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TemplateEnvelope"];
                };
            };
            /** @description `validation_failed`: a parameter or the body breaks the schema, or the JSON body nests objects and arrays deeper than 64 levels (`details` names each problem); `invalid_json`: the body is not JSON; `invalid_pipeline`: the steps cannot run (too many, a bad name, an unknown tool, a reference to no step, a cycle, a step reading a kind its tool does not take; `details` names the step). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: no `Authorization: Bearer …` header; `invalid_key`: unknown key; `revoked`: revoked key; `expired`: expired key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `ip_not_allowed`: the client address is outside the key's allowlist; `insufficient_scope`: the key lacks the scope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no such template, or another account's. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `body_too_large`: the body is over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unsupported_media_type`: wrong Content-Type. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: too many requests; see `Retry-After`. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100. */
                limit?: components["parameters"]["Limit"];
                /** @description The `nextCursor` of the previous page. */
                cursor?: components["parameters"]["Cursor"];
                status?: components["schemas"]["WebhookDeliveryStatus"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of deliveries. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryList"];
                };
            };
            /** @description `validation_failed`: a parameter or the body breaks the schema (`details` names each problem). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: no `Authorization: Bearer …` header; `invalid_key`: unknown key; `revoked`: revoked key; `expired`: expired key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `ip_not_allowed`: the client address is outside the key's allowlist; `insufficient_scope`: the key lacks the scope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: too many requests; see `Retry-After`. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    replayWebhookDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example whd_0000000000000000 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A new attempt is queued. */
            202: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryEnvelope"];
                };
            };
            /** @description `invalid_json`: the body is not JSON. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: no `Authorization: Bearer …` header; `invalid_key`: unknown key; `revoked`: revoked key; `expired`: expired key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `ip_not_allowed`: the client address is outside the key's allowlist; `insufficient_scope`: the key lacks the scope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no such resource. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: too many requests; see `Retry-After`. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
}
