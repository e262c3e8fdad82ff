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
         * @description Any valid key may read its own account (plan and credit balance). Scope — none.
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
         *     it. `emoji`, `accentColor` and `isActive` are set through PATCH only.
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
         */
        patch: operations["updateDrop"];
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
         *     processing not finished, or failed).
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
         * @description No authentication. What a sender needs to know before sending a file.
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
         * @description No authentication; rate-limited per client IP. Multipart with the text fields first and
         *     one `file` part last. Checks, in order: the drop exists (404), is active (403
         *     `drop_paused`), is not expired (410 `drop_expired`), the required sender fields are
         *     present (400 `validation_failed`), the file fits `maxFileSizeMB` (413
         *     `file_too_large`, cut off while streaming, nothing kept), and its kind — sniffed from
         *     the bytes, not the client's MIME type — is allowed (415 `kind_not_allowed`).
         */
        post: operations["createPublicSubmission"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
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
         *     file name and the expiry; a tampered or expired URL is 403 `invalid_signature` /
         *     `url_expired`. Supports `Range` requests. No bearer token: the signature is the credential.
         */
        get: operations["downloadFile"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
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
    "/v1/tools": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the media tools
         * @description Each tool's cost, required scope, queue kind, options and output formats. Scope — none.
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
         * @description Scope by tool: `image:write` (image-resize, image-convert), `video:write`
         *     (video-convert), `audio:write` (audio-compress). Checks after authentication, in order:
         *     400 `unknown_tool`, 400 `missing_input`, 400 `validation_failed` (option values; unknown
         *     option keys are ignored), 403 `insufficient_scope`, 403 `plan_not_eligible` (a
         *     `webhookUrl` on the free plan), idempotency replay (200/202 with the original body) or
         *     409 `idempotency_conflict`, 402 `insufficient_credits`, 402 `spend_cap_reached`, 429
         *     `concurrency_exceeded`, 500 `enqueue_failed`. The cost is debited on acceptance and
         *     refunded on failure or cancel.
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
         * @description Only the key that created the job may read it; for any other key it is 404 `not_found`. `result.downloadUrl` is signed afresh at each poll and valid for one hour. Scope — none.
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
         * @description A queued job becomes `canceled` and its credits are refunded. A running or finished job is 409 `cannot_cancel`. Scope — none.
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
         * @description Scope by tool: `image:write` (image-resize, image-convert), `video:write`
         *     (video-convert), `audio:write` (audio-compress). Checks after authentication, in order:
         *     400 `unknown_tool`, 400 `missing_input`, 400 `validation_failed` (option values; unknown
         *     option keys are ignored), 403 `insufficient_scope`, 403 `plan_not_eligible` (a
         *     `webhookUrl` on the free plan), idempotency replay (200/202 with the original body) or
         *     409 `idempotency_conflict`, 402 `insufficient_credits`, 402 `spend_cap_reached`, 429
         *     `concurrency_exceeded`, 500 `enqueue_failed`. The cost is debited on acceptance and
         *     refunded on failure or cancel. Alias of the `/v1` operation.
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
         * @description Only the key that created the job may read it; for any other key it is 404 `not_found`. `result.downloadUrl` is signed afresh at each poll and valid for one hour. Scope — none. Alias of the `/v1` operation.
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
         * @description A queued job becomes `canceled` and its credits are refunded. A running or finished job is 409 `cannot_cancel`. Scope — none. Alias of the `/v1` operation.
         */
        post: operations["apiCancelJob"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
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
         * @description Drop and job webhook deliveries of the account, newest first, with every attempt. Scope `webhooks:read`.
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
                /** @description Stable machine-readable code. */
                code: string;
                /** @description Human-readable explanation. */
                message: string;
                details?: {
                    path: string;
                    message: string;
                }[];
            };
        };
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
            };
        };
        /** @enum {string} */
        Plan: "free" | "pro" | "max";
        Account: {
            /** @example acc_4f2k9d8s7a6q5w3e */
            id: string;
            plan: components["schemas"]["Plan"];
            creditBalance: number;
            /** Format: date-time */
            createdAt: string;
        };
        /** @enum {string} */
        DropKind: "any" | "image" | "video" | "audio" | "document";
        /** @enum {string} */
        FileKind: "image" | "video" | "audio" | "document";
        /**
         * @description image: jpeg, png, webp, avif; video: mp4, webm; audio: mp3, aac, opus, wav.
         * @enum {string}
         */
        ConvertFormat: "jpeg" | "png" | "webp" | "avif" | "mp4" | "webm" | "mp3" | "aac" | "opus" | "wav";
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
            webhookUrl: string | null;
            /** Format: date-time */
            expiresAt: string | null;
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
            allowedKinds?: components["schemas"]["DropKind"];
            /** @description 1 to the plan's upload limit (free 25, pro 500, max 2048). Defaults to the plan's limit. */
            maxFileSizeMB?: number;
            requireSenderEmail?: boolean;
            requireMessage?: boolean;
            /**
             * @description Must be a format of a kind `allowedKinds` admits.
             * @enum {string|null}
             */
            autoConvertTo?: "jpeg" | "png" | "webp" | "avif" | "mp4" | "webm" | "mp3" | "aac" | "opus" | "wav" | null;
            autoCompress?: boolean;
            /** Format: uri */
            webhookUrl?: string | null;
            /**
             * Format: date-time
             * @description Must be in the future.
             */
            expiresAt?: string | null;
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
            autoConvertTo?: "jpeg" | "png" | "webp" | "avif" | "mp4" | "webm" | "mp3" | "aac" | "opus" | "wav" | null;
            autoCompress?: boolean;
            /** Format: uri */
            webhookUrl?: string | null;
            /** Format: date-time */
            expiresAt?: string | null;
        };
        DropEnvelope: {
            drop: components["schemas"]["Drop"];
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
            /** @description False when the drop is paused or expired. */
            acceptingSubmissions: boolean;
        };
        PublicDropEnvelope: {
            drop: components["schemas"]["PublicDrop"];
        };
        /** @enum {string} */
        SubmissionStatus: "ready" | "processing" | "failed";
        Submission: {
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
            isRead: boolean;
            isStarred: boolean;
            isArchived: boolean;
            /** Format: date-time */
            createdAt: string;
        };
        SubmissionEnvelope: {
            submission: components["schemas"]["Submission"];
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
            file: "original" | "processed";
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
        ToolSlug: "image-resize" | "image-convert" | "video-convert" | "audio-compress";
        Tool: {
            slug: components["schemas"]["ToolSlug"];
            /** @enum {string} */
            kind: "image" | "video" | "audio";
            /** @example image-standard-queue */
            queue: string;
            /** @example image:write */
            scope: string;
            /** @description Credits debited per job. */
            cost: number;
            /** @description JSON Schema of the tool's options. */
            options: {
                [key: string]: unknown;
            };
            outputFormats: string[];
        };
        ToolList: {
            tools: components["schemas"]["Tool"][];
        };
        /** @description Width and/or height in pixels (at least one). `maintainAspectRatio` (default true) fits inside the box; false stretches to it. Output keeps the input's format. */
        ImageResizeOptions: {
            width?: number;
            height?: number;
            /** @default true */
            maintainAspectRatio: boolean;
        } | unknown | unknown;
        ImageConvertOptions: {
            /**
             * @default webp
             * @enum {string}
             */
            format: "jpeg" | "png" | "webp" | "avif" | "tiff" | "gif";
            /** @default 80 */
            quality: number;
        };
        VideoConvertOptions: {
            /**
             * @default mp4
             * @enum {string}
             */
            format: "mp4" | "webm" | "mov";
            /**
             * @default medium
             * @enum {string}
             */
            quality: "low" | "medium" | "high";
        };
        /** @description Output is MP3 at the given bitrate. */
        AudioCompressOptions: {
            /**
             * @description 32k to 320k.
             * @default 128k
             */
            bitrate: string;
        };
        /** @description Exactly one of `url` (http or https, fetched with SSRF protection) or `fileId` (an upload of the same account). */
        JobInput: {
            url?: string;
            fileId?: string;
        };
        JobCreate: {
            /** @description A tool slug from `GET /v1/tools`; any other is 400 `unknown_tool`. */
            tool: string;
            input?: components["schemas"]["JobInput"];
            /** @description Tool-specific, see the `*Options` schemas. Unknown keys are ignored. */
            options?: {
                [key: string]: unknown;
            };
            /**
             * Format: uri
             * @description Pro and Max plans only.
             */
            webhookUrl?: string;
            /**
             * @description Makes the submission safe to retry for 24 hours, per API key (the `Idempotency-Key`
             *     header does the same; the body wins). A replay with the same body returns the original
             *     status and body and queues and charges nothing; another body with the same key is 409
             *     `idempotency_conflict`. Only accepted jobs are remembered: a refused request (402, 429,
             *     500) may be retried with the same key.
             */
            idempotencyKey?: string;
        };
        /** @enum {string} */
        JobState: "queued" | "running" | "completed" | "failed" | "canceled";
        JobAccepted: {
            /** @example job_3Hk9sLq2Wm7Zx0Pc */
            id: string;
            state: components["schemas"]["JobState"];
            /** @example /v1/jobs/job_3Hk9sLq2Wm7Zx0Pc */
            statusUrl: string;
        };
        /** @description Present once the job has completed, otherwise null. */
        JobResult: {
            /** @enum {string} */
            status: "converted";
            outputFormat: string;
            /** Format: uri */
            downloadUrl: string;
            outputSize: number;
            /** @description Absent for audio-compress. */
            message?: string;
            width?: number;
            height?: number;
            /** @description Seconds (video and audio). */
            duration?: number;
            /** @description audio-compress only, e.g. `128k`. */
            bitrate?: string;
        } | null;
        /** @description Present when the job failed, otherwise null. */
        JobError: {
            /** @enum {string} */
            code: "input_fetch_failed" | "input_too_large" | "unsupported_input" | "processing_failed" | "timeout";
            message: string;
        } | null;
        Job: {
            id: string;
            tool: components["schemas"]["ToolSlug"];
            state: components["schemas"]["JobState"];
            progress: number;
            result: components["schemas"]["JobResult"];
            error: components["schemas"]["JobError"];
            cost: number;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            startedAt: string | null;
            /** Format: date-time */
            finishedAt: string | null;
            /** @example image-standard-queue */
            queue: string;
        };
        JobEnvelope: {
            job: components["schemas"]["Job"];
        };
        JobList: {
            jobs: components["schemas"]["Job"][];
            nextCursor: string | null;
        };
        /** @enum {string} */
        WebhookDeliveryStatus: "pending" | "succeeded" | "failed";
        WebhookAttempt: {
            /** Format: date-time */
            attemptedAt: string;
            statusCode: number | null;
            error: string | null;
            durationMs: number;
        };
        WebhookDelivery: {
            id: string;
            /** @enum {string} */
            eventType: "submission.created" | "submission.processed" | "job.completed" | "job.failed";
            url: string;
            status: components["schemas"]["WebhookDeliveryStatus"];
            attempts: components["schemas"]["WebhookAttempt"][];
            /** Format: date-time */
            nextAttemptAt: string | null;
            /** Format: date-time */
            createdAt: string;
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
        /** @description The job is queued (or, for an idempotent replay, the original answer). */
        JobAccepted: {
            headers: {
                "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                "RateLimit-Reset": components["headers"]["RateLimitReset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["JobAccepted"];
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
        /**
         * @description Invalid request: `validation_failed` (with `details`), `invalid_json`,
         *     `invalid_multipart` (a malformed multipart body), `unknown_tool`, `missing_input`.
         */
        BadRequest: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": {
                 *         "code": "validation_failed",
                 *         "message": "body/name: must NOT have fewer than 1 characters",
                 *         "details": [
                 *           {
                 *             "path": "/name",
                 *             "message": "must NOT have fewer than 1 characters"
                 *           }
                 *         ]
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description `unauthorized` (missing or malformed token), `invalid_key`, `revoked`, `expired`. */
        Unauthorized: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": {
                 *         "code": "invalid_key",
                 *         "message": "The API key is not recognized."
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description `insufficient_credits` or `spend_cap_reached`. */
        PaymentRequired: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": {
                 *         "code": "insufficient_credits",
                 *         "message": "This job costs 5 credits; the balance is 2."
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description `ip_not_allowed`, `insufficient_scope`, `plan_not_eligible`; on public intake
         *     `drop_paused`; on signed URLs `invalid_signature` or `url_expired`.
         */
        Forbidden: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": {
                 *         "code": "insufficient_scope",
                 *         "message": "This operation needs the drops:write scope."
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description `not_found`: no such resource, or it belongs to another account (drops) or key (jobs). */
        NotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": {
                 *         "code": "not_found",
                 *         "message": "Drop not found."
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description `slug_taken`, `processed_unavailable`, `cannot_cancel`, `idempotency_conflict`. */
        Conflict: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": {
                 *         "code": "slug_taken",
                 *         "message": "The slug launch-assets is already taken."
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description `drop_expired`. */
        Gone: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": {
                 *         "code": "drop_expired",
                 *         "message": "This drop stopped accepting files on 2026-01-01T00:00:00.000Z."
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description `file_too_large` or `body_too_large`. */
        PayloadTooLarge: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": {
                 *         "code": "file_too_large",
                 *         "message": "The file exceeds the limit of 25 MB."
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description `unsupported_media_type` (wrong Content-Type) or `kind_not_allowed`. */
        UnsupportedMediaType: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": {
                 *         "code": "unsupported_media_type",
                 *         "message": "Expected Content-Type application/json."
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description `range_not_satisfiable`. */
        RangeNotSatisfiable: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description `rate_limited` or `concurrency_exceeded`. */
        TooManyRequests: {
            headers: {
                "Retry-After": components["headers"]["RetryAfter"];
                "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                "RateLimit-Reset": components["headers"]["RateLimitReset"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": {
                 *         "code": "rate_limited",
                 *         "message": "Rate limit of 5 requests per second exceeded; retry in 1 s."
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description `enqueue_failed` (credits refunded, no job kept) or `internal_error`. */
        InternalError: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": {
                 *         "code": "enqueue_failed",
                 *         "message": "The job could not be queued; no credits were charged. Retry later."
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
    };
    parameters: {
        /**
         * @description The drop's slug.
         * @example launch-assets
         */
        Slug: string;
        /** @example sub_0000000000000000 */
        SubmissionId: string;
        /** @example job_0000000000000000 */
        JobId: string;
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
                "application/json": components["schemas"]["JobCreate"];
            };
        };
    };
    headers: {
        /** @description Requests per second this key may make. */
        RateLimitLimit: number;
        /** @description Requests left in the current window. */
        RateLimitRemaining: number;
        /** @description Seconds until the bucket is full again. */
        RateLimitReset: number;
        /** @description Seconds to wait before retrying. */
        RetryAfter: number;
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
                     *         "redis": "ok"
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
                     *         "redis": "down"
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
                    "application/json": {
                        account: components["schemas"]["Account"];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
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
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
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
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
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
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
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
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
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
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
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
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
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
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
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
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
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
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getSubmissionDownload: {
        parameters: {
            query?: {
                processed?: boolean;
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
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getPublicDrop: {
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
            /** @description The public view. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PublicDropEnvelope"];
                };
            };
            400: components["responses"]["BadRequest"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    createPublicSubmission: {
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
            400: components["responses"]["BadRequest"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
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
                };
            };
            400: components["responses"]["BadRequest"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            416: components["responses"]["RangeNotSatisfiable"];
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
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
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
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
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
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    createJob: {
        parameters: {
            query?: never;
            header?: {
                /** @description Same as the body's `idempotencyKey`; the body wins when both are given. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: components["requestBodies"]["JobCreate"];
        responses: {
            202: components["responses"]["JobAccepted"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    getJob: {
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
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
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
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["TooManyRequests"];
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
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    apiCreateJob: {
        parameters: {
            query?: never;
            header?: {
                /** @description Same as the body's `idempotencyKey`; the body wins when both are given. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: components["requestBodies"]["JobCreate"];
        responses: {
            202: components["responses"]["JobAccepted"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    apiGetJob: {
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
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
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
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["TooManyRequests"];
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
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
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
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
        };
    };
}
