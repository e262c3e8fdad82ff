import type { PublicDrop } from '../../generated/types';
import type { Drop, DropKind } from '../drops/drop.entity';
import { toPublicDropView } from '../drops/drop-views';
import { isClosedAt } from '../drops/drop-limits';
import { assetUrl, loadDropPageAssets } from './drop-page.assets';
import { themeCss } from './drop-page.styles';
import { emojiFavicon, escapeHtml, jsonForScript } from './drop-page.html';
import { themeFor } from './drop-page.theme';

/** The page's script and stylesheet are files (src/drop-page/public), loaded with the response's nonce. */
export const DROP_PAGE_ASSETS = loadDropPageAssets();
const STYLESHEET = assetUrl(DROP_PAGE_ASSETS, 'drop-page.css');
const SCRIPT = assetUrl(DROP_PAGE_ASSETS, 'drop-page.js');
const TUS_CLIENT = assetUrl(DROP_PAGE_ASSETS, 'tus.min.js');

/** Why a drop refuses files, in the order intake checks them (docs/decisions.md §6: 403 before 410, then 409). */
export type ClosedReason = 'paused' | 'expired' | 'full';

/** What the page's script reads from the embedded JSON. */
export interface DropPageData {
  drop: PublicDrop;
  closed: ClosedReason | null;
  expiresAt: string | null;
  /** The server's clock when rendering, so the page can close itself at expiry whatever the sender's clock says. */
  now: string;
  uploadUrl: string;
  /** The tus creation URL the page sends files to. */
  tusUrl: string;
  /**
   * The drop has a password: the page shows only its name and asks for it; the script then reads
   * the drop from `publicUrl` with the password (kept in sessionStorage, this tab only) and sends it
   * with every upload.
   */
  locked: boolean;
  publicUrl: string;
}

export function dropPageData(drop: Drop, now: Date): DropPageData {
  const urls = {
    uploadUrl: `/v1/public/drops/${encodeURIComponent(drop.slug)}/submissions`,
    tusUrl: `/v1/public/drops/${encodeURIComponent(drop.slug)}/tus`,
    publicUrl: `/v1/public/drops/${encodeURIComponent(drop.slug)}`,
  };
  if (drop.passwordHash !== null) {
    // Nothing but the name before the password: the script reads the rest with it.
    return { drop: lockedView(drop), closed: null, expiresAt: null, now: now.toISOString(), ...urls, locked: true };
  }
  const view = toPublicDropView(drop, now);
  const closed: ClosedReason | null = !drop.isActive ? 'paused' : isClosedAt(drop, now) ? 'expired' : !view.acceptingSubmissions ? 'full' : null;
  return {
    // The same public view as GET /v1/public/drops/{slug}, judged at the same instant as `closed`.
    drop: { ...view, acceptingSubmissions: closed === null },
    closed,
    expiresAt: drop.expiresAt ? drop.expiresAt.toISOString() : null,
    now: now.toISOString(),
    ...urls,
    locked: false,
  };
}

/** The page's stand-in for a locked drop: its name, the rest neutral until the password opens it. */
function lockedView(drop: Drop): PublicDrop {
  return {
    slug: drop.slug,
    name: drop.name,
    description: '',
    emoji: drop.emoji,
    accentColor: drop.accentColor,
    allowedKinds: 'any',
    maxFileSizeMB: 0,
    requireSenderEmail: false,
    requireMessage: false,
    acceptingSubmissions: true,
    requiresPassword: true,
    expiresAt: null,
    acceptLateUntil: null,
    maxSubmissions: null,
    maxTotalMB: null,
    allowedExtensions: null,
  };
}

