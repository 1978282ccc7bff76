import { expect, type Page } from '@playwright/test';

/**
 * What a 360 px phone shows, checked in the page: no element reaches past the screen's edges, and no text is cut
 * (an element with its own text whose content is wider than its box: an ellipsis, a hidden overflow, a spill).
 * Elements entirely off screen (the skip link, the closed menu drawer) and visually hidden ones are left out;
 * form fields scroll their own text by design.
 */
export async function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const vw = document.documentElement.clientWidth;
    const problems: string[] = [];
    const name = (el: Element) => {
      const text = (el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
      const cls = typeof el.className === 'string' ? el.className.split(' ').find((c) => c.startsWith('mantine-')) : '';
      return `<${el.tagName.toLowerCase()}${cls ? ` .${cls}` : ''}> "${text}"`;
    };
    const ownText = (el: Element) => [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && (n.textContent ?? '').trim() !== '');
    for (const el of document.querySelectorAll('body *')) {
      if (el instanceof SVGElement && el.ownerSVGElement) continue;
      const r = el.getBoundingClientRect();
      if (r.width <= 1 || r.height <= 1) continue;
      if (r.right <= 0 || r.left >= vw) continue;
      const cs = getComputedStyle(el);
      if (cs.visibility === 'hidden' || cs.display === 'contents') continue;
      if (r.left < -1 || r.right > vw + 1) {
        problems.push(`wider than the screen (${Math.round(r.left)}..${Math.round(r.right)} of ${vw}): ${name(el)}`);
        continue;
      }
      if (!(el instanceof HTMLElement) || ['INPUT', 'SELECT', 'TEXTAREA', 'OPTION'].includes(el.tagName)) continue;
      if (cs.display === 'inline' || !ownText(el)) continue;
      if (el.scrollWidth > el.clientWidth + 1) problems.push(`text cut (${el.scrollWidth} in ${el.clientWidth}): ${name(el)}`);
    }
    return problems;
  });
}

/** Opens `url`, waits for its heading and for the app to settle, and adds what does not fit to `problems`. */
export async function checkFits(page: Page, url: string, screen: string, problems: string[]) {
  await page.goto(url);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(200);
  problems.push(...(await layoutProblems(page)).map((p) => `${screen}: ${p}`));
}

/**
 * Every word on the screen that breaks across lines, measured in the page: for each visible text node, each word's
 * Range gives one rectangle per line box it is drawn on, so a word whose rectangles sit on two lines has been broken
 * inside (an ellipsis or a hyphen added by the browser shows up the same way).
 */
export async function brokenWords(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const broken: string[] = [];
    const range = document.createRange();
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      const text = node.textContent ?? '';
      if (!el || text.trim() === '' || el.closest('script, style, noscript')) continue;
      for (const m of text.matchAll(/\S+/g)) {
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const rects = [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0);
        if (rects.some((r) => Math.abs(r.top - rects[0].top) > r.height / 2)) {
          const cls = typeof el.className === 'string' && el.className ? `.${el.className.split(' ')[0]}` : '';
          broken.push(`"${m[0]}" in <${el.tagName.toLowerCase()}${cls}>`);
        }
      }
    }
    return broken;
  });
}
