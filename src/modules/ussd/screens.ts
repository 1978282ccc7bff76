import type { UssdTexts } from './texts.js';

/**
 * A USSD screen: `CON` keeps the session open for an answer, `END` closes it. Every screen fits USSD_SCREEN_MAX
 * characters (Africa's Talking's limit for a session's page); lists are paged to fit, each page numbering its items
 * from 1, with "9 More" and "0 Back".
 */
export const USSD_SCREEN_MAX = 182;
export const MORE = '9';
export const BACK = '0';
/** The most items a page lists (1-8: 9 and 0 are More and Back). */
const PAGE_ITEMS = 8;

export interface Screen {
  end: boolean;
  text: string;
}

/** Cuts a screen to the limit (a long name from a catalogue never breaks the gateway). */
export function fit(text: string): string {
  return text.length <= USSD_SCREEN_MAX ? text : `${text.slice(0, USSD_SCREEN_MAX - 1)}.`;
}

export const con = (...lines: string[]): Screen => ({ end: false, text: fit(lines.filter(Boolean).join('\n')) });
export const end = (...lines: string[]): Screen => ({ end: true, text: fit(lines.filter(Boolean).join('\n')) });

/** The gateway's wire form of a screen. */
export const wire = (s: Screen): string => `${s.end ? 'END' : 'CON'} ${s.text}`;

/** Numbered lines: "1 Balance", "2 Airtime", ... */
export const numbered = (items: readonly string[]): string[] => items.map((item, i) => `${i + 1} ${item}`);

const short = (s: string, max = 44) => (s.length <= max ? s : `${s.slice(0, max - 1)}.`);

/**
 * The pages of a list under a header: each page as many items as fit the screen with its More and Back lines.
 * Greedy from the first item, so the same list always pages the same way.
 */
export function pagesOf(header: string, items: readonly string[], t: UssdTexts): number[][] {
  const pages: number[][] = [];
  let i = 0;
  while (i < items.length) {
    const page: number[] = [];
    let length = header.length + `\n${MORE} ${t.more}\n${BACK} ${t.back}`.length;
    while (i < items.length && page.length < PAGE_ITEMS) {
      const line = `\n${page.length + 1} ${short(items[i]!)}`.length;
      if (page.length && length + line > USSD_SCREEN_MAX) break;
      length += line;
      page.push(i++);
    }
    pages.push(page);
  }
  return pages;
}

/** One page of a list: its header, its items numbered from 1, More when another page follows, Back. */
export function listPage(header: string, items: readonly string[], page: number, t: UssdTexts): Screen {
  const pages = pagesOf(header, items, t);
  const shown = pages[page] ?? [];
  const lines = shown.map((index, n) => `${n + 1} ${short(items[index]!)}`);
  return con(header, ...lines, page + 1 < pages.length ? `${MORE} ${t.more}` : '', `${BACK} ${t.back}`);
}

/** The item an answer picks on a page (its index in the whole list), or null. */
export function pickOnPage(header: string, items: readonly string[], page: number, answer: string, t: UssdTexts): number | null {
  const shown = pagesOf(header, items, t)[page] ?? [];
  const n = /^\d$/.test(answer) ? Number(answer) : 0;
  return n >= 1 && n <= shown.length ? shown[n - 1]! : null;
}

export const pageCount = (header: string, items: readonly string[], t: UssdTexts) => pagesOf(header, items, t).length;
