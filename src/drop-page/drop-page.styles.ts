import type { DropPageTheme } from './drop-page.theme';

/** Custom properties from the drop's theme. Every value is a validated `#rrggbb`, never user text. */
export function themeCss(theme: DropPageTheme): string {
  return (
    `:root{--accent:${theme.accent};--on-accent:${theme.onAccent};--ink:${theme.ink};--soft:${theme.soft}}` +
    `@media (prefers-color-scheme:dark){:root{--ink:${theme.inkDark};--soft:${theme.softDark}}}`
  );
}