/** The drop's rules as the page lists them (the script builds the same list for a drop it unlocked). */
export function ruleTexts(drop: PublicDrop): string[] {
  return [
    KIND_RULE[drop.allowedKinds],
    drop.allowedExtensions ? `Only ${drop.allowedExtensions.map((e) => `.${e}`).join(', ')} files` : undefined,
    `Up to ${formatLimit(drop.maxFileSizeMB)}`,
    drop.maxSubmissions !== null ? `At most ${drop.maxSubmissions} file${drop.maxSubmissions === 1 ? '' : 's'} in all` : undefined,
    drop.maxTotalMB !== null ? `Up to ${formatLimit(drop.maxTotalMB)} in all` : undefined,
    drop.requireSenderEmail ? 'Email required' : undefined,
    drop.requireMessage ? 'Message required' : undefined,
    drop.requiresPassword ? 'Password protected' : undefined,
  ].filter((r): r is string => Boolean(r));
}

/** `default-src 'none'`: only this response's nonce'd style and script run; uploads go to this origin. */
export function contentSecurityPolicy(nonce: string, withScript: boolean): string {
  return [
    "default-src 'none'",
    withScript ? `script-src 'nonce-${nonce}'` : "script-src 'none'",
    `style-src 'nonce-${nonce}'`,
    "img-src 'self' data:",
    withScript ? "connect-src 'self'" : undefined,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    withScript ? "require-trusted-types-for 'script'" : undefined,
  ]
    .filter(Boolean)
    .join('; ');
}

const KIND_RULE: Record<DropKind, string> = {
  any: 'Any type of file',
  image: 'Images only',
  video: 'Videos only',
  audio: 'Audio only',
  document: 'Documents only',
};

const KIND_HINT: Record<DropKind, string> = {
  any: 'Any file',
  image: 'An image (JPEG, PNG, GIF, WebP, HEIC…)',
  video: 'A video (MP4, MOV, WebM…)',
  audio: 'An audio file (MP3, WAV, M4A…)',
  document: 'A document (PDF, Office, text, ZIP…)',
};

/** The file picker's `accept` filter: a hint for the picker only; the script and the server check for real. */
const KIND_ACCEPT: Record<DropKind, string | null> = {
  any: null,
  image: 'image/*,.heic,.heif,.avif,.jxl',
  video: 'video/*,.mkv,.mov',
  audio: 'audio/*,.m4a,.opus,.flac',
  document: null,
};

/** Shown when the drop has no emoji: an SVG, which needs no emoji font. */
const INBOX_ICON =
  '<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="1.7" stroke-linecap="round" stroke-linejoin="round">' +
  '<path d="M4 13l2.2-7.3A2 2 0 0 1 8.1 4.3h7.8a2 2 0 0 1 1.9 1.4L20 13"/><path d="M4 13v5a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-5h-4.5l-1.5 2.5h-4L8.5 13z"/></svg>';
const SEARCH_ICON =
  '<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="1.7" stroke-linecap="round" stroke-linejoin="round">' +
  '<circle cx="11" cy="11" r="6.5"/><path d="M20 20l-4.4-4.4"/></svg>';
const ALERT_ICON =
  '<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="1.7" stroke-linecap="round" stroke-linejoin="round">' +
  '<path d="M12 4l9 16H3z"/><path d="M12 10v4.5M12 17.5v.01"/></svg>';
const INBOX_FAVICON = '📥';

/** "25 MB", or "2 GB" for a whole number of gigabytes. */
export function formatLimit(mb: number): string {
  return mb >= 1024 && mb % 1024 === 0 ? `${mb / 1024} GB` : `${mb} MB`;
}

const UPLOAD_ICON =
  '<svg class="dz-icon" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="1.6" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true">' +
  '<path d="M12 15V4m0 0L8 8m4-4 4 4"/><path d="M4 15v3a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-3"/></svg>';
const TICK_ICON =
  '<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2.4" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><path d="M5 12.5l4.5 4.5L19 7.5"/></svg>';

