// GENERATED from openapi.yaml by `npm run generate`. Do not edit.
import type { components, operations } from './schema';

export type Error = components['schemas']['Error'];
export type ErrorCode = components['schemas']['ErrorCode'];
export type Health = components['schemas']['Health'];
export type Readiness = components['schemas']['Readiness'];
export type ProgramCheck = components['schemas']['ProgramCheck'];
export type Plan = components['schemas']['Plan'];
export type PlanLimits = components['schemas']['PlanLimits'];
export type Account = components['schemas']['Account'];
export type AccountEnvelope = components['schemas']['AccountEnvelope'];
export type LedgerReason = components['schemas']['LedgerReason'];
export type LedgerEntry = components['schemas']['LedgerEntry'];
export type LedgerEntryList = components['schemas']['LedgerEntryList'];
export type DropKind = components['schemas']['DropKind'];
export type FileKind = components['schemas']['FileKind'];
export type ConvertFormat = components['schemas']['ConvertFormat'];
export type DropSlug = components['schemas']['DropSlug'];
export type Drop = components['schemas']['Drop'];
export type DropCreate = components['schemas']['DropCreate'];
export type DropUpdate = components['schemas']['DropUpdate'];
export type DropEnvelope = components['schemas']['DropEnvelope'];
export type PipelineStep = components['schemas']['PipelineStep'];
export type PipelineSteps = components['schemas']['PipelineSteps'];
export type Template = components['schemas']['Template'];
export type TemplateCreate = components['schemas']['TemplateCreate'];
export type TemplateUpdate = components['schemas']['TemplateUpdate'];
export type TemplateEnvelope = components['schemas']['TemplateEnvelope'];
export type TemplateList = components['schemas']['TemplateList'];
export type DropList = components['schemas']['DropList'];
export type PublicDrop = components['schemas']['PublicDrop'];
export type LockedDrop = components['schemas']['LockedDrop'];
export type PasswordRequiredError = components['schemas']['PasswordRequiredError'];
export type PublicDropEnvelope = components['schemas']['PublicDropEnvelope'];
export type SubmissionStatus = components['schemas']['SubmissionStatus'];
export type Submission = components['schemas']['Submission'];
export type SubmissionOutput = components['schemas']['SubmissionOutput'];
export type ScanStatus = components['schemas']['ScanStatus'];
export type SubmissionScan = components['schemas']['SubmissionScan'];
export type SubmissionEnvelope = components['schemas']['SubmissionEnvelope'];
export type DropEventType = components['schemas']['DropEventType'];
export type DropEventActor = components['schemas']['DropEventActor'];
export type DropEvent = components['schemas']['DropEvent'];
export type DropEventList = components['schemas']['DropEventList'];
export type SubmissionList = components['schemas']['SubmissionList'];
export type SubmissionUpdate = components['schemas']['SubmissionUpdate'];
export type SubmissionForm = components['schemas']['SubmissionForm'];
export type PublicSubmission = components['schemas']['PublicSubmission'];
export type PublicSubmissionEnvelope = components['schemas']['PublicSubmissionEnvelope'];
export type DownloadLink = components['schemas']['DownloadLink'];
export type UploadForm = components['schemas']['UploadForm'];
export type Upload = components['schemas']['Upload'];
export type UploadEnvelope = components['schemas']['UploadEnvelope'];
export type ToolSlug = components['schemas']['ToolSlug'];
export type Tool = components['schemas']['Tool'];
export type ToolOutput = components['schemas']['ToolOutput'];
export type ToolList = components['schemas']['ToolList'];
export type ImageResizeOptions = components['schemas']['ImageResizeOptions'];
export type ImageConvertOptions = components['schemas']['ImageConvertOptions'];
export type VideoConvertOptions = components['schemas']['VideoConvertOptions'];
export type VideoThumbnailOptions = components['schemas']['VideoThumbnailOptions'];
export type VideoStoryboardOptions = components['schemas']['VideoStoryboardOptions'];
export type AudioCompressOptions = components['schemas']['AudioCompressOptions'];
export type DocumentConvertOptions = components['schemas']['DocumentConvertOptions'];
export type PdfRenderOptions = components['schemas']['PdfRenderOptions'];
export type ImageThumbnailOptions = components['schemas']['ImageThumbnailOptions'];
export type AudioWaveformOptions = components['schemas']['AudioWaveformOptions'];
export type MediaInfoOptions = components['schemas']['MediaInfoOptions'];
export type MediaInfo = components['schemas']['MediaInfo'];
export type JobInput = components['schemas']['JobInput'];
export type JobRequest = components['schemas']['JobRequest'];
export type PipelineJobCreate = components['schemas']['PipelineJobCreate'];
export type TemplateJobCreate = components['schemas']['TemplateJobCreate'];
export type JobStep = components['schemas']['JobStep'];
export type JobCreate = components['schemas']['JobCreate'];
export type ImageResizeJobCreate = components['schemas']['ImageResizeJobCreate'];
export type ImageConvertJobCreate = components['schemas']['ImageConvertJobCreate'];
export type VideoConvertJobCreate = components['schemas']['VideoConvertJobCreate'];
export type AudioCompressJobCreate = components['schemas']['AudioCompressJobCreate'];
export type DocumentConvertJobCreate = components['schemas']['DocumentConvertJobCreate'];
export type PdfRenderJobCreate = components['schemas']['PdfRenderJobCreate'];
export type ImageThumbnailJobCreate = components['schemas']['ImageThumbnailJobCreate'];
export type AudioWaveformJobCreate = components['schemas']['AudioWaveformJobCreate'];
export type MediaInfoJobCreate = components['schemas']['MediaInfoJobCreate'];
export type VideoThumbnailJobCreate = components['schemas']['VideoThumbnailJobCreate'];
export type VideoStoryboardJobCreate = components['schemas']['VideoStoryboardJobCreate'];
export type JobWebhookUrl = components['schemas']['JobWebhookUrl'];
export type IdempotencyKeyValue = components['schemas']['IdempotencyKeyValue'];
export type JobState = components['schemas']['JobState'];
export type JobAccepted = components['schemas']['JobAccepted'];
export type JobResult = components['schemas']['JobResult'];
export type JobOutput = components['schemas']['JobOutput'];
export type JobError = components['schemas']['JobError'];
export type Job = components['schemas']['Job'];
export type JobEnvelope = components['schemas']['JobEnvelope'];
export type JobEndedInTime = components['schemas']['JobEndedInTime'];
export type JobQuote = components['schemas']['JobQuote'];
export type JobList = components['schemas']['JobList'];
export type WebhookEventType = components['schemas']['WebhookEventType'];
export type SubmissionWebhookEvent = components['schemas']['SubmissionWebhookEvent'];
export type JobWebhookEvent = components['schemas']['JobWebhookEvent'];
export type WebhookDeliveryStatus = components['schemas']['WebhookDeliveryStatus'];
export type WebhookAttempt = components['schemas']['WebhookAttempt'];
export type WebhookDelivery = components['schemas']['WebhookDelivery'];
export type WebhookDeliveryEnvelope = components['schemas']['WebhookDeliveryEnvelope'];
export type WebhookDeliveryList = components['schemas']['WebhookDeliveryList'];

