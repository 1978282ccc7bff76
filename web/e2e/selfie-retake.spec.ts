import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { expectAccessible, newestCode, typeCode } from './support';

/**
 * Issue 43: the selfie is one capture (three pictures a moment apart, one tap), shown before it is sent, retaken at
 * will; a selfie the liveness check refuses starts again from the camera (not a black preview with only "Submit").
 * The sandbox's liveness check is told to refuse the first selfie (`fail`) and pass the second.
 */
test('the selfie is one capture with retake, and a refused selfie is taken again', async ({ page, request }) => {
  const email = `selfie-${randomUUID().slice(0, 8)}@example.com`;
  await request.post('/sandbox/identity/liveness', { data: { email, outcome: 'fail' } });
  const since = Date.now();
  await page.goto('/');
  await page.getByLabel('E-mail address').fill(email);
  await page.getByRole('button', { name: 'Send code' }).click();
  await typeCode(page, '6-digit code', await newestCode(request, email, 'mailbox', since - 1));
  await expect(page.getByRole('heading', { name: 'Welcome' })).toBeVisible();
  await page.getByRole('link', { name: 'Finish later' }).click();
  await page.goto('/kyc');
  await page.getByRole('button', { name: /Tier 1/ }).click();

  await page.getByRole('button', { name: 'Open the camera' }).click();
  await page.getByRole('button', { name: 'Take the pictures' }).click();
  for (let n = 1; n <= 3; n++) await expect(page.getByRole('img', { name: `Picture ${n} of 3` })).toBeVisible();
  await expectAccessible(page, 'selfie-taken');
  // Retake: the pictures go, the camera is still on.
  await page.getByRole('button', { name: 'Retake' }).click();
  await expect(page.getByRole('img', { name: 'Picture 1 of 3' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Take the pictures' }).click();
  await page.getByRole('button', { name: 'Submit for review' }).click();
  await expect(page.getByTestId('tier1-status')).toHaveText('Rejected', { timeout: 30_000 });

  // Refused: the camera again, and the second selfie passes.
  await request.post('/sandbox/identity/liveness', { data: { email, outcome: 'pass' } });
  await expect(page.getByRole('img', { name: 'Picture 1 of 3' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Open the camera' }).click();
  await page.getByRole('button', { name: 'Take the pictures' }).click();
  await expect(page.getByRole('img', { name: 'Picture 3 of 3' })).toBeVisible();
  await page.getByRole('button', { name: 'Submit for review' }).click();
  await expect(page.getByTestId('tier1-status')).toHaveText('Approved', { timeout: 30_000 });
  await expectAccessible(page, 'selfie-passed');
});
