-- Issue 28: a pending removal of the authenticator says who asked for it. 'owner' (requestTwoFactorReset) or
-- 'not_me' (the "this wasn't me" link of the "authenticator set up" notice, which used to remove it at once; now it
-- waits like the owner's reset and a code from the authenticator cancels it). See modules/security/two-factor-removal.ts.
ALTER TABLE two_factor_resets ADD COLUMN origin text NOT NULL DEFAULT 'owner' CHECK (origin IN ('owner', 'not_me'));