/** The sender's upload page: rendered here with the drop's text escaped, made interactive by the inline script. */
export function renderDropPage(data: DropPageData, nonce: string): string {
  const { drop, closed } = data;
  const kind = drop.allowedKinds;
  const accept = KIND_ACCEPT[kind];
  const disabled = closed ? ' disabled' : '';

  const rules = data.locked ? ['Password protected'] : ruleTexts(drop);
  const open =
    (data.expiresAt && !closed ? `<li>Open until ${timeHtml(data.expiresAt)}</li>` : '') +
    (drop.acceptLateUntil && !closed ? `<li>Late files accepted until ${timeHtml(drop.acceptLateUntil)}</li>` : '');

  const optional = '<span class="opt">(optional)</span>';
  const required = '<span class="req" aria-hidden="true">*</span>';

  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(drop.name)} · Send a file</title>
<link rel="icon" href="${escapeHtml(emojiFavicon(drop.emoji || INBOX_FAVICON))}">
<style nonce="${nonce}">${themeCss(themeFor(drop.accentColor))}</style>
<link rel="stylesheet" href="${STYLESHEET}" nonce="${nonce}">
</head>
<body>
<main class="card" aria-labelledby="drop-title">
  <header class="head">
    <div class="badge" aria-hidden="true">${drop.emoji ? escapeHtml(drop.emoji) : INBOX_ICON}</div>
    <h1 id="drop-title">${escapeHtml(drop.name)}</h1>
    ${drop.description ? `<p class="desc" id="drop-description">${escapeHtml(drop.description)}</p>` : ''}
    <ul class="rules" id="rules" aria-label="Rules for this drop">${rules.map((r) => `<li>${escapeHtml(r)}</li>`).join('')}${open}</ul>
  </header>

  <div id="closed-notice" class="notice closed" role="alert"${closed ? '' : ' hidden'}>${closed ? closedNoticeHtml(closed, data.expiresAt) : ''}</div>

  <form id="password-form" class="password" novalidate aria-label="Password"${data.locked ? '' : ' hidden'}>
    <div class="field">
      <label for="drop-password">This drop is protected by a password</label>
      <input type="password" id="drop-password" name="password" autocomplete="off" maxlength="128" aria-describedby="drop-password-error">
      <p class="field-error" id="drop-password-error"></p>
    </div>
    <div class="actions"><button type="submit" class="primary" id="unlock">Open</button></div>
  </form>

  <div id="form-area"${data.locked ? ' hidden' : ''}>
    <form id="drop-form" novalidate aria-label="Send a file to ${escapeHtml(drop.name)}">
      <fieldset id="fields"${disabled}>
        <label class="dropzone" id="dropzone" for="file">
          <input type="file" id="file" name="file" multiple class="visually-hidden"${accept ? ` accept="${accept}"` : ''} aria-describedby="dz-hint file-error">
          <span id="dz-empty" class="dz-empty">
            ${UPLOAD_ICON}
            <span class="dz-title">Drag and drop a file here</span>
            <span class="dz-sub">or <span class="dz-link">choose a file</span></span>
          </span>
          <span id="dz-file" class="file" hidden>
            <span class="file-icon" id="file-ext" aria-hidden="true">FILE</span>
            <span class="file-meta">
              <span class="file-name" id="file-name"></span>
              <span class="file-size" id="file-size"></span>
            </span>
            <span class="dz-link">Change</span>
          </span>
          <span class="dz-hint" id="dz-hint">${escapeHtml(KIND_HINT[kind])} · up to ${formatLimit(drop.maxFileSizeMB)}</span>
        </label>
        <p class="field-error" id="file-error"></p>
        <ul class="file-list" id="file-list" aria-label="Files to send" hidden></ul>

        <div class="field">
          <label for="senderName">Your name ${optional}</label>
          <input type="text" id="senderName" name="senderName" autocomplete="name" maxlength="200">
        </div>
        <div class="field">
          <label for="senderEmail">Your email ${drop.requireSenderEmail ? required : optional}</label>
          <input type="email" id="senderEmail" name="senderEmail" autocomplete="email" maxlength="320" inputmode="email"${drop.requireSenderEmail ? ' required aria-required="true"' : ''} aria-describedby="senderEmail-error">
          <p class="field-error" id="senderEmail-error"></p>
        </div>
        <div class="field">
          <label for="message">Message ${drop.requireMessage ? required : optional}</label>
          <textarea id="message" name="message" rows="3" maxlength="5000"${drop.requireMessage ? ' required aria-required="true"' : ''} aria-describedby="message-error"></textarea>
          <p class="field-error" id="message-error"></p>
        </div>
      </fieldset>

      <div class="progress" id="progress" hidden>
        <div class="progress-row"><span id="progress-label">Uploading…</span><span class="progress-pct" id="progress-pct">0%</span></div>
        <div class="track" id="progress-track" role="progressbar" aria-labelledby="progress-label" aria-valuemin="0" aria-valuemax="100" aria-valuenow="0"><div class="bar" id="progress-bar"></div></div>
      </div>

      <div class="actions">
        <button type="submit" class="primary" id="submit"${disabled}>Send file</button>
        <button type="button" class="secondary" id="cancel" hidden>Cancel</button>
      </div>
    </form>
  </div>

  <div id="status" class="notice status" role="status" aria-live="polite" aria-atomic="true"></div>

  <section id="success" class="success" hidden aria-labelledby="success-title">
    <div class="tick">${TICK_ICON}</div>
    <h2 id="success-title" tabindex="-1">Sent!</h2>
    <p id="success-text"></p>
    <button type="button" class="secondary" id="again">Send another file</button>
  </section>

  <noscript><p class="notice closed">This page needs JavaScript to send files. Please enable it and reload.</p></noscript>
