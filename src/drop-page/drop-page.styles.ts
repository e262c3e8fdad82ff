import type { DropPageTheme } from './drop-page.theme';

/** Custom properties from the drop's theme. Every value is a validated `#rrggbb`, never user text. */
export function themeCss(theme: DropPageTheme): string {
  return (
    `:root{--accent:${theme.accent};--on-accent:${theme.onAccent};--ink:${theme.ink};--soft:${theme.soft}}` +
    `@media (prefers-color-scheme:dark){:root{--ink:${theme.inkDark};--soft:${theme.softDark}}}`
  );
}

/** The page's stylesheet: system fonts, one card, light and dark schemes. No external resources. */
export const DROP_PAGE_CSS = String.raw`
:root{
  color-scheme:light dark;
  --bg:#f4f5f8;--card:#ffffff;--text:#0f172a;--muted:#5b6475;--line:#dfe3ea;--field:#ffffff;
  --danger:#b42318;--danger-bg:#fef3f2;--danger-line:#fecdca;
  --ok:#067647;--ok-bg:#ecfdf3;--ok-line:#abefc6;
  --warn:#93370d;--warn-bg:#fffaeb;--warn-line:#fedf89;
  --radius:16px;
}
@media (prefers-color-scheme:dark){
  :root{
    --bg:#0b1120;--card:#1e293b;--text:#e5e9f0;--muted:#a3acbd;--line:#334155;--field:#0f172a;
    --danger:#fda29b;--danger-bg:#3b1512;--danger-line:#7a271a;
    --ok:#75e0a7;--ok-bg:#0b3320;--ok-line:#085d3a;
    --warn:#fec84b;--warn-bg:#3a2a08;--warn-line:#7a5200;
  }
}
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{
  margin:0;min-height:100vh;display:flex;flex-direction:column;align-items:center;
  padding:48px 16px 32px;
  font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,"Noto Sans",sans-serif,"Apple Color Emoji","Segoe UI Emoji","Noto Color Emoji";
  color:var(--text);
  background:linear-gradient(180deg,var(--soft) 0,var(--bg) 360px) no-repeat,var(--bg);
}
.card{
  width:100%;max-width:560px;background:var(--card);border:1px solid var(--line);border-radius:var(--radius);
  box-shadow:0 1px 2px rgba(16,24,40,.05),0 12px 32px -8px rgba(16,24,40,.14);
  padding:32px;
}
@media (max-width:480px){body{padding:16px 10px}.card{padding:22px 18px}}
.head{text-align:center;margin-bottom:20px}
.badge{
  width:64px;height:64px;margin:0 auto 14px;border-radius:50%;display:grid;place-items:center;
  font-size:32px;line-height:1;background:var(--soft);border:1px solid var(--line);color:var(--ink);
}
.badge svg{width:30px;height:30px}
h1{font-size:1.5rem;line-height:1.25;margin:0 0 6px;letter-spacing:-.01em;overflow-wrap:anywhere}
h2{font-size:1.25rem;margin:0 0 6px}
.desc{margin:0;color:var(--muted);white-space:pre-line;overflow-wrap:anywhere}
.rules{list-style:none;display:flex;flex-wrap:wrap;justify-content:center;gap:8px;margin:16px 0 0;padding:0}
.rules li{
  display:inline-flex;align-items:center;gap:6px;font-size:.8125rem;font-weight:500;color:var(--muted);
  padding:4px 10px;border-radius:999px;border:1px solid var(--line);background:var(--bg);
}
.rules li::before{content:"";width:6px;height:6px;border-radius:50%;background:var(--accent)}
.notice{border-radius:10px;padding:12px 14px;margin:0 0 16px;font-size:.9375rem;border:1px solid transparent}
.notice:empty{display:none}
.notice strong{display:block}
.closed{background:var(--warn-bg);border-color:var(--warn-line);color:var(--warn)}
fieldset{border:0;margin:0;padding:0;min-width:0}
fieldset:disabled .dropzone,fieldset:disabled .field{opacity:.55}
fieldset:disabled .dropzone{cursor:not-allowed}
.dropzone{
  position:relative;display:flex;flex-direction:column;align-items:center;justify-content:center;gap:4px;
  min-height:168px;padding:24px;text-align:center;cursor:pointer;
  border:2px dashed var(--line);border-radius:12px;background:var(--bg);
  transition:border-color .15s,background-color .15s;
}
.dropzone:hover,.dropzone.dragging{border-color:var(--accent);background:var(--soft)}
.dropzone:focus-within{outline:3px solid var(--ink);outline-offset:2px}
.dropzone.has-file{border-style:solid;border-color:var(--accent)}
.dropzone.invalid{border-color:var(--danger)}
.dz-empty{display:flex;flex-direction:column;align-items:center;gap:2px}
.dz-hint{display:block;margin-top:10px}
.dz-icon{width:40px;height:40px;color:var(--ink);margin-bottom:6px}
.dz-title{font-weight:600}
.dz-sub,.dz-hint{color:var(--muted);font-size:.875rem}
.dz-link{color:var(--ink);font-weight:600;text-decoration:underline;text-underline-offset:2px}
.file{display:flex;align-items:center;gap:12px;width:100%;max-width:420px;text-align:left}
.file-icon{
  flex:none;width:40px;height:40px;border-radius:8px;display:grid;place-items:center;
  background:var(--accent);color:var(--on-accent);font-size:.6875rem;font-weight:700;letter-spacing:.02em;
}
.file-meta{min-width:0;flex:1}
.file-name{display:block;font-weight:600;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.file-size{display:block;color:var(--muted);font-size:.875rem}
.visually-hidden{
  position:absolute!important;width:1px!important;height:1px!important;padding:0!important;margin:-1px!important;
  overflow:hidden!important;clip:rect(0,0,0,0)!important;white-space:nowrap!important;border:0!important;
}
.field{margin-top:16px}
.field label{display:block;font-weight:600;font-size:.9375rem;margin-bottom:6px}
.opt{font-weight:400;color:var(--muted)}
.req{color:var(--danger);margin-left:2px}
input[type=text],input[type=email],textarea{
  width:100%;font:inherit;color:inherit;background:var(--field);
  border:1px solid var(--line);border-radius:10px;padding:10px 12px;
}
textarea{resize:vertical;min-height:88px}
input:focus,textarea:focus{outline:3px solid color-mix(in srgb,var(--ink) 35%,transparent);outline-offset:0;border-color:var(--ink)}
[aria-invalid=true]{border-color:var(--danger)!important}
.field-error{margin:6px 0 0;color:var(--danger);font-size:.875rem}
.field-error:empty{display:none}
.progress{margin-top:20px}
.progress[hidden]{display:none}
.progress-row{display:flex;justify-content:space-between;font-size:.875rem;color:var(--muted);margin-bottom:6px}
.progress-pct{font-variant-numeric:tabular-nums;font-weight:600;color:var(--text)}
.track{height:10px;border-radius:999px;background:var(--line);overflow:hidden}
.bar{height:100%;width:0;border-radius:inherit;background:var(--accent);transition:width .15s ease-out}
.status{margin:20px 0 0}
.status.error{background:var(--danger-bg);border-color:var(--danger-line);color:var(--danger)}
.status.info{background:var(--bg);border-color:var(--line);color:var(--muted)}
.actions{display:flex;gap:10px;margin-top:20px}
button{font:inherit;cursor:pointer;border-radius:10px;padding:12px 18px;font-weight:600}
.primary{flex:1;border:0;background:var(--accent);color:var(--on-accent)}
.primary:hover{filter:brightness(1.06)}
.secondary{background:transparent;color:var(--text);border:1px solid var(--line)}
button:focus-visible{outline:3px solid var(--ink);outline-offset:2px}
button:disabled{opacity:.55;cursor:not-allowed;filter:none}
.success{text-align:center;padding:8px 0 4px}
.success:focus{outline:none}
.tick{
  width:56px;height:56px;margin:0 auto 12px;border-radius:50%;display:grid;place-items:center;
  background:var(--ok-bg);color:var(--ok);border:1px solid var(--ok-line);
}
.tick svg{width:28px;height:28px}
.success p{color:var(--muted);margin:0 0 20px;overflow-wrap:anywhere}
.foot{margin-top:20px;font-size:.8125rem;color:var(--muted);text-align:center}
[hidden]{display:none!important}
@media (prefers-reduced-motion:reduce){*{transition:none!important}}
`;