export type OperationId = 'getHealth' | 'getReadiness' | 'getAccount' | 'rotateWebhookSecret' | 'listLedgerEntries' | 'listDrops' | 'createDrop' | 'getDrop' | 'updateDrop' | 'deleteDrop' | 'listDropEvents' | 'listSubmissions' | 'downloadSubmissionsArchive' | 'getSubmission' | 'updateSubmission' | 'deleteSubmission' | 'getSubmissionDownload' | 'getPublicDrop' | 'createPublicSubmission' | 'getDropTusOptions' | 'createDropTusUpload' | 'getDropTusUploadOffset' | 'appendDropTusUpload' | 'deleteDropTusUpload' | 'getDropPage' | 'downloadFile' | 'headFile' | 'createUpload' | 'getUploadTusOptions' | 'createTusUpload' | 'getTusUploadOffset' | 'appendTusUpload' | 'deleteTusUpload' | 'listTools' | 'listJobs' | 'createJob' | 'getJob' | 'cancelJob' | 'apiListJobs' | 'apiCreateJob' | 'apiGetJob' | 'apiCancelJob' | 'listTemplates' | 'createTemplate' | 'getTemplate' | 'updateTemplate' | 'deleteTemplate' | 'listWebhookDeliveries' | 'replayWebhookDelivery';

