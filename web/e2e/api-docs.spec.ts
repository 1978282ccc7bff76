import { expect, test } from '@playwright/test';

/**
 * The API's reference at /docs (Swagger UI) under its own Content-Security-Policy (src/http/security-headers.ts):
 * scripts and styles only from /docs/static and Swagger UI's one inline style by hash. The page must still fetch the
 * OpenAPI document and render the operations, with no policy violation reported by the browser.
 */
test('Swagger UI loads and renders the operations under its policy, with no violation', async ({ page, request }) => {
  const violations: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy|Permissions policy|Unrecognized feature/i.test(m.text())) violations.push(m.text());
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) =>
      console.log(`Content Security Policy: ${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  const res = await page.goto('/docs/');
  expect(res?.headers()['content-security-policy']).toContain("script-src 'self'");
  // The document is fetched and rendered: its title and its first operations are on the page.
  await expect(page.locator('.opblock').first()).toBeVisible({ timeout: 90_000 });
  const title = (await (await request.get('/api/openapi.json')).json()).info.title;
  await expect(page.locator('.info .title')).toContainText(title);
  expect(violations).toEqual([]);
});