</main>
<p class="foot">Files go privately to the owner of this drop. Powered by Dropline.</p>
<script type="application/json" id="drop-data">${jsonForScript(data)}</script>
<script src="${TUS_CLIENT}" nonce="${nonce}"></script>
<script src="${SCRIPT}" nonce="${nonce}"></script>
</body>
</html>
`;
}

/** Kept in step with the script's closeForm(), which shows the same notice when the drop closes while open. */
function closedNoticeHtml(reason: ClosedReason, expiresAt: string | null): string {
  if (reason === 'full') return '<strong>This drop is full.</strong> It has received all the files it takes.';
  if (reason === 'paused') {
    return '<strong>This drop is paused.</strong> It isn’t accepting files right now. Please try again later or contact the person who shared this link.';
  }
  const when = expiresAt ? ` on ${timeHtml(expiresAt)}` : '';
  return `<strong>This drop has expired.</strong> It stopped accepting files${when}.`;
}

/** A UTC time; the script rewrites it in the sender's locale and time zone. */
function timeHtml(iso: string): string {
  const text = iso.replace('T', ' ').slice(0, 16) + ' UTC';
  return `<time class="local-time" datetime="${escapeHtml(iso)}">${escapeHtml(text)}</time>`;
}

/** The page for a slug that names no drop (status 404) or for a failure (5xx): no script at all. */
export function renderMessagePage(kind: 'not_found' | 'error', nonce: string): string {
  const [icon, favicon, title, text] =
    kind === 'not_found'
      ? [SEARCH_ICON, '🔍', 'This drop doesn’t exist', 'The link may be mistyped, or the drop was deleted by its owner. Ask the person who shared it for a new link.']
      : [ALERT_ICON, '⚠️', 'Something went wrong', 'This page could not be loaded. Please try again in a moment.'];
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${title} · Dropline</title>
<link rel="icon" href="${escapeHtml(emojiFavicon(favicon))}">
<style nonce="${nonce}">${themeCss(themeFor(null))}</style>
<link rel="stylesheet" href="${STYLESHEET}" nonce="${nonce}">
</head>
<body>
<main class="card">
  <header class="head">
    <div class="badge" aria-hidden="true">${icon}</div>
    <h1>${title}</h1>
    <p class="desc">${text}</p>
  </header>
</main>
<p class="foot">Dropline</p>
</body>
</html>
`;
}