export interface OperationInfo {
  operationId: OperationId;
  method: string;
  path: string;
  scope: string | null;
  public: boolean;
}

export const OPERATIONS: readonly OperationInfo[] = [
  {
    "operationId": "getHealth",
    "method": "GET",
    "path": "/healthz",
    "scope": null,
    "public": true
  },
  {
    "operationId": "getReadiness",
    "method": "GET",
    "path": "/readyz",
    "scope": null,
    "public": true
  },
  {
    "operationId": "getAccount",
    "method": "GET",
    "path": "/v1/account",
    "scope": null,
    "public": false
  },
  {
    "operationId": "rotateWebhookSecret",
    "method": "POST",
    "path": "/v1/account/webhook-secret/rotate",
    "scope": "webhooks:write",
    "public": false
  },
  {
    "operationId": "listLedgerEntries",
    "method": "GET",
    "path": "/v1/account/ledger",
    "scope": null,
    "public": false
  },
  {
    "operationId": "listDrops",
    "method": "GET",
    "path": "/v1/drops",
    "scope": "drops:read",
    "public": false
  },
  {
    "operationId": "createDrop",
    "method": "POST",
    "path": "/v1/drops",
    "scope": "drops:write",
    "public": false
  },
  {
    "operationId": "getDrop",
    "method": "GET",
    "path": "/v1/drops/{slug}",
    "scope": "drops:read",
    "public": false
  },
  {
    "operationId": "updateDrop",
    "method": "PATCH",
    "path": "/v1/drops/{slug}",
    "scope": "drops:write",
    "public": false
  },
  {
    "operationId": "deleteDrop",
    "method": "DELETE",
    "path": "/v1/drops/{slug}",
    "scope": "drops:write",
    "public": false
  },
  {
    "operationId": "listDropEvents",
    "method": "GET",
    "path": "/v1/drops/{slug}/events",
    "scope": "drops:read",
    "public": false
  },
  {
    "operationId": "listSubmissions",
    "method": "GET",
    "path": "/v1/drops/{slug}/submissions",
    "scope": "drops:read",
    "public": false
  },
  {
    "operationId": "downloadSubmissionsArchive",
    "method": "GET",
    "path": "/v1/drops/{slug}/submissions/archive",
    "scope": "drops:read",
    "public": false
  },
  {
    "operationId": "getSubmission",
    "method": "GET",
    "path": "/v1/drops/{slug}/submissions/{id}",
    "scope": "drops:read",
    "public": false
  },
  {
    "operationId": "updateSubmission",
    "method": "PATCH",
    "path": "/v1/drops/{slug}/submissions/{id}",
    "scope": "drops:write",
    "public": false
  },
  {
    "operationId": "deleteSubmission",
    "method": "DELETE",
    "path": "/v1/drops/{slug}/submissions/{id}",
    "scope": "drops:write",
    "public": false
  },
  {
    "operationId": "getSubmissionDownload",
    "method": "GET",
    "path": "/v1/drops/{slug}/submissions/{id}/download",
    "scope": "drops:read",
    "public": false
  },
  {
    "operationId": "getPublicDrop",
    "method": "GET",
    "path": "/v1/public/drops/{slug}",
    "scope": null,
    "public": true
  },
  {
    "operationId": "createPublicSubmission",
    "method": "POST",
    "path": "/v1/public/drops/{slug}/submissions",
    "scope": null,
    "public": true
  },
  {
    "operationId": "getDropTusOptions",
    "method": "OPTIONS",
    "path": "/v1/public/drops/{slug}/tus",
    "scope": null,
    "public": true
  },
  {
    "operationId": "createDropTusUpload",
    "method": "POST",
    "path": "/v1/public/drops/{slug}/tus",
    "scope": null,
    "public": true
  },
  {
    "operationId": "getDropTusUploadOffset",
    "method": "HEAD",
    "path": "/v1/public/drops/{slug}/tus/{id}",
    "scope": null,
    "public": true
  },
  {
    "operationId": "appendDropTusUpload",
    "method": "PATCH",
    "path": "/v1/public/drops/{slug}/tus/{id}",
    "scope": null,
    "public": true
  },
  {
    "operationId": "deleteDropTusUpload",
    "method": "DELETE",
    "path": "/v1/public/drops/{slug}/tus/{id}",
    "scope": null,
    "public": true
  },
  {
    "operationId": "getDropPage",
    "method": "GET",
    "path": "/d/{slug}",
    "scope": null,
    "public": true
  },
  {
    "operationId": "downloadFile",
    "method": "GET",
    "path": "/v1/files/{key}",
    "scope": null,
    "public": true
  },
  {
    "operationId": "headFile",
    "method": "HEAD",
    "path": "/v1/files/{key}",
    "scope": null,
    "public": true
  },
  {
    "operationId": "createUpload",
    "method": "POST",
    "path": "/v1/uploads",
    "scope": "uploads:write",
    "public": false
  },
  {
    "operationId": "getUploadTusOptions",
    "method": "OPTIONS",
    "path": "/v1/uploads/tus",
    "scope": null,
    "public": true
  },
  {
    "operationId": "createTusUpload",
    "method": "POST",
    "path": "/v1/uploads/tus",
    "scope": "uploads:write",
    "public": false
  },
  {
    "operationId": "getTusUploadOffset",
    "method": "HEAD",
    "path": "/v1/uploads/tus/{id}",
    "scope": "uploads:write",
    "public": false
  },
  {
    "operationId": "appendTusUpload",
    "method": "PATCH",
    "path": "/v1/uploads/tus/{id}",
    "scope": "uploads:write",
    "public": false
  },
  {
    "operationId": "deleteTusUpload",
    "method": "DELETE",
    "path": "/v1/uploads/tus/{id}",
    "scope": "uploads:write",
    "public": false
  },
  {
    "operationId": "listTools",
    "method": "GET",
    "path": "/v1/tools",
    "scope": null,
    "public": true
  },
  {
    "operationId": "listJobs",
    "method": "GET",
    "path": "/v1/jobs",
    "scope": null,
    "public": false
  },
  {
    "operationId": "createJob",
    "method": "POST",
    "path": "/v1/jobs",
    "scope": "by-tool",
    "public": false
  },
  {
    "operationId": "getJob",
    "method": "GET",
    "path": "/v1/jobs/{id}",
    "scope": null,
    "public": false
  },
  {
    "operationId": "cancelJob",
    "method": "POST",
    "path": "/v1/jobs/{id}/cancel",
    "scope": null,
    "public": false
  },
  {
    "operationId": "apiListJobs",
    "method": "GET",
    "path": "/api/v1/jobs",
    "scope": null,
    "public": false
  },
  {
    "operationId": "apiCreateJob",
    "method": "POST",
    "path": "/api/v1/jobs",
    "scope": "by-tool",
    "public": false
  },
  {
    "operationId": "apiGetJob",
    "method": "GET",
    "path": "/api/v1/jobs/{id}",
    "scope": null,
    "public": false
  },
  {
    "operationId": "apiCancelJob",
    "method": "POST",
    "path": "/api/v1/jobs/{id}/cancel",
    "scope": null,
    "public": false
  },
  {
    "operationId": "listTemplates",
    "method": "GET",
    "path": "/v1/templates",
    "scope": "templates:read",
    "public": false
  },
  {
    "operationId": "createTemplate",
    "method": "POST",
    "path": "/v1/templates",
    "scope": "templates:write",
    "public": false
  },
  {
    "operationId": "getTemplate",
    "method": "GET",
    "path": "/v1/templates/{id}",
    "scope": "templates:read",
    "public": false
  },
  {
    "operationId": "updateTemplate",
    "method": "PATCH",
    "path": "/v1/templates/{id}",
    "scope": "templates:write",
    "public": false
  },
  {
    "operationId": "deleteTemplate",
    "method": "DELETE",
    "path": "/v1/templates/{id}",
    "scope": "templates:write",
    "public": false
  },
  {
    "operationId": "listWebhookDeliveries",
    "method": "GET",
    "path": "/v1/webhook-deliveries",
    "scope": "webhooks:read",
    "public": false
  },
  {
    "operationId": "replayWebhookDelivery",
    "method": "POST",
    "path": "/v1/webhook-deliveries/{id}/replay",
    "scope": "webhooks:write",
    "public": false
  }
];

export type { components, operations };
